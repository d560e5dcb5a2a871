/**
 * Generates the labelled set: short 720p clips cut from real footage with catalogue logos
 * composited under known perspective, scale, rotation, blur, noise, lighting, partial occlusion
 * (a "player" passing in front) and motion over time. Ground truth is the quad per frame.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadLogo, type RgbaImage } from '../../packages/engine/src/image-io.ts';
import { quadIoU } from '../../packages/engine/src/geometry.ts';
import { compositeLogo, type RgbImage } from '../../packages/engine/src/synth.ts';
import { SHARED, type CatalogLogo } from './catalog.ts';
import { gauss, rng, uniform } from './random.ts';

const run = promisify(execFile);

export const CLIP_FPS = 12;
export const CLIP_SECONDS = 3;
export const CLIP_W = 1280;
export const CLIP_H = 720;

const FOOTAGE: [string, number][] = [
  ['footage/seriea-broadcast.mp4', 13.3],
  ['footage/Megamind.avi', 11.3],
  ['footage/VID00003-20100701-2204.avi', 46.7],
  ['footage/cup.mp4', 8.1],
  ['footage/big_buck_bunny.mp4', 5.2],
  ['footage/tree.avi', 29.6],
];

export interface Instance {
  brand: string;
  kind: CatalogLogo['kind'];
  /** visible frames [from, to) */
  from: number;
  to: number;
  /** quad per frame (index = frame), empty where not visible */
  quads: number[][];
  /** the logo's short side in pixels at its first visible frame (the size bucket) */
  size: number;
  /**
   * Frames where the logo, though drawn, is not there to see (it barely changes the pixels: a
   * black icon in a night scene). Not scored: a detection there is neither right nor wrong.
   */
  hidden?: number[];
}

export interface Clip {
  file: string;
  footage: string;
  fps: number;
  frames: number;
  instances: Instance[];
}

async function footageFrames(file: string, start: number): Promise<RgbImage[]> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      start.toFixed(2),
      '-i',
      join(SHARED, file),
      '-t',
      String(CLIP_SECONDS),
      '-vf',
      `fps=${CLIP_FPS},scale=${CLIP_W}:${CLIP_H}:flags=bicubic,setsar=1`,
      '-frames:v',
      String(CLIP_FPS * CLIP_SECONDS),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 30 },
  );
  const size = CLIP_W * CLIP_H * 3;
  const frames: RgbImage[] = [];
  for (let o = 0; o + size <= stdout.length; o += size)
    frames.push({ width: CLIP_W, height: CLIP_H, data: new Uint8Array(stdout.subarray(o, o + size)) });
  while (frames.length < CLIP_FPS * CLIP_SECONDS)
    frames.push({ ...frames[frames.length - 1], data: Uint8Array.from(frames[frames.length - 1].data) });
  return frames;
}

function encode(file: string, frames: RgbImage[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      'ffmpeg',
      [
        '-v',
        'error',
        '-y',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${CLIP_W}x${CLIP_H}`,
        '-r',
        String(CLIP_FPS),
        '-i',
        'pipe:0',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '20',
        '-pix_fmt',
        'yuv420p',
        file,
      ],
      { stdio: ['pipe', 'ignore', 'inherit'] },
    );
    p.on('error', reject);
    p.on('close', (c) => (c === 0 ? resolve() : reject(new Error(`ffmpeg encode exit ${c}`))));
    (async () => {
      for (const f of frames)
        if (!p.stdin.write(Buffer.from(f.data))) await new Promise((r) => p.stdin.once('drain', r));
      p.stdin.end();
    })().catch(reject);
  });
}

/** Quad of a w x h logo centred at (cx, cy): perspective (foreshortening, tilt), then rotation. */
function makeQuad(
  cx: number,
  cy: number,
  w: number,
  h: number,
  persp: { side: number; tilt: number; flipSide: boolean },
  angle: number,
): number[] {
  const pts = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  // foreshortening: one vertical side shorter (board seen at an angle)
  const shortIdx = persp.flipSide ? [0, 3] : [1, 2];
  for (const i of shortIdx) pts[i][1] *= 1 - persp.side;
  // tilt: top edge shorter than bottom (seen from above)
  for (const i of [0, 1]) pts[i][0] *= 1 - persp.tilt;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return pts.flatMap(([x, y]) => [cx + x * c - y * s, cy + x * s + y * c]);
}

function bbox(q: number[]): number[] {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  return [
    Math.min(...xs),
    Math.min(...ys),
    Math.max(...xs),
    Math.min(...ys),
    Math.max(...xs),
    Math.max(...ys),
    Math.min(...xs),
    Math.max(...ys),
  ];
}

/** Generates `count` clips into `dir`; logos are drawn from `logos`. */
export async function generateClips(
  dir: string,
  logos: CatalogLogo[],
  count: number,
  seed: number,
  onClip?: (i: number) => void,
): Promise<Clip[]> {
  await mkdir(dir, { recursive: true });
  const r = rng(seed);
  const rasters = new Map<string, RgbaImage>();
  const clips: Clip[] = [];
  const n = CLIP_FPS * CLIP_SECONDS;
  for (let c = 0; c < count; c++) {
    const [footage, dur] = FOOTAGE[Math.floor(r() * FOOTAGE.length)];
    const frames = await footageFrames(footage, uniform(r, 0, Math.max(0, dur - CLIP_SECONDS - 0.2)));
    const instances: Instance[] = [];
    const nLogos = r() < 0.5 ? 1 : 2;
    for (let k = 0; k < nLogos; k++) {
      const logo = logos[Math.floor(r() * logos.length)];
      if (instances.some((i) => i.brand === logo.name)) continue;
      let raster = rasters.get(logo.file);
      if (!raster) rasters.set(logo.file, (raster = await loadLogo(logo.file, 800)));
      const aspect = raster.width / raster.height;
      let short = Math.exp(uniform(r, Math.log(16), Math.log(280)));
      let w = aspect >= 1 ? short * aspect : short;
      let h = aspect >= 1 ? short : short / aspect;
      const fit = Math.min(1, 900 / w, 500 / h);
      w *= fit;
      h *= fit;
      short *= fit;
      const persp = { side: uniform(r, 0, 0.35), tilt: uniform(r, 0, 0.25), flipSide: r() < 0.5 };
      const angle = Math.max(-0.35, Math.min(0.35, gauss(r) * 0.1));
      const margin = Math.max(w, h) / 2 + 130;
      const cx0 = uniform(r, margin, CLIP_W - margin);
      const cy0 = uniform(r, Math.max(h, 80), CLIP_H - Math.max(h, 80));
      if (!(margin * 2 < CLIP_W)) continue;
      const moving = r() < 0.6;
      const dx = moving ? uniform(r, -120, 120) : 0;
      const dy = moving ? uniform(r, -40, 40) : 0;
      const s1 = moving ? uniform(r, 0.85, 1.15) : 1;
      const full = r() < 0.5;
      const from = full ? 0 : Math.floor(uniform(r, 0, n - 16));
      const to = full ? n : Math.min(n, from + 16 + Math.floor(r() * (n - from - 16)));
      const quads: number[][] = [];
      for (let f = 0; f < n; f++) {
        const p = f / (n - 1);
        const sc = 1 + (s1 - 1) * p;
        quads.push(
          f >= from && f < to ? makeQuad(cx0 + dx * p, cy0 + dy * p, w * sc, h * sc, persp, angle) : [],
        );
      }
      const overlaps = (f: number) =>
        instances.some(
          (i) => i.quads[f]?.length && quads[f].length && quadIoU(bbox(i.quads[f]), bbox(quads[f])) > 0,
        );
      const clash = overlaps(from) || overlaps(to - 1);
      if (
        clash ||
        quads.some((q) => q.length && q.some((v, i) => v < 2 || v > (i % 2 ? CLIP_H : CLIP_W) - 2))
      )
        continue;
      const look = { blur: uniform(r, 0, 1.2), brightness: uniform(r, 0.7, 1.2) };
      const occluded = r() < 0.25;
      const occ = {
        w: uniform(r, 0.12, 0.3) * Math.max(w, h),
        x0: uniform(r, -0.6, 0.2),
        speed: uniform(r, 0.3, 0.8),
        col: [uniform(r, 10, 90), uniform(r, 10, 90), uniform(r, 10, 90)],
      };
      // Checked after its look is drawn, so that every other logo of the set stays as it was: two
      // logos never overlap in a frame where both are shown (one would hide the other).
      if (quads.some((q, f) => q.length && overlaps(f))) continue;
      const hidden: number[] = [];
      for (let f = from; f < to; f++) {
        const before = frames[f].data.slice();
        await compositeLogo(frames[f], raster, quads[f], look);
        if (visibility(before, frames[f], quads[f]) < MIN_VISIBILITY) hidden.push(f);
        if (occluded) occlude(frames[f], quads[f], occ, (f - from) / (to - from));
      }
      instances.push({ brand: logo.name, kind: logo.kind, from, to, quads, size: short, hidden });
    }
    const noise = uniform(r, 0, 6);
    if (noise > 0.5) for (const f of frames) addNoise(f, noise, r);
    const file = join(dir, `clip-${String(c).padStart(3, '0')}.mp4`);
    await encode(file, frames);
    clips.push({ file, footage, fps: CLIP_FPS, frames: n, instances });
    onClip?.(c + 1);
  }
  await writeFile(join(dir, 'truth.json'), JSON.stringify(clips));
  return clips;
}

/** Least {@link visibility} of a logo in a frame where it is scored. */
const MIN_VISIBILITY = 10;

/**
 * How much compositing the logo changed the frame: mean absolute change per channel over the
 * quad's area (transparent parts of an icon count as unchanged). A black icon on a night scene
 * scores near 0.
 */
function visibility(before: Uint8Array, after: RgbImage, q: number[]): number {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  const x0 = Math.max(0, Math.floor(Math.min(...xs)) - 2);
  const x1 = Math.min(after.width, Math.ceil(Math.max(...xs)) + 2);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)) - 2);
  const y1 = Math.min(after.height, Math.ceil(Math.max(...ys)) + 2);
  let sum = 0;
  for (let y = y0; y < y1; y++)
    for (let i = (y * after.width + x0) * 3; i < (y * after.width + x1) * 3; i++)
      sum += Math.abs(after.data[i] - before[i]);
  const area = Math.abs(
    (q[0] * q[3] -
      q[2] * q[1] +
      q[2] * q[5] -
      q[4] * q[3] +
      q[4] * q[7] -
      q[6] * q[5] +
      q[6] * q[1] -
      q[0] * q[7]) /
      2,
  );
  return sum / (3 * Math.max(1, area));
}

/** Whether an instance is scored at frame `f`: shown then, and visible (see {@link visibility}). */
export function scored(i: Instance, f: number): boolean {
  return f >= i.from && f < i.to && !i.hidden?.includes(f);
}

/** A dark vertical bar (a player, a goal post) passing over part of the logo. */
function occlude(
  img: RgbImage,
  q: number[],
  occ: { w: number; x0: number; speed: number; col: number[] },
  p: number,
) {
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const left = x0 + (x1 - x0) * (occ.x0 + occ.speed * p);
  const top = y0 - (y1 - y0) * 0.3;
  const bottom = y1 + (y1 - y0) * 0.3;
  for (let y = Math.max(0, Math.floor(top)); y < Math.min(img.height, bottom); y++)
    for (let x = Math.max(0, Math.floor(left)); x < Math.min(img.width, left + occ.w); x++) {
      const d = (y * img.width + x) * 3;
      img.data[d] = occ.col[0];
      img.data[d + 1] = occ.col[1];
      img.data[d + 2] = occ.col[2];
    }
}

function addNoise(img: RgbImage, sigma: number, r: () => number) {
  // A precomputed noise table keeps this cheap at 720p.
  const table = new Int8Array(4096);
  for (let i = 0; i < table.length; i++)
    table[i] = Math.max(-127, Math.min(127, Math.round(gauss(r) * sigma)));
  let k = Math.floor(r() * 4096);
  const d = img.data;
  for (let i = 0; i < d.length; i++) {
    k = (k * 1103515245 + 12345) & 4095;
    const v = d[i] + table[k];
    d[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
}
