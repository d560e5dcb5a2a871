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
 * Photos are not videos: their labels stay in the JSON.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { quadIoU } from '../../../packages/engine/src/index.ts';
import { framePng, quadBox } from '../../../packages/engine/test/fixtures.ts';
import { SHARED } from '../catalog.ts';
import type { Instance, Quad, Truth } from './truth.ts';

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

async function push(truth: Truth, token: string): Promise<void> {
  const paths = new Map(truth.sources.map((s) => [s.id, join(SHARED, s.path)]));
  const videos = truth.sources.filter((s) => s.kind === 'video').map((s) => s.id);
  const brandIds = new Map<string, number>();
  for (const b of truth.brands) {
    if (!truth.frames.some((f) => videos.includes(f.source) && f.instances.some((i) => i.brand === b.name)))
      continue;
    const form = new FormData();
    form.set('name', b.name);
    for (const [k, e] of b.examples.entries()) {
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
  for (const source of videos) {
    const form = new FormData();
    form.set('name', videoName(source));
    form.set('videoFile', new Blob([new Uint8Array(await readFile(paths.get(source)!))]), `${source}.mp4`);
    const video = (await api('POST', '/api/videos/create/', token, form)) as { id: number };
    for (let i = 0; ; i++) {
      const v = (await api('GET', `/api/videos/${video.id}/`, token)) as { status: string };
      if (v.status === 'OK') break;
      if (v.status === 'ERROR PROCESSING' || i > 600) throw new Error(`${source}: video ${v.status}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    // a label lasts until the next scored frame of its source (at most 1 s), so that a pull gives
    // each frame back only its own labels (frames are 1 s apart, some 0.5 s)
    const times = truth.frames.filter((f) => f.source === source).map((f) => f.time_ms!);
    const span = (t: number) => Math.min(1000, ...times.filter((u) => u > t).map((u) => u - t));
    const detections = truth.frames
      .filter((f) => f.source === source)
      .flatMap((f) =>
        f.instances.map((inst) => ({
          video: video.id,
          brand: brandIds.get(inst.brand)!,
          placement: placementId.get(inst.placement)!,
          time_begin: f.time_ms!,
          time_end: f.time_ms! + span(f.time_ms!),
          coordinates: [
            { start_time: f.time_ms!, end_time: f.time_ms! + span(f.time_ms!), points: inst.quad },
          ],
        })),
      );
    await api('POST', '/api/videos/detections/', token, { detections });
    console.log(`${source}: video ${video.id}, ${detections.length} labels`);
  }
}

async function pull(truth: Truth, token: string): Promise<void> {
  const tree = (await api('GET', '/api/videos/', token)) as { videos: { id: number; name: string }[] };
  const brands = (await api('GET', '/api/brands/', token)) as { id: number; name: string }[];
  const brandName = new Map(brands.map((b) => [b.id, b.name]));
  for (const s of truth.sources.filter((x) => x.kind === 'video')) {
    const video = tree.videos.find((v) => v.name === videoName(s.id));
    if (!video) throw new Error(`no video named '${videoName(s.id)}' on the server`);
    const dets = (await api(
      'GET',
      `/api/videos/detections/?videoId=${video.id}&startTime=0&endTime=${24 * 3600 * 1000}`,
      token,
    )) as {
      brand: number;
      placement: { localized_name: string };
      coordinates: { start_time: number; end_time: number; points: Quad }[];
    }[];
    for (const f of truth.frames.filter((x) => x.source === s.id)) {
      const before = f.instances;
      f.instances = dets.flatMap((d) => {
        const seg = d.coordinates.find((c) => c.start_time <= f.time_ms! && f.time_ms! < c.end_time);
        if (!seg) return [];
        const brand = brandName.get(d.brand)!;
        const prev = before
          .filter((i) => i.brand === brand)
          .sort((a, b) => quadIoU(b.quad, seg.points) - quadIoU(a.quad, seg.points))[0];
        const near = prev && quadIoU(prev.quad, seg.points) > 0.3 ? prev : null;
        return [
          {
            brand,
            quad: seg.points,
            kind: near?.kind ?? (d.placement.localized_name === 'Broadcast overlay' ? 'overlay' : 'board'),
            placement: d.placement.localized_name as Instance['placement'],
            difficult: near?.difficult ?? false,
          },
        ];
      });
    }
    console.log(
      `${s.id}: ${truth.frames.filter((x) => x.source === s.id).reduce((n, f) => n + f.instances.length, 0)} labels`,
    );
  }
  await writeFile(TRUTH, `${JSON.stringify(truth, null, 1)}\n`);
}

const truth = JSON.parse(await readFile(TRUTH, 'utf8')) as Truth;
const command = process.argv[2];
if (command !== 'push' && command !== 'pull') {
  console.error('usage: labels.ts push | pull   (LR_URL, LR_USERNAME, LR_PASSWORD)');
  process.exit(2);
}
const token = await login();
await (command === 'push' ? push(truth, token) : pull(truth, token));
