import { orbRuntime, type Cv } from './opencv.ts';
import { orbFeatures } from './orb.ts';

/** ORB keypoints and their 256-bit descriptors, in flat typed arrays (cheap to store and scan). */
export interface FeatureSet {
  count: number;
  /** x, y per keypoint, in the pixels of the image they were computed on. */
  xy: Float32Array;
  /** keypoint size (diameter at level 0 pixels), for scale sanity checks. */
  size: Float32Array;
  /** keypoint orientation in degrees (ORB's intensity centroid) */
  angle: Float32Array;
  /** 32 bytes per keypoint. */
  desc: Uint8Array;
}

/**
 * ORB patch size used for brands and frames alike (descriptors are only comparable with equal
 * patches). 23 rather than OpenCV's 31: on small and flat logos a smaller patch holds less of
 * the unknown background around the logo (benchmark: recall at >= 48 px 0.48 -> 0.51).
 */
export const PATCH_SIZE = 23;

export interface OrbOptions {
  maxFeatures: number;
  nLevels: number;
  scaleFactor: number;
  /** ORB patch size; smaller patches let small logos produce keypoints. */
  patchSize: number;
}

/** Grey image as a flat Uint8Array, row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
  /**
   * Colour, when known: the U plane then the V plane of yuv420p (each ceil(w/2) x ceil(h/2),
   * BT.601 full range, 128 = no colour), as the engine has ffmpeg decode video. Used to check a
   * match's colours.
   */
  uv?: Uint8Array;
  /**
   * Largest share of the frame that a logo may cover (see `plausible`); unset for video, where a
   * board never covers more than a quarter of the frame and shows at most a broadcast camera's
   * perspective. A photo may be a close-up of one logo, at a steep angle.
   */
  maxLogoShare?: number;
}

/** Buffers of a frame's planes, each once. */
export function transferList(frame: GrayImage): ArrayBuffer[] {
  const list = new Set<ArrayBuffer>([frame.data.buffer as ArrayBuffer]);
  if (frame.uv) list.add(frame.uv.buffer as ArrayBuffer);
  return [...list];
}

/** Size of one chroma plane of a w x h yuv420p image. */
export function chromaPlane(width: number, height: number): { cw: number; ch: number } {
  return { cw: Math.ceil(width / 2), ch: Math.ceil(height / 2) };
}

/**
 * Computes ORB features of a grey image. ORB was chosen because opencv.js ships it, it was the
 * fastest binary descriptor there, and its binary descriptors let one Hamming LSH index serve
 * every brand at once. It is now computed in orb.wasm ({@link orbOn}: OpenCV's keypoints and bytes,
 * about 14 ms for 3,200 keypoints at 720p), the OpenCV 5 runtime loaded beside `cv` (see
 * {@link getCv}) resizing its levels.
 */
export function computeOrb(cv: Cv, img: GrayImage, opts: OrbOptions): FeatureSet {
  return orbOn(orbRuntime(cv), img, opts);
}

/**
 * ORB features of a grey image computed in orb.wasm (see orb.ts), the runtime `cv` resizing the
 * pyramid's levels: the keypoints and bytes that OpenCV's `detectAndCompute` gives
 * ({@link orbOpenCv}), in its order, in well under half of its time.
 */
export function orbOn(cv: Cv, img: GrayImage, opts: OrbOptions): FeatureSet {
  const mat = new cv.Mat(img.height, img.width, cv.CV_8UC1);
  try {
    mat.data.set(img.data);
    const { count, xy, size, angle, desc } = orbFeatures(cv, mat, opts);
    return { count, xy, size, angle, desc };
  } finally {
    mat.delete();
  }
}

/** ORB features as OpenCV's own `detectAndCompute` computes them: the reference for {@link orbOn}. */
export function orbOpenCv(cv: Cv, img: GrayImage, opts: OrbOptions): FeatureSet {
  const mat = new cv.Mat(img.height, img.width, cv.CV_8UC1);
  const orb = new cv.ORB();
  const kp = new cv.KeyPointVector();
  const des = new cv.Mat();
  const mask = new cv.Mat();
  try {
    mat.data.set(img.data);
    orb.setMaxFeatures(opts.maxFeatures);
    orb.setNLevels(opts.nLevels);
    orb.setScaleFactor(opts.scaleFactor);
    orb.setPatchSize(opts.patchSize);
    orb.setEdgeThreshold(opts.patchSize);
    orb.detectAndCompute(mat, mask, kp, des);
    const count = kp.size() as number;
    const xy = new Float32Array(count * 2);
    const size = new Float32Array(count);
    const angle = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const k = kp.get(i);
      xy[i * 2] = k.pt.x;
      xy[i * 2 + 1] = k.pt.y;
      size[i] = k.size;
      angle[i] = k.angle;
    }
    const desc = new Uint8Array(count * 32);
    if (count > 0) desc.set((des.data as Uint8Array).subarray(0, count * 32));
    return { count, xy, size, angle, desc };
  } finally {
    mat.delete();
    orb.delete();
    kp.delete();
    des.delete();
    mask.delete();
  }
}

/** Downscales a grey image by 2 (2x2 box average). */
export function halve(img: GrayImage): GrayImage {
  const w = img.width >> 1;
  const h = img.height >> 1;
  const out = new Uint8Array(w * h);
  const s = img.data;
  const W = img.width;
  for (let y = 0; y < h; y++) {
    const r0 = 2 * y * W;
    const r1 = r0 + W;
    for (let x = 0; x < w; x++) {
      const c = 2 * x;
      out[y * w + x] = (s[r0 + c] + s[r0 + c + 1] + s[r1 + c] + s[r1 + c + 1] + 2) >> 2;
    }
  }
  return { width: w, height: h, data: out };
}

/** Concatenates feature sets, scaling each one's coordinates and sizes by its factor. */
export function mergeFeatures(parts: { f: FeatureSet; scale: number }[]): FeatureSet {
  const count = parts.reduce((n, p) => n + p.f.count, 0);
  const xy = new Float32Array(count * 2);
  const size = new Float32Array(count);
  const angle = new Float32Array(count);
  const desc = new Uint8Array(count * 32);
  let o = 0;
  for (const { f, scale } of parts) {
    for (let i = 0; i < f.count; i++) {
      xy[(o + i) * 2] = (f.xy[i * 2] + 0.5) * scale - 0.5;
      xy[(o + i) * 2 + 1] = (f.xy[i * 2 + 1] + 0.5) * scale - 0.5;
      size[o + i] = f.size[i] * scale;
      angle[o + i] = f.angle[i];
    }
    desc.set(f.desc, o * 32);
    o += f.count;
  }
  return { count, xy, size, angle, desc };
}
