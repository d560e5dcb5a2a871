import type { Cv } from './opencv.ts';

/** ORB keypoints and their 256-bit descriptors, in flat typed arrays (cheap to store and scan). */
export interface FeatureSet {
  count: number;
  /** x, y per keypoint, in the pixels of the image they were computed on. */
  xy: Float32Array;
  /** keypoint size (diameter at level 0 pixels), for scale sanity checks. */
  size: Float32Array;
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
}

/**
 * Computes ORB features of a grey image. ORB is used because opencv.js ships it, it is the
 * fastest binary descriptor there (about 130 ms for 3000 keypoints at 720p in WASM) and its
 * binary descriptors let one Hamming LSH index serve every brand at once.
 */
export function computeOrb(cv: Cv, img: GrayImage, opts: OrbOptions): FeatureSet {
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
    const count = des.rows as number;
    const xy = new Float32Array(count * 2);
    const size = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const k = kp.get(i);
      xy[i * 2] = k.pt.x;
      xy[i * 2 + 1] = k.pt.y;
      size[i] = k.size;
    }
    const desc = new Uint8Array(count * 32);
    if (count > 0) desc.set((des.data as Uint8Array).subarray(0, count * 32));
    return { count, xy, size, desc };
  } finally {
    mat.delete();
    orb.delete();
    kp.delete();
    des.delete();
    mask.delete();
  }
}
