import { readFileSync } from 'node:fs';
import type { Cv } from './opencv.ts';

/**
 * ORB's descriptors, computed beside OpenCV rather than by it (see `assembly/orb.ts`).
 *
 * OpenCV's `ORB::detectAndCompute` finds the keypoints on an image pyramid, then blurs every level
 * with a 7x7 Gaussian (sigma 2) and runs the rotated BRIEF tests on the blurred levels. Its
 * WebAssembly build has no SIMD, and the blur was over half of a frame's ORB. Here OpenCV's `detect`
 * finds the keypoints (the same ones: it is the same code without the descriptor half), OpenCV's
 * `resize` rebuilds the pyramid's levels as ORB builds them, and `orb.wasm` blurs them and computes
 * the descriptors, to the bit what OpenCV gives (features.test.ts).
 */

const orbModule = new WebAssembly.Module(readFileSync(new URL('./orb.wasm', import.meta.url)));

interface OrbExports {
  memory: WebAssembly.Memory;
  blur7(
    src: number,
    dst: number,
    w: number,
    h: number,
    row: number,
    tmp: number,
    k0: number,
    k1: number,
    k2: number,
    k3: number,
  ): void;
  describe(
    img: number,
    stride: number,
    kps: number,
    count: number,
    pattern: number,
    scratch: number,
    out: number,
  ): void;
}

/** One instance per thread, its memory grown as the largest image needs; `base` is where the
 * memory it was instantiated with ends, where this module's buffers start. */
let instance: { wasm: OrbExports; base: number } | null = null;

function orbWasm(): { wasm: OrbExports; base: number } {
  if (!instance) {
    const wasm = new WebAssembly.Instance(orbModule, {}).exports as unknown as OrbExports;
    instance = { wasm, base: wasm.memory.buffer.byteLength };
  }
  return instance;
}

/**
 * The 7-tap Gaussian of sigma 2 as OpenCV computes it for `GaussianBlur(..., Size(7, 7), 2, 2)` on a
 * level of ORB's pyramid (an ROI, so its float path): exp(-x^2 / 8) normalised to sum 1, in double,
 * then rounded to f32 (`getGaussianKernel(7, 2, CV_32F)`).
 */
export const GAUSS7: readonly number[] = (() => {
  const scale2X = -0.125 / (2 * 2); // OpenCV steps x by 2: x = 2 * (i - 3)
  const values = [-6, -4, -2].map((x) => Math.exp(x * x * scale2X));
  const sum = 2 * values.reduce((s, v) => s + v, 0) + 1;
  const mul = 1 / sum;
  return [...values.map((v) => Math.fround(v * mul)), Math.fround(mul)];
})();

/**
 * ORB's test points for a patch size other than 31: 512 points drawn by OpenCV's RNG seeded with
 * 0x34985739, each coordinate uniform in [-patch/2, patch/2] (OpenCV's `makeRandomPattern`), laid
 * out for `describe`: x of the tests' first points, their y, x of the second points, their y.
 */
const patterns = new Map<number, Float32Array>();
function pattern(patchSize: number): Float32Array {
  let p = patterns.get(patchSize);
  if (!p) {
    if (patchSize === 31) throw new Error('ORB patch size 31 uses a fixed pattern that is not built here');
    let state = 0x34985739n;
    const next = () => {
      state = (state & 0xffffffffn) * 4164903690n + (state >> 32n);
      return Number(state & 0xffffffffn);
    };
    const lo = -Math.trunc(patchSize / 2);
    const span = Math.trunc(patchSize / 2) + 1 - lo;
    p = new Float32Array(1024);
    for (let point = 0; point < 512; point++) {
      const at = (point & 1) * 512 + (point >> 1);
      p[at] = (next() % span) + lo;
      p[at + 256] = (next() % span) + lo;
    }
    patterns.set(patchSize, p);
  }
  return p;
}

/** A C `lrintf`: rounds half to even, as OpenCV's `cvRound` does in WebAssembly. */
function roundEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export interface KeypointsForDescriptors {
  count: number;
  /** level-0 coordinates, as ORB reports them */
  xy: Float32Array;
  angle: Float32Array;
  octave: Int32Array;
}

/**
 * The 32-byte descriptors of keypoints found by OpenCV's ORB `detect` on `mat` (8-bit, one
 * channel) with levels `scaleFactor` apart, as `detectAndCompute` would compute them (the levels
 * that hold keypoints are rebuilt; their octaves say how many). `cv` is the runtime that found them.
 */
export function orbDescriptors(
  cv: Cv,
  mat: Cv,
  kps: KeypointsForDescriptors,
  opts: { scaleFactor: number; patchSize: number },
): Uint8Array {
  const out = new Uint8Array(kps.count * 32);
  if (kps.count === 0) return out;
  const { wasm, base } = orbWasm();
  const pat = pattern(opts.patchSize);
  const width = mat.cols as number;
  const height = mat.rows as number;
  let levels = 0;
  for (const o of kps.octave) levels = Math.max(levels, o + 1);
  // the pattern, the keypoints, the descriptors, then a level's image, its blur, a row and its f32 rows
  let end = base;
  const take = (bytes: number) => {
    const start = end;
    end += Math.ceil(bytes / 16) * 16;
    return start;
  };
  const at = {
    pattern: take(1024 * 4),
    kps: take(kps.count * 12),
    out: take(kps.count * 32),
    scratch: take(512),
    src: take(width * height),
    dst: take(width * height),
    row: take((width + 6) * 4),
    tmp: take(width * height * 4),
  };
  if (end > wasm.memory.buffer.byteLength)
    wasm.memory.grow(Math.ceil((end - wasm.memory.buffer.byteLength) / 65536));
  const heap = wasm.memory.buffer;
  new Float32Array(heap, at.pattern, 1024).set(pat);
  const kpView = new DataView(heap, at.kps, kps.count * 12);
  const src = new Uint8Array(heap, at.src, width * height);
  const deg = Math.fround(Math.PI / 180);

  let prev: Cv = mat;
  let first = 0;
  for (let level = 0; level < levels; level++) {
    const layerScale = Math.fround(opts.scaleFactor ** level);
    const inv = Math.fround(1 / layerScale);
    let img: Cv = mat;
    if (level > 0) {
      img = new cv.Mat();
      const w = roundEven(Math.fround(width * inv));
      const h = roundEven(Math.fround(height * inv));
      cv.resize(prev, img, new cv.Size(w, h), 0, 0, cv.INTER_LINEAR_EXACT);
      if (prev !== mat) prev.delete();
      prev = img;
    }
    let last = first;
    while (last < kps.count && kps.octave[last] === level) last++;
    if (last > first) {
      const w = img.cols as number;
      const h = img.rows as number;
      src.set((img.data as Uint8Array).subarray(0, w * h));
      wasm.blur7(at.src, at.dst, w, h, at.row, at.tmp, GAUSS7[0], GAUSS7[1], GAUSS7[2], GAUSS7[3]);
      for (let j = first; j < last; j++) {
        const angle = Math.fround(kps.angle[j] * deg);
        const cx = roundEven(Math.fround(kps.xy[j * 2] * inv));
        const cy = roundEven(Math.fround(kps.xy[j * 2 + 1] * inv));
        const o = (j - first) * 12;
        kpView.setFloat32(o, Math.cos(angle), true);
        kpView.setFloat32(o + 4, Math.sin(angle), true);
        kpView.setInt32(o + 8, cy * w + cx, true);
      }
      wasm.describe(at.dst, w, at.kps, last - first, at.pattern, at.scratch, at.out + first * 32);
    }
    first = last;
  }
  if (prev !== mat) prev.delete();
  if (first !== kps.count) throw new Error('ORB keypoints are not in level order');
  out.set(new Uint8Array(heap, at.out, kps.count * 32));
  return out;
}
