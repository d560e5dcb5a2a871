/**
 * Moves the broadcast labels of `truth.json` into a running server of the product and back, so
 * that they are drawn and corrected with the product's own editor (its API is the editor's path):
 *
 * ```
 * LR_URL=http://127.0.0.1:8100 LR_USERNAME=admin LR_PASSWORD=... node --import tsx bench/engine/real-set/labels.ts push
 *   # then open each video in the editor, fix boxes, draw the misses (New Detections), review
 * LR_URL=... node --import tsx bench/engine/real-set/labels.ts pull      # rewrites the frames of truth.json
 * ```
 *
 * `push` creates the set's brands with their examples (cut from the footage at their own moments)
 * and deactivates them, so that the server's engine adds nothing of its own; uploads each clip;
 * and posts every labelled instance as a hand-drawn detection spanning its scored second. `pull`
 * reads the detections back: at each scored second, the quad of every detection active then is a
 * truth instance, its brand and placement as stored; kind and difficulty (which the product has
 * no field for) carry over from the nearest earlier label of the brand, else board / not difficult.
 *
 * Photos go through the editor too: the editor opens videos, so `push` makes each labelled photo a
 * one-second still video of the photo's own size (padded on the right and bottom to even sides, so
 * that pixel coordinates are the photo's) named `real-set <source> <photo>`, and posts its labels
 * over that second; `pull` reads the photo's labels back at 0.5 s (kind `photo`). Photos with no
 * logo of the set are pushed too, so that every scored photo can be looked at in the editor.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { quadIoU } from '../../../packages/engine/src/index.ts';
import { framePng, quadBox } from '../../../packages/engine/test/fixtures.ts';
import { SHARED } from '../catalog.ts';
import { truthProblems, type Example, type Frame, type Instance, type Quad, type Truth } from './truth.ts';

const TRUTH = join(import.meta.dirname, 'truth.json');
const URL_ = process.env.LR_URL ?? 'http://127.0.0.1:8000';

async function api(method: string, path: string, token: string | null, body?: unknown): Promise<unknown> {
  const res = await fetch(`${URL_}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Token ${token}` } : {}),
      ...(body instanceof FormData || body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.text();
}

async function login(): Promise<string> {
  const r = (await api('POST', '/api/profile/login/', null, {
    username: process.env.LR_USERNAME ?? 'admin',
    password: process.env.LR_PASSWORD,
  })) as { token: string };
  return r.token;
}

const videoName = (source: string) => `real-set ${source}`;
/** `real-set adidas-puma test/img_a_24`, `real-set logohunter sample_in/test16` */
function photoVideoName(frame: Frame): string {
  const file = frame.file!;
  const stem = basename(file)
    .replace(/_(jpe?g|png)\.rf\.[0-9a-f]+\.(jpe?g|png)$/i, '')
    .replace(/\.[^.]+$/, '');
  const folder =
    basename(dirname(file)) === 'images' ? basename(dirname(dirname(file))) : basename(dirname(file));
  return `real-set ${frame.source} ${folder}/${stem}`;
}
const photoFrames = (truth: Truth) => truth.frames.filter((f) => f.file !== undefined);
/** A photo is shown from 0 to 1 s; its labels are read back in the middle of that second. */
const PHOTO_SPAN_MS = 1000;
const PHOTO_READ_MS = 500;

const run = promisify(execFile);

/** A one-second still H.264 video of the photo at its own size (even sides, padded right and bottom). */
async function photoVideo(photo: Frame, dir: string): Promise<Buffer> {
  const file = join(SHARED, photo.file!);
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0',
    file,
  ]);
  const [w, h] = stdout.trim().split(',').map(Number);
  if (w !== photo.width || h !== photo.height)
    throw new Error(`${photo.file}: ffmpeg reads ${w}x${h}, truth.json says ${photo.width}x${photo.height}`);
  const out = join(dir, 'photo.mp4');
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-loop',
    '1',
    '-framerate',
    '5',
    '-i',
    file,
    '-t',
    '1',
    '-vf',
    'pad=ceil(iw/2)*2:ceil(ih/2)*2:0:0,format=yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '12',
    '-movflags',
    '+faststart',
    out,
  ]);
  return readFile(out);
}

async function waitUntilProcessed(id: number, token: string, what: string): Promise<void> {
  for (let i = 0; ; i++) {
    const v = (await api('GET', `/api/videos/${id}/`, token)) as { status: string };
    if (v.status === 'OK') return;
    if (v.status === 'ERROR PROCESSING' || i > 600) throw new Error(`${what}: video ${v.status}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function uploadVideo(name: string, bytes: Buffer, token: string): Promise<number> {
  const form = new FormData();
  form.set('name', name);
  form.set('videoFile', new Blob([new Uint8Array(bytes)]), `${name.replace(/[^\w.-]+/g, '_')}.mp4`);
  const video = (await api('POST', '/api/videos/create/', token, form)) as { id: number };
  await waitUntilProcessed(video.id, token, name);
  return video.id;
}

/** An example given as a file (of ../shared/data, or of a package in node_modules), as uploaded. */
async function exampleFile(e: Example): Promise<{ bytes: Buffer; name: string } | null> {
  if (!e.file) return null;
  const file = e.package
    ? join(import.meta.dirname, '../../../node_modules', e.package, e.file)
    : join(SHARED, e.file);
  return { bytes: await readFile(file), name: basename(file) };
}

async function push(truth: Truth, token: string): Promise<void> {
  const paths = new Map(truth.sources.map((s) => [s.id, join(SHARED, s.path)]));
  const videos = truth.sources.filter((s) => s.kind === 'video').map((s) => s.id);
  const brandIds = new Map<string, number>();
  for (const b of truth.brands) {
    if (!truth.frames.some((f) => f.instances.some((i) => i.brand === b.name))) continue;
    const form = new FormData();
    form.set('name', b.name);
    for (const [k, e] of b.examples.entries()) {
      const given = await exampleFile(e);
      if (given) {
        form.append('example_logos', new Blob([new Uint8Array(given.bytes)]), given.name);
        continue;
      }
      if (!e.source || !e.quad) continue;
      const frame = await framePng(paths.get(e.source)!, e.time_ms! / 1000);
      const meta = await sharp(frame).metadata();
      const [left, top, width, height] = quadBox(e.quad, meta.width!, meta.height!);
      const png = await sharp(frame).extract({ left, top, width, height }).png().toBuffer();
      form.append(
        'example_logos',
        new Blob([new Uint8Array(png)], { type: 'image/png' }),
        `example-${k}.png`,
      );
    }
    const created = (await api('POST', '/api/brands/create/', token, form)) as { id: number };
    brandIds.set(b.name, created.id);
    await api('PUT', '/api/brands/deactivate/', token, { id: created.id });
  }
  const placements = (await api('GET', '/api/videos/placements/', token)) as {
    id: number;
    localized_name: string;
  }[];
  const placementId = new Map(placements.map((p) => [p.localized_name, p.id]));
  const label = (inst: Instance, video: number, begin: number, end: number) => ({
    video,
    brand: brandIds.get(inst.brand)!,
    placement: placementId.get(inst.placement)!,
    time_begin: begin,
    time_end: end,
    coordinates: [{ start_time: begin, end_time: end, points: inst.quad }],
  });
  for (const source of videos) {
    const video = { id: await uploadVideo(videoName(source), await readFile(paths.get(source)!), token) };
    // a label lasts until the next scored frame of its source (at most 1 s), so that a pull gives
    // each frame back only its own labels (frames are 1 s apart, some 0.5 s)
    const times = truth.frames.filter((f) => f.source === source).map((f) => f.time_ms!);
    const span = (t: number) => Math.min(1000, ...times.filter((u) => u > t).map((u) => u - t));
    const detections = truth.frames
      .filter((f) => f.source === source)
      .flatMap((f) =>
        f.instances.map((inst) => label(inst, video.id, f.time_ms!, f.time_ms! + span(f.time_ms!))),
      );
    await api('POST', '/api/videos/detections/', token, { detections });
    console.log(`${source}: video ${video.id}, ${detections.length} labels`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'real-set-photo-'));
  try {
    for (const photo of photoFrames(truth)) {
      const id = await uploadVideo(photoVideoName(photo), await photoVideo(photo, dir), token);
      const detections = photo.instances.map((inst) => label(inst, id, 0, PHOTO_SPAN_MS));
      if (detections.length) await api('POST', '/api/videos/detections/', token, { detections });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `photos: ${photoFrames(truth).length} still videos, ${photoFrames(truth).reduce((n, f) => n + f.instances.length, 0)} labels`,
  );
}

interface StoredDetection {
  brand: number;
  placement: { localized_name: string };
  coordinates: { start_time: number; end_time: number; points: Quad }[];
}

/**
 * The labels of one scored moment: the quad of every detection active at `time` is an instance, its
 * brand and placement as stored; kind and difficulty carry over from the moment's label of the same
 * brand that the quad overlaps most (IoU > 0.3), else `fallbackKind` (from the placement) / not
 * difficult.
 */
function readBack(
  dets: StoredDetection[],
  time: number,
  before: Instance[],
  brandName: Map<number, string>,
  fallbackKind: (placement: string) => Instance['kind'],
): Instance[] {
  return dets.flatMap((d) => {
    const seg = d.coordinates.find((c) => c.start_time <= time && time < c.end_time);
    if (!seg) return [];
    const brand = brandName.get(d.brand)!;
    const prev = before
      .filter((i) => i.brand === brand)
      .sort((a, b) => quadIoU(b.quad, seg.points) - quadIoU(a.quad, seg.points))[0];
    const near = prev && quadIoU(prev.quad, seg.points) > 0.3 ? prev : null;
    return [
      {
        brand,
        // A corner dragged in the editor lands on display pixels scaled back to the video's:
        // a tenth of a pixel is all the precision a label has.
        quad: seg.points.map((v) => Math.round(v * 10) / 10) as Quad,
        kind: near?.kind ?? fallbackKind(d.placement.localized_name),
        placement: d.placement.localized_name as Instance['placement'],
        difficult: near?.difficult ?? false,
      },
    ];
  });
}

async function pull(truth: Truth, token: string): Promise<void> {
  const tree = (await api('GET', '/api/videos/', token)) as { videos: { id: number; name: string }[] };
  const brands = (await api('GET', '/api/brands/', token)) as { id: number; name: string }[];
  const brandName = new Map(brands.map((b) => [b.id, b.name]));
  const detectionsOf = async (name: string) => {
    const video = tree.videos.find((v) => v.name === name);
    if (!video) throw new Error(`no video named '${name}' on the server`);
    return (await api(
      'GET',
      `/api/videos/detections/?videoId=${video.id}&startTime=0&endTime=${24 * 3600 * 1000}`,
      token,
    )) as StoredDetection[];
  };
  for (const s of truth.sources.filter((x) => x.kind === 'video')) {
    const dets = await detectionsOf(videoName(s.id));
    for (const f of truth.frames.filter((x) => x.source === s.id))
      f.instances = readBack(dets, f.time_ms!, f.instances, brandName, (p) =>
        p === 'Broadcast overlay' ? 'overlay' : 'board',
      );
    console.log(
      `${s.id}: ${truth.frames.filter((x) => x.source === s.id).reduce((n, f) => n + f.instances.length, 0)} labels`,
    );
  }
  for (const f of photoFrames(truth))
    f.instances = readBack(
      await detectionsOf(photoVideoName(f)),
      PHOTO_READ_MS,
      f.instances,
      brandName,
      () => 'photo',
    );
  console.log(`photos: ${photoFrames(truth).reduce((n, f) => n + f.instances.length, 0)} labels`);
  await writeFile(TRUTH, `${JSON.stringify(truth, null, 1)}\n`);
  // written all the same, so that no correction made in the editor is lost; real.ts refuses to
  // score until these are fixed there and pulled again
  for (const p of truthProblems(truth)) console.error(`to fix in the editor: ${p}`);
}

const truth = JSON.parse(await readFile(TRUTH, 'utf8')) as Truth;
const command = process.argv[2];
if (command !== 'push' && command !== 'pull') {
  console.error('usage: labels.ts push | pull   (LR_URL, LR_USERNAME, LR_PASSWORD)');
  process.exit(2);
}
const token = await login();
await (command === 'push' ? push(truth, token) : pull(truth, token));
