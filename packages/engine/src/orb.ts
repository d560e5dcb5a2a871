import { readFileSync } from 'node:fs';
import type { Cv } from './opencv.ts';

/**
 * ORB in WebAssembly with SIMD (`assembly/orb.ts`, built into `orb.wasm`): the keypoints and the
 * descriptors that OpenCV's `ORB::detectAndCompute` gives, to the bit and in its order
 * (features.test.ts compares them), in well under half of its time. OpenCV's WebAssembly builds
 * have no SIMD.
 *
 * As OpenCV's ORB (with its defaults: FAST threshold 20, Harris scores, first level 0, 2-point
 * tests): the pyramid's levels, each resized from the one before by OpenCV's `resize`
 * (INTER_LINEAR_EXACT, the sides rounded as ORB rounds them); on each level FAST-9 corners with
 * non-maximum suppression, away from the border by the patch size, the best twice the level's
 * share by FAST score, then the best of those by Harris response (both with OpenCV's
 * `KeyPointsFilter::retainBest`, whose order is libc++'s `nth_element` and `partition`, ported
 * here); the intensity centroid's orientation; then each level blurred with a 7x7 Gaussian
 * (sigma 2) and the rotated BRIEF tests run on it.
 */

const orbModule = new WebAssembly.Module(readFileSync(new URL('./orb.wasm', import.meta.url)));

interface OrbExports {
  memory: WebAssembly.Memory;
  fastScores(
    img: number,
    w: number,
    x0: number,
    x1: number,
    y0: number,
    y1: number,
    threshold: number,
    offsets: number,
    scores: number,
    scratch: number,
  ): void;
  fastMaxima(scores: number, w: number, x0: number, x1: number, y0: number, y1: number, out: number): number;
  harris(img: number, stride: number, centres: number, count: number, out: number): void;
  angles(
    img: number,
    stride: number,
    centres: number,
    count: number,
    umax: number,
    half: number,
    out: number,
  ): void;
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

export interface OrbParams {
  maxFeatures: number;
  nLevels: number;
  scaleFactor: number;
  patchSize: number;
}

/** ORB's keypoints (level-0 coordinates, sizes, orientations in degrees, levels) and descriptors. */
export interface OrbResult {
  count: number;
  xy: Float32Array;
  size: Float32Array;
  angle: Float32Array;
  octave: Int32Array;
  /** 32 bytes per keypoint */
  desc: Uint8Array;
}

/** FAST's threshold in OpenCV's ORB (its default) */
const FAST_THRESHOLD = 20;
/** the circle of FAST-9 in OpenCV's order, (dx, dy) */
const CIRCLE = [
  [0, 3],
  [1, 3],
  [2, 2],
  [3, 1],
  [3, 0],
  [3, -1],
  [2, -2],
  [1, -3],
  [0, -3],
  [-1, -3],
  [-2, -2],
  [-3, -1],
  [-3, 0],
  [-3, 1],
  [-2, 2],
  [-1, 3],
];
/**
 * ORB of `mat` (8-bit, one channel, on the runtime `cv`, whose `resize` builds the levels), as
 * OpenCV's `ORB::create(maxFeatures, scaleFactor, nLevels, patchSize, 0, 2, HARRIS, patchSize)`'s
 * `detectAndCompute` gives it.
 */
export function orbFeatures(cv: Cv, mat: Cv, opts: OrbParams): OrbResult {
  const { wasm, base } = orbWasm();
  const { patchSize, scaleFactor, nLevels, maxFeatures } = opts;
  const width = mat.cols as number;
  const height = mat.rows as number;
  const edge = patchSize; // the engine sets ORB's edge threshold to the patch size
  const perLevel = featuresPerLevel(maxFeatures, scaleFactor, nLevels);

  // the levels that can hold a keypoint (each smaller than the one before)
  const levels: { w: number; h: number; scale: number; inv: number; at: number }[] = [];
  for (let level = 0; level < nLevels; level++) {
    const scale = Math.fround(scaleFactor ** level);
    const inv = Math.fround(1 / scale);
    const w = level === 0 ? width : roundEven(Math.fround(width * inv));
    const h = level === 0 ? height : roundEven(Math.fround(height * inv));
    if (w <= 2 * edge || h <= 2 * edge) break;
    levels.push({ w, h, scale, inv, at: 0 });
  }
  if (levels.length === 0) return empty();

  // memory: the pattern, FAST's offsets, umax, scratch, the levels (each padded), then the work area
  const mem = arena(wasm, base);
  const take = mem.take;
  const at = { pattern: take(4096), offsets: take(64), umax: take(64 * 4), scratch: take(1024) };
  for (const l of levels) l.at = take(l.w * l.h);
  const work = mem.mark();
  // FAST's scores and its corners: at most one in each 2x2 cell survives the suppression
  const scoresAt = take(width * height);
  const cornersAt = take(Math.ceil(width / 2) * Math.ceil(height / 2) * 12);
  mem.fit();

  // the levels, resized by OpenCV as ORB resizes them
  let prev: Cv = mat;
  for (const [i, l] of levels.entries()) {
    let img: Cv = mat;
    if (i > 0) {
      img = new cv.Mat();
      cv.resize(prev, img, new cv.Size(l.w, l.h), 0, 0, cv.INTER_LINEAR_EXACT);
      if (prev !== mat) prev.delete();
      prev = img;
    }
    new Uint8Array(wasm.memory.buffer, l.at, l.w * l.h).set((img.data as Uint8Array).subarray(0, l.w * l.h));
  }
  if (prev !== mat) prev.delete();

  // FAST on each level, the best 2 * share by score
  const found: { x: Int32Array; y: Int32Array; response: Float32Array; keep: Int32Array }[] = [];
  for (const [i, l] of levels.entries()) {
    const offsets = new Int32Array(wasm.memory.buffer, at.offsets, 16);
    CIRCLE.forEach(([dx, dy], k) => (offsets[k] = dx + dy * l.w));
    new Uint8Array(wasm.memory.buffer, scoresAt, l.w * l.h + 64).fill(0);
    const x0 = Math.max(3, edge - 1);
    const y0 = Math.max(3, edge - 1);
    wasm.fastScores(
      l.at,
      l.w,
      x0,
      Math.min(l.w - 3, l.w - edge + 1),
      y0,
      Math.min(l.h - 3, l.h - edge + 1),
      FAST_THRESHOLD,
      at.offsets,
      scoresAt,
      at.scratch,
    );
    const n = wasm.fastMaxima(scoresAt, l.w, edge, l.w - edge, edge, l.h - edge, cornersAt);
    const raw = new Int32Array(wasm.memory.buffer, cornersAt, n * 3);
    const x = new Int32Array(n);
    const y = new Int32Array(n);
    const response = new Float32Array(n);
    for (let k = 0; k < n; k++) {
      x[k] = raw[k * 3];
      y[k] = raw[k * 3 + 1];
      response[k] = raw[k * 3 + 2];
    }
    const keep = Int32Array.from({ length: n }, (_, k) => k);
    found.push({ x, y, response, keep: keep.subarray(0, retainBest(keep, response, 2 * perLevel[i])) });
  }

  // Harris responses of those, the best share of each level by them, and their orientations
  const half = patchSize >> 1;
  new Int32Array(wasm.memory.buffer, at.umax, half + 2).set(umax(half));
  const chosen: Int32Array[] = [];
  const orientation: Float32Array[] = [];
  for (const [i, l] of levels.entries()) {
    const { x, y, response, keep } = found[i];
    const count = keep.length;
    mem.reset(work);
    const centresAt = take(count * 4);
    const outAt = take(count * 4);
    mem.fit();
    const centres = new Int32Array(wasm.memory.buffer, centresAt, count);
    for (let k = 0; k < count; k++) centres[k] = y[keep[k]] * l.w + x[keep[k]];
    wasm.harris(l.at, l.w, centresAt, count, outAt);
    const harris = new Float32Array(wasm.memory.buffer, outAt, count);
    for (let k = 0; k < count; k++) response[keep[k]] = harris[k];
    const best = keep.subarray(0, retainBest(keep, response, perLevel[i]));
    const c = new Int32Array(wasm.memory.buffer, centresAt, best.length);
    for (let k = 0; k < best.length; k++) c[k] = y[best[k]] * l.w + x[best[k]];
    wasm.angles(l.at, l.w, centresAt, best.length, at.umax, half, outAt);
    chosen.push(best);
    orientation.push(new Float32Array(wasm.memory.buffer, outAt, best.length).slice());
  }

  const count = chosen.reduce((s, c) => s + c.length, 0);
  const xy = new Float32Array(count * 2);
  const size = new Float32Array(count);
  const angle = new Float32Array(count);
  const octave = new Int32Array(count);
  let o = 0;
  for (const [i, l] of levels.entries()) {
    const { x, y } = found[i];
    for (const [k, j] of chosen[i].entries()) {
      xy[o * 2] = Math.fround(x[j] * l.scale);
      xy[o * 2 + 1] = Math.fround(y[j] * l.scale);
      size[o] = Math.fround(patchSize * l.scale);
      angle[o] = orientation[i][k];
      octave[o] = i;
      o++;
    }
  }
  return {
    count,
    xy,
    size,
    angle,
    octave,
    desc: describeAll(wasm, at, mem, work, levels, { xy, angle, octave, count }, patchSize),
  };
}

/**
 * Bump allocation in orb.wasm's memory from `start`: each block 16-aligned with 64 bytes to spare
 * (the SIMD loops read up to 16 bytes past a row); `fit` grows the memory to hold what was taken,
 * `reset` returns to a `mark`.
 */
function arena(wasm: OrbExports, start: number) {
  let end = start;
  return {
    take(bytes: number): number {
      const at = end;
      end += Math.ceil((bytes + 64) / 16) * 16;
      return at;
    },
    mark: () => end,
    reset(to: number) {
      end = to;
    },
    fit() {
      const have = wasm.memory.buffer.byteLength;
      if (end > have) wasm.memory.grow(Math.ceil((end - have) / 65536));
    },
  };
}

function empty(): OrbResult {
  return {
    count: 0,
    xy: new Float32Array(0),
    size: new Float32Array(0),
    angle: new Float32Array(0),
    octave: new Int32Array(0),
    desc: new Uint8Array(0),
  };
}

/** The descriptors: each level blurred, then the rotated tests around each of its keypoints. */
function describeAll(
  wasm: OrbExports,
  at: { pattern: number; scratch: number },
  mem: ReturnType<typeof arena>,
  work: number,
  levels: { w: number; h: number; inv: number; at: number }[],
  kps: { count: number; xy: Float32Array; angle: Float32Array; octave: Int32Array },
  patchSize: number,
): Uint8Array {
  if (kps.count === 0) return new Uint8Array(0);
  const { w: width, h: height } = levels[0];
  mem.reset(work);
  const take = mem.take;
  const dst = take(width * height);
  const row = take((width + 6) * 4);
  const tmp = take(width * height * 4);
  const kpsAt = take(kps.count * 12);
  const out = take(kps.count * 32);
  mem.fit();
  const heap = wasm.memory.buffer;
  new Float32Array(heap, at.pattern, 1024).set(pattern(patchSize));
  const kpView = new DataView(heap, kpsAt, kps.count * 12);
  const deg = Math.fround(Math.PI / 180);
  let first = 0;
  for (const [level, l] of levels.entries()) {
    let last = first;
    while (last < kps.count && kps.octave[last] === level) last++;
    if (last === first) continue;
    wasm.blur7(l.at, dst, l.w, l.h, row, tmp, GAUSS7[0], GAUSS7[1], GAUSS7[2], GAUSS7[3]);
    for (let j = first; j < last; j++) {
      const angle = Math.fround(kps.angle[j] * deg);
      // as OpenCV finds the centre: from the level-0 coordinates
      const cx = roundEven(Math.fround(kps.xy[j * 2] * l.inv));
      const cy = roundEven(Math.fround(kps.xy[j * 2 + 1] * l.inv));
      const o = (j - first) * 12;
      kpView.setFloat32(o, Math.cos(angle), true);
      kpView.setFloat32(o + 4, Math.sin(angle), true);
      kpView.setInt32(o + 8, cy * l.w + cx, true);
    }
    wasm.describe(dst, l.w, kpsAt, last - first, at.pattern, at.scratch, out + first * 32);
    first = last;
  }
  return new Uint8Array(heap, out, kps.count * 32).slice();
}

/** Each level's share of the keypoints, as OpenCV's ORB computes it (in f32). */
function featuresPerLevel(maxFeatures: number, scaleFactor: number, nLevels: number): number[] {
  const factor = Math.fround(1 / scaleFactor);
  let share = Math.fround(
    Math.fround(maxFeatures * Math.fround(1 - factor)) / Math.fround(1 - Math.fround(factor ** nLevels)),
  );
  const out: number[] = [];
  let sum = 0;
  for (let level = 0; level < nLevels - 1; level++) {
    out.push(roundEven(share));
    sum += out[level];
    share = Math.fround(share * factor);
  }
  out.push(Math.max(maxFeatures - sum, 0));
  return out;
}

/** Half-width of each row of the circular patch of radius `half`, made symmetric as OpenCV's ORB makes it. */
function umax(half: number): Int32Array {
  const u = new Int32Array(half + 2);
  const sqrt2 = Math.fround(Math.SQRT2);
  const vmax = Math.floor(Math.fround(Math.fround(Math.fround(half * sqrt2) / 2) + 1));
  const vmin = Math.ceil(Math.fround(Math.fround(half * sqrt2) / 2));
  for (let v = 0; v <= vmax; v++) u[v] = roundEven(Math.sqrt(half * half - v * v));
  for (let v = half, v0 = 0; v >= vmin; v--) {
    while (u[v0] === u[v0 + 1]) v0++;
    u[v] = v0;
    v0++;
  }
  return u;
}

/**
 * OpenCV's `KeyPointsFilter::retainBest` on the keypoints `keep` (indices into `response`): if
 * there are more than `n`, libc++'s `nth_element` puts the n best (by response, largest first)
 * before the rest, and `partition` brings those of the rest that tie with the n-th after them; the
 * first returned-count of `keep` are then kept, in the order these leave them.
 */
export function retainBest(keep: Int32Array, response: Float32Array, n: number): number {
  const len = keep.length;
  if (n < 0 || len <= n) return len;
  if (n === 0) return 0;
  nthElement(keep, response, 0, n - 1, len);
  const boundary = response[keep[n - 1]];
  // std::partition (bidirectional) of [n, len) by response >= boundary
  let f = n;
  let l = len;
  for (;;) {
    for (;;) {
      if (f === l) return f;
      if (!(response[keep[f]] >= boundary)) break;
      f++;
    }
    do {
      if (f === --l) return f;
    } while (!(response[keep[l]] >= boundary));
    swap(keep, f, l);
    f++;
  }
}

function swap(v: Int32Array, i: number, j: number): void {
  const t = v[i];
  v[i] = v[j];
  v[j] = t;
}

/**
 * libc++'s `std::nth_element(first, nth, last, comp)` (algorithm/nth_element.h), with comp "larger
 * response", on positions of `v`: the same swaps in the same order, so ties end where OpenCV's
 * (built with emscripten's libc++) leaves them.
 */
function nthElement(v: Int32Array, r: Float32Array, first: number, nth: number, last: number): void {
  const comp = (i: number, j: number) => r[v[i]] > r[v[j]];
  for (;;) {
    if (nth === last) return;
    const len = last - first;
    if (len <= 1) return;
    if (len === 2) {
      if (comp(last - 1, first)) swap(v, first, last - 1);
      return;
    }
    if (len === 3) {
      sort3(v, comp, first, first + 1, last - 1);
      return;
    }
    if (len <= 7) {
      selectionSort(v, comp, first, last);
      return;
    }
    let m = first + (len >> 1);
    const lm1 = last - 1;
    let swaps = sort3(v, comp, first, m, lm1);
    let i = first;
    let j = lm1;
    if (!comp(i, m)) {
      // *first == *m: look for a guard for the downward search
      let guard = false;
      for (;;) {
        if (i === --j) break;
        if (comp(j, m)) {
          guard = true;
          break;
        }
      }
      if (guard) {
        swap(v, i, j);
        swaps++;
      } else {
        // *m <= every other: partition into [first, i) == *first and *first < [i, last)
        i++;
        j = last;
        if (!comp(first, --j)) {
          for (;;) {
            if (i === j) return;
            if (comp(first, i)) {
              swap(v, i, j);
              swaps++;
              i++;
              break;
            }
            i++;
          }
        }
        if (i === j) return;
        for (;;) {
          while (!comp(first, i)) i++;
          do j--;
          while (comp(first, j));
          if (i >= j) break;
          swap(v, i, j);
          swaps++;
          i++;
        }
        if (nth < i) return;
        first = i;
        continue;
      }
    }
    i++;
    if (i < j) {
      for (;;) {
        while (comp(i, m)) i++;
        do j--;
        while (!comp(j, m));
        if (i >= j) break;
        swap(v, i, j);
        swaps++;
        if (m === i) m = j;
        i++;
      }
    }
    if (i !== m && comp(m, i)) {
      swap(v, i, m);
      swaps++;
    }
    if (nth === i) return;
    if (swaps === 0) {
      // perhaps already sorted: check the part that holds nth
      const [from, to] = nth < i ? [first, i] : [i, last];
      let sorted = true;
      for (let a = from, b = from + 1; b < to; a = b, b++)
        if (comp(b, a)) {
          sorted = false;
          break;
        }
      if (sorted) return;
    }
    if (nth < i) last = i;
    else first = i + 1;
  }
}

/** libc++'s `__sort3`: sorts 3 positions, returning its swaps. */
function sort3(
  v: Int32Array,
  comp: (i: number, j: number) => boolean,
  x: number,
  y: number,
  z: number,
): number {
  if (!comp(y, x)) {
    if (!comp(z, y)) return 0;
    swap(v, y, z);
    if (comp(y, x)) {
      swap(v, x, y);
      return 2;
    }
    return 1;
  }
  if (comp(z, y)) {
    swap(v, x, z);
    return 1;
  }
  swap(v, x, y);
  if (comp(z, y)) {
    swap(v, y, z);
    return 2;
  }
  return 1;
}

/** libc++'s `__selection_sort`: the least of the rest to the front, each in turn. */
function selectionSort(
  v: Int32Array,
  comp: (i: number, j: number) => boolean,
  first: number,
  last: number,
): void {
  for (; first !== last - 1; first++) {
    let least = first;
    for (let i = first + 1; i < last; i++) if (comp(i, least)) least = i;
    if (least !== first) swap(v, first, least);
  }
}
