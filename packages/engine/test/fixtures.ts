import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import asc from 'assemblyscript/asc';
import sharp from 'sharp';
import type { RgbImage } from '../src/synth.ts';

const run = promisify(execFile);

/**
 * The team's shared development data beside the repository (`../shared/data`), read in place: the
 * footage belongs to its rights holders and is for internal testing only, so frames and crops of
 * it are cut at test time and nothing of it is kept in the repository.
 */
export const SHARED_DATA = join(import.meta.dirname, '../../../../shared/data');
/** The Serie A broadcast clip (848 x 478) of the shared data. */
export const SERIEA_CLIP = join(SHARED_DATA, 'footage/seriea-broadcast.mp4');

/** Whether a file or folder exists (tests of the shared data are skipped without it). */
export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Small seeded PRNG so fixtures are the same on every run. */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'engine-test-'));
}

/** An asymmetric, textured logo as SVG (seeded shapes and letters-like strokes), w x h. */
export function texturedLogoSvg(seed: number, w = 320, h = 160): string {
  const r = rng(seed);
  const c = () => `hsl(${Math.floor(r() * 360)},${60 + Math.floor(r() * 40)}%,${25 + Math.floor(r() * 50)}%)`;
  let body = `<rect width="${w}" height="${h}" fill="${c()}"/>`;
  for (let i = 0; i < 28; i++) {
    const x = r() * w;
    const y = r() * h;
    const s = 8 + r() * 40;
    if (r() < 0.5)
      body += `<rect x="${x}" y="${y}" width="${s}" height="${s * (0.3 + r())}" fill="${c()}" transform="rotate(${r() * 90} ${x} ${y})"/>`;
    else
      body += `<polygon points="${x},${y} ${x + s},${y + s * 0.2} ${x + s * 0.4},${y + s}" fill="${c()}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
}

export async function writeSvg(dir: string, name: string, svg: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, svg);
  return file;
}

/**
 * A board's wordmark, light bold letters on a dark ground, as an SVG file in a new temporary
 * folder: an example whose words the text route reads.
 */
export async function wordmarkSvg(words: string): Promise<string> {
  return writeSvg(
    await tempDir(),
    'wordmark.svg',
    `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="120"><rect width="520" height="120" fill="#111"/><text x="20" y="88" font-family="DejaVu Sans" font-weight="bold" font-size="72" fill="#eee">${words}</text></svg>`,
  );
}

/** Writes the horizontally mirrored raster of an SVG as PNG. */
export async function writeMirroredPng(dir: string, name: string, svg: string): Promise<string> {
  const file = join(dir, name);
  await sharp(Buffer.from(svg)).flop().png().toFile(file);
  return file;
}

/** A busy but logo-free background: smooth colour gradients plus seeded blobs and lines. */
export async function background(seed: number, width: number, height: number): Promise<RgbImage> {
  const r = rng(seed);
  let body = `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2a6e3a"/><stop offset="1" stop-color="#8fb4c9"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/>`;
  for (let i = 0; i < 60; i++) {
    body += `<ellipse cx="${r() * width}" cy="${r() * height}" rx="${5 + r() * 60}" ry="${5 + r() * 30}" fill="hsl(${Math.floor(r() * 360)},30%,${30 + Math.floor(r() * 40)}%)" opacity="0.6"/>`;
  }
  for (let i = 0; i < 20; i++) {
    body += `<line x1="${r() * width}" y1="${r() * height}" x2="${r() * width}" y2="${r() * height}" stroke="#eee" stroke-width="${1 + r() * 3}" opacity="0.5"/>`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

export async function writePng(file: string, img: RgbImage): Promise<string> {
  await sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: 3 } })
    .png()
    .toFile(file);
  return file;
}

/** Encodes RGB frames into an H.264 video with ffmpeg (frames piped as rawvideo). */
export async function writeVideo(file: string, frames: RgbImage[], fps: number): Promise<string> {
  const { width, height } = frames[0];
  const raw = join(file + '.rgb');
  await writeFile(raw, Buffer.concat(frames.map((f) => Buffer.from(f.data))));
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${width}x${height}`,
    '-r',
    String(fps),
    '-i',
    raw,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '18',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}

export function maxCornerError(a: number[], b: number[]): number {
  let m = 0;
  for (let i = 0; i < 4; i++) m = Math.max(m, Math.hypot(a[i * 2] - b[i * 2], a[i * 2 + 1] - b[i * 2 + 1]));
  return m;
}

/** The frame of a video on screen at `seconds`, as PNG (ffmpeg). */
export async function framePng(video: string, seconds: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      video,
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-vcodec',
      'png',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 28 },
  );
  return stdout;
}

/** A box (left, top, width, height) of a video frame, as PNG: an example logo cut as a user would. */
export async function frameCrop(
  video: string,
  seconds: number,
  [left, top, width, height]: number[],
): Promise<Buffer> {
  return sharp(await framePng(video, seconds))
    .extract({ left, top, width, height })
    .png()
    .toBuffer();
}

/** The axis-aligned box (left, top, width, height) around a quad, clipped to an image. */
export function quadBox(quad: number[], imageWidth: number, imageHeight: number): number[] {
  const xs = quad.filter((_, i) => i % 2 === 0);
  const ys = quad.filter((_, i) => i % 2 === 1);
  const left = Math.max(0, Math.floor(Math.min(...xs)));
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  return [
    left,
    top,
    Math.min(imageWidth, Math.ceil(Math.max(...xs))) - left,
    Math.min(imageHeight, Math.ceil(Math.max(...ys))) - top,
  ];
}

/**
 * Builds `assembly/<name>.ts` as the package's `build:wasm:<name>` script does, into a temporary
 * file, and says whether the result equals the committed `src/<name>.wasm` (null when it does, or
 * the compiler's complaint or "differs").
 */
export async function committedWasmDiffers(name: string): Promise<string | null> {
  const engine = join(import.meta.dirname, '..');
  const pkg = JSON.parse(await readFile(join(engine, 'package.json'), 'utf8'));
  const args: string[] = pkg.scripts[`build:wasm:${name}`].split(' ').slice(1);
  const out = join(await tempDir(), `${name}.wasm`);
  args[args.indexOf('-o') + 1] = out;
  args[args.indexOf(`assembly/${name}.ts`)] = join(engine, `assembly/${name}.ts`);
  const { error, stderr } = await asc.main(args);
  if (error) return `${error.message}\n${stderr.toString()}`;
  return Buffer.compare(await readFile(out), await readFile(join(engine, `src/${name}.wasm`))) === 0
    ? null
    : 'differs';
}
