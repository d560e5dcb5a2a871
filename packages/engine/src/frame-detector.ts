import { colourModels, detectByColour } from './colour-route.ts';
import type { DescriptorIndex, Match } from './descriptor-index.ts';
import {
  chromaPlane,
  computeOrb,
  halve,
  mergeFeatures,
  PATCH_SIZE,
  type FeatureSet,
  type GrayImage,
} from './features.ts';
import {
  applyH,
  exampleToFrame,
  isConvexClockwise,
  projectRect,
  quadIoU,
  quadOverlapOfSmaller,
  sides,
  signedArea,
  type Quad,
} from './geometry.ts';
import type { Cv } from './opencv.ts';

/** An example's size and its verification thumbnails. */
export interface ThumbExample {
  width: number;
  height: number;
  tw: number;
  th: number;
  thumbs: Uint8Array[];
  /** alpha of a cut-out logo on the thumbnail grid (255 = logo) */
  mask?: Uint8Array;
  /** colour on the thumbnail grid: U plane then V plane */
  uv?: Uint8Array;
}

/** A logo instance found in one frame. */
export interface FrameHit {
  /** position of the brand in the brands array */
  brand: number;
  /** global example number in the {@link DescriptorIndex} */
  example: number;
  /** corners in analysis pixels */
  quad: Quad;
  inliers: number;
  /** 0..1 */
  score: number;
  /** true when found by following a track's pixels rather than by keypoint matching */
  followed?: boolean;
  /** correlation with the example at the final quad (see correlate) */
  ncc?: number;
}

/** Tunables of the per-frame detector (defaults come from the benchmark). */
export interface DetectorOptions {
  /** ORB keypoints per megapixel of the analysed frame. */
  featuresPerMp: number;
  minInliers: number;
  ransacThreshold: number;
  /** minimum normalised cross-correlation between the warped frame patch and the example */
  minCorrelation: number;
  /** brands a frame keypoint is matched to (nearest keypoint of each), see DescriptorIndex.match */
  brandsPerKeypoint: number;
  /**
   * ORB pyramid levels of the full-size frame (scale factor 1.25). With 4 levels (the half-size
   * pass covering the rest) analysis is about 5 % faster, but on the full benchmark (engine 0.4)
   * precision / recall at >= 48 px were 0.966 / 0.634 against 0.977 / 0.673 with 6, and corners
   * of a partly covered logo drift by 5 px; so 6.
   */
  nLevels: number;
  /** keypoint budget of the half-size pass, as a share of the full-size one */
  coarseShare: number;
  /** largest colour difference from the example allowed (see {@link chromaResidual}) */
  maxChroma: number;
  /** also look for flat single-colour icons by their colour and outline (see colour-route.ts) */
  colourRoute: boolean;
  /**
   * the colour route also takes boards, logos on a ground of one colour (see colour-route.ts; on
   * the benchmark: recall >= 48 px 0.82 -> 0.85 and 0.81 -> 0.87 on two seeds, detection about
   * 10 % slower on broadcast footage)
   */
  boards: boolean;
}

export const DEFAULT_DETECTOR: DetectorOptions = {
  featuresPerMp: 3500,
  minInliers: 8,
  ransacThreshold: 4,
  minCorrelation: 0.5,
  brandsPerKeypoint: 6,
  nLevels: 6,
  coarseShare: 0.5,
  maxChroma: 20,
  colourRoute: true,
  boards: true,
};

const MAX_INSTANCES_PER_EXAMPLE = 3;
const colourModelsOf = new WeakMap<DescriptorIndex, Map<boolean, ReturnType<typeof colourModels>>>();
/** Inlier keypoints must span this share of the example's area. */
const SPREAD = 0.08;

/** Diagnostics (bench/engine/diagnose.ts): told why a candidate of an example was dropped. */
export const trace: {
  lost?: (example: number, stage: string, value: number, quad?: Quad) => void;
  /** the colour residual of a candidate that passed every other check (-1: no colour known) */
  colour?: (example: number, residual: number, quad: Quad) => void;
  /** the outline overlap of a hit of the colour route (see colour-route.ts) */
  colourShape?: (example: number, iou: number, quad: Quad) => void;
} = {};
function lost(example: number, stage: string, value: number, quad?: Quad): null {
  trace.lost?.(example, stage, value, quad);
  return null;
}

/**
 * Finds every brand instance in one frame: ORB, shared LSH matching, RANSAC per example; then
 * the colour route (colour-route.ts) for flat one-colour icons that no keypoint fit found.
 */
export function detectInFrame(
  cv: Cv,
  frame: GrayImage,
  index: DescriptorIndex,
  opts: DetectorOptions = DEFAULT_DETECTOR,
): FrameHit[] {
  if (index.count === 0) return [];
  const feats = frameFeatures(cv, frame, opts);
  const matches = index.match(feats, 64, opts.brandsPerKeypoint);
  const byExample = new Map<number, Match[]>();
  for (const m of matches) {
    const e = index.exampleOf[m.t];
    let list = byExample.get(e);
    if (!list) byExample.set(e, (list = []));
    list.push(m);
  }
  const hits: FrameHit[] = [];
  for (const [example, list] of byExample) {
    let remaining = list.sort((a, b) => a.dist - b.dist);
    for (let inst = 0; inst < MAX_INSTANCES_PER_EXAMPLE && remaining.length >= opts.minInliers; inst++) {
      const found = fitExample(cv, index, example, remaining, feats, frame, opts);
      // Look for a further instance only after a verified one: the best consensus failing means
      // what is left is clutter, and RANSAC on clutter is the costliest step of a frame.
      if (!found?.hit) break;
      const hit = verify(cv, index, { ...found, hit: found.hit }, feats, frame, opts);
      if (!hit) break;
      hits.push(hit);
      remaining = remaining.filter((_, i) => !found.inlier[i]);
    }
  }
  if (opts.colourRoute) {
    let byBoards = colourModelsOf.get(index);
    if (!byBoards) colourModelsOf.set(index, (byBoards = new Map()));
    let models = byBoards.get(opts.boards);
    if (!models) byBoards.set(opts.boards, (models = colourModels(index, opts.boards)));
    const keypointHits = hits.slice();
    hits.push(
      ...detectByColour(frame, index, models, opts, (brand, quad) =>
        keypointHits.some((h) => h.brand === brand && quadIoU(h.quad, quad) > 0.3),
      ),
    );
  }
  return suppress(hits);
}

/** ORB keypoints of a frame: the full-size pyramid plus a half-size pass for large logos. */
export function frameFeatures(
  cv: Cv,
  frame: GrayImage,
  opts: DetectorOptions = DEFAULT_DETECTOR,
): FeatureSet {
  const maxFeatures = Math.max(500, Math.round((opts.featuresPerMp * frame.width * frame.height) / 1e6));
  const orb = { nLevels: opts.nLevels, scaleFactor: 1.25, patchSize: PATCH_SIZE };
  // ORB's pyramid gives its coarse levels a small share of the keypoint budget, and large logos
  // live there; a second pass on the half-size frame with its own budget finds them
  // (benchmark, per frame: recall on 200+ px logos 0.14 -> 0.18 with a full budget).
  return mergeFeatures([
    { f: computeOrb(cv, frame, { ...orb, maxFeatures }), scale: 1 },
    {
      f: computeOrb(cv, halve(frame), {
        ...orb,
        nLevels: 4,
        maxFeatures: Math.round(maxFeatures * opts.coarseShare),
      }),
      scale: 2,
    },
  ]);
}

function fitExample(
  cv: Cv,
  index: DescriptorIndex,
  example: number,
  list: Match[],
  feats: FeatureSet,
  frame: GrayImage,
  opts: DetectorOptions,
): (Omit<Fit, 'hit'> & { hit: FrameHit | null; inlier: boolean[] }) | null {
  const ex = index.examples[example];
  const all = new Float32Array(list.length * 4);
  const shape = new Float32Array(list.length * 2);
  list.forEach((m, i) => {
    all[i * 4] = index.xy[m.t * 2];
    all[i * 4 + 1] = index.xy[m.t * 2 + 1];
    all[i * 4 + 2] = feats.xy[m.q * 2];
    all[i * 4 + 3] = feats.xy[m.q * 2 + 1];
    shape[i * 2] = Math.log(feats.size[m.q] / Math.max(1e-3, index.sa[m.t * 2]));
    shape[i * 2 + 1] = feats.angle[m.q] - index.sa[m.t * 2 + 1];
  });
  // RANSAC on all matches of a cluttered frame is both slow (full iteration budget) and weak
  // (a 4-point sample is rarely all inliers); run it on the best similarity consensus instead.
  const chosen = similarityConsensus(all, shape, Math.hypot(ex.width, ex.height));
  if (chosen.length < opts.minInliers) return lost(example, 'consensus', chosen.length);
  const n = chosen.length;
  const src = new Float32Array(n * 2);
  const dst = new Float32Array(n * 2);
  chosen.forEach((k, i) => {
    src[i * 2] = all[k * 4];
    src[i * 2 + 1] = all[k * 4 + 1];
    dst[i * 2] = all[k * 4 + 2];
    dst[i * 2 + 1] = all[k * 4 + 3];
  });
  const srcMat = cv.matFromArray(n, 1, cv.CV_32FC2, src);
  const dstMat = cv.matFromArray(n, 1, cv.CV_32FC2, dst);
  const mask = new cv.Mat();
  let H: Float64Array | null = null;
  const inlier: boolean[] = new Array(list.length).fill(false);
  let count = 0;
  try {
    const h = cv.findHomography(srcMat, dstMat, cv.RANSAC, opts.ransacThreshold, mask, 500, 0.995);
    if (!h.empty() && h.rows === 3) {
      H = Float64Array.from(h.data64F as Float64Array);
      for (let i = 0; i < n; i++) {
        if (mask.data[i]) {
          inlier[chosen[i]] = true;
          count++;
        }
      }
    }
    h.delete();
  } finally {
    srcMat.delete();
    dstMat.delete();
    mask.delete();
  }
  if (!H || count < opts.minInliers) return lost(example, 'ransac', count);
  // One frame keypoint may vote once; duplicates inflate the inlier count on repetitive texture.
  const seenQ = new Set<number>();
  let unique = 0;
  list.forEach((m, i) => {
    if (inlier[i] && !seenQ.has(m.q)) {
      seenQ.add(m.q);
      unique++;
    }
  });
  let quad = exampleQuad(H, ex);
  // A logo symmetric under a half turn (or, when square, a quarter turn) fits upside down as well
  // as upright, and RANSAC may settle on either: take the upright reading and let the appearance
  // check decide whether the logo really looks like that.
  if (!plausible(quad, ex, frame)) {
    const upright = uprightTwin(quad, ex, frame);
    if (upright) {
      quad = upright;
      H = Float64Array.from(exampleToFrame(upright, ex.width, ex.height));
    }
  }
  const failed =
    unique < opts.minInliers
      ? 'unique'
      : !plausible(quad, ex, frame)
        ? 'plausible'
        : spread(all, inlier, ex) < SPREAD
          ? 'spread'
          : null;
  const ratio = count / list.length;
  const score = Math.min(1, Math.max(0, (1 - Math.exp(-(unique - 4) / 10)) * (0.6 + 0.4 * ratio)));
  const sim = similarityQuad(all, chosen, ex);
  if (failed === 'plausible' && unique >= opts.minInliers) {
    // Keypoints bunched on one part of a small logo (a wordmark's letters, a badge's centre)
    // leave its perspective undetermined, and the homography through them extrapolates wildly
    // to the far corners. The similarity through the same matches is well determined; the
    // corner polish then recovers the perspective from the pixels, and verify() asks for a
    // stronger correlation of such a fit.
    if (sim && plausible(sim, ex, frame)) {
      return {
        hit: { brand: ex.brand, example, quad: sim, inliers: unique, score },
        H: Float64Array.from(exampleToFrame(sim, ex.width, ex.height)),
        inlier,
        sim: null,
        similarityOnly: true,
      };
    }
  }
  if (failed) {
    lost(example, failed, unique, quad);
    return { hit: null, H, inlier };
  }
  return { hit: { brand: ex.brand, example, quad, inliers: unique, score }, H, inlier, sim };
}

/** A geometric fit of an example: its hit (quad and evidence) with the frame-from-example mapping. */
interface Fit {
  hit: FrameHit;
  H: Float64Array;
  /** the similarity through the same matches, the second reading (see similarityQuad) */
  sim?: Quad | null;
  /** the homography was implausible: the hit's quad is the similarity's */
  similarityOnly?: boolean;
}

/**
 * Checks a geometric fit by appearance: the homography's reading (verifyHomography) and, when
 * that is implausible or correlates under 0.7, the similarity's reading of the same matches
 * (verifySimilarity); null when the pixels inside neither quad look like the example.
 */
function verify(
  cv: Cv,
  index: DescriptorIndex,
  { hit, H, sim, similarityOnly }: Fit,
  feats: FeatureSet,
  frame: GrayImage,
  opts: DetectorOptions,
): FrameHit | null {
  const ex = index.examples[hit.example];
  if (similarityOnly) return verifySimilarity(hit, H, frame, ex, opts);
  const strong = verifyHomography(cv, index, hit, H, feats, frame, opts);
  if ((strong && strong.ncc >= SIMILARITY_MIN_CORRELATION) || !sim || !plausible(sim, ex, frame))
    return strong?.hit ?? null;
  // The homography through bunched keypoints can pass every check and still be off at the far
  // corners (a narrow quad on one half of the logo); the similarity through the same matches
  // is the other reading, and the one that the pixels agree with better is kept.
  const alt = verifySimilarity(
    { ...hit, quad: sim },
    Float64Array.from(exampleToFrame(sim, ex.width, ex.height)),
    frame,
    ex,
    opts,
  );
  return alt ?? strong?.hit ?? null;
}

/**
 * Refines a homography fit (guided matching) and checks it by appearance, polishing the corners;
 * null when the pixels inside the quad do not look like the example.
 */
function verifyHomography(
  cv: Cv,
  index: DescriptorIndex,
  hit: FrameHit,
  H: Float64Array,
  feats: FeatureSet,
  frame: GrayImage,
  opts: DetectorOptions,
): { hit: FrameHit; ncc: number } | null {
  const ex = index.examples[hit.example];
  const refined = refine(cv, index, hit, H, feats, frame, opts);
  const ncc = correlate(frame, refined.H, ex);
  // A fit resting on keypoints from one part of a flat logo can be tens of pixels off at the
  // far corners; with enough inliers, let the pixels pull it into place from farther away.
  const rescue = ncc < opts.minCorrelation && ncc >= 0.2 && refined.hit.inliers >= 10;
  if (ncc < opts.minCorrelation && !rescue) return lost(hit.example, 'ncc', ncc, refined.hit.quad);
  const polished = polishCorners(frame, refined.hit.quad, ex, ncc, rescue ? 10 : 40);
  if (
    polished.ncc < opts.minCorrelation ||
    !isConvexClockwise(polished.quad) ||
    !plausible(polished.quad, ex, frame)
  )
    return lost(hit.example, 'polish', polished.ncc, polished.quad);
  const colour = chromaResidual(frame, exampleToFrame(polished.quad, ex.width, ex.height), ex);
  trace.colour?.(hit.example, colour ?? -1, polished.quad);
  if (colour !== null && colour > opts.maxChroma) return lost(hit.example, 'colour', colour, polished.quad);
  const score = keypointScore(refined.hit.score, polished.ncc);
  return { hit: { ...refined.hit, quad: polished.quad, score, ncc: polished.ncc }, ncc: polished.ncc };
}

/**
 * A keypoint hit's score from its geometric evidence (inliers, see fitExample) and its
 * appearance: a correlation that is merely acceptable discounts the geometry a little, and a
 * strong one (0.7 to 1) is evidence of its own. The two are independent (keypoint descriptors
 * and positions against the pixels of the whole logo), so the strong appearance is combined with
 * the geometry as a second witness: a small logo that only 8-10 keypoints find but whose pixels
 * match it closely gets a score that a chance fit on clutter does not reach (on the benchmark and
 * on real broadcast footage, no false keypoint hit correlated above 0.8; most true ones did).
 */
export function keypointScore(geometric: number, ncc: number): number {
  const base = geometric * Math.min(1, 0.5 + ncc / 1.4);
  const appearance = APPEARANCE_WEIGHT * Math.min(1, Math.max(0, (ncc - 0.7) / 0.3));
  return 1 - (1 - base) * (1 - appearance);
}
const APPEARANCE_WEIGHT = 0.5;

/** Correlation asked of a fit through the similarity of bunched keypoints (see fitExample). */
const SIMILARITY_MIN_CORRELATION = 0.7;

/** verify() for a similarity fit: no guided refinement (its homography is what failed). */
function verifySimilarity(
  hit: FrameHit,
  H: Float64Array,
  frame: GrayImage,
  ex: ThumbExample,
  opts: DetectorOptions,
): FrameHit | null {
  const ncc = correlate(frame, H, ex);
  if (ncc < 0.3) return lost(hit.example, 'similarity', ncc, hit.quad);
  const polished = polishCorners(frame, hit.quad, ex, ncc, 40);
  if (
    polished.ncc < SIMILARITY_MIN_CORRELATION ||
    // the keypoints fixed the logo's place and size; the pixels only bend its perspective
    quadIoU(polished.quad, hit.quad) < 0.6 ||
    !isConvexClockwise(polished.quad) ||
    !plausible(polished.quad, ex, frame)
  )
    return lost(hit.example, 'similarity', polished.ncc, polished.quad);
  const colour = chromaResidual(frame, exampleToFrame(polished.quad, ex.width, ex.height), ex);
  if (colour !== null && colour > opts.maxChroma) return lost(hit.example, 'colour', colour, polished.quad);
  return { ...hit, quad: polished.quad, score: keypointScore(hit.score, polished.ncc), ncc: polished.ncc };
}

/**
 * Least-squares similarity (scale, rotation, shift) through the chosen matches (`all`: sx,sy,dx,dy),
 * applied to the example's outer edge.
 */
export function similarityQuad(
  all: Float32Array,
  chosen: number[],
  ex: { width: number; height: number },
): Quad | null {
  const n = chosen.length;
  let msx = 0,
    msy = 0,
    mdx = 0,
    mdy = 0;
  for (const k of chosen) {
    msx += all[k * 4] / n;
    msy += all[k * 4 + 1] / n;
    mdx += all[k * 4 + 2] / n;
    mdy += all[k * 4 + 3] / n;
  }
  let a = 0,
    b = 0,
    ss = 0;
  for (const k of chosen) {
    const px = all[k * 4] - msx;
    const py = all[k * 4 + 1] - msy;
    const qx = all[k * 4 + 2] - mdx;
    const qy = all[k * 4 + 3] - mdy;
    a += px * qx + py * qy;
    b += px * qy - py * qx;
    ss += px * px + py * py;
  }
  if (ss < 1e-6) return null;
  a /= ss;
  b /= ss;
  // pixel centres in, edge coordinates out (as exampleQuad)
  const map = (x: number, y: number) => [
    mdx + a * (x - msx) - b * (y - msy) + 0.5,
    mdy + b * (x - msx) + a * (y - msy) + 0.5,
  ];
  const [w, h] = [ex.width - 0.5, ex.height - 0.5];
  return [...map(-0.5, -0.5), ...map(w, -0.5), ...map(w, h), ...map(-0.5, h)];
}

/**
 * The example's outer edge (pixel centres run 0..w-1, so the edge is at -0.5..w-0.5) mapped into
 * the frame, back in edge coordinates.
 */
function exampleQuad(H: ArrayLike<number>, ex: { width: number; height: number }): Quad {
  const T = [1, 0, -0.5, 0, 1, -0.5, 0, 0, 1];
  const HT = mul3(H, T);
  return projectRect(HT, ex.width, ex.height).map((v) => v + 0.5);
}

function mul3(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const r: number[] = [];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) r.push(a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j]);
  return r;
}

/**
 * Guided matching: project every keypoint of the example through the first homography, pair it
 * with the most similar frame keypoint within a few pixels, and refit on those pairs. The
 * RANSAC fit rests on the matches the shared index proposed; this one uses every
 * consistent pair, which is what brings corners to within a pixel or two.
 */
function refine(
  cv: Cv,
  index: DescriptorIndex,
  hit: FrameHit,
  H0: Float64Array,
  feats: FeatureSet,
  frame: GrayImage,
  opts: DetectorOptions,
): { hit: FrameHit; H: ArrayLike<number> } {
  const ex = index.examples[hit.example];
  const grid = frameGrid(feats);
  const words = new Uint32Array(feats.desc.buffer, feats.desc.byteOffset, feats.count * 8);
  let H: ArrayLike<number> = H0;
  let best = hit;
  for (let round = 0; round < 3; round++) {
    const bestFor = new Map<number, { t: number; d: number }>();
    for (let t = ex.start; t < ex.end; t++) {
      const [px, py] = applyH(H, index.xy[t * 2], index.xy[t * 2 + 1]);
      if (!Number.isFinite(px)) continue;
      const cx = Math.floor(px / CELL);
      const cy = Math.floor(py / CELL);
      for (let gy = cy - 1; gy <= cy + 1; gy++) {
        for (let gx = cx - 1; gx <= cx + 1; gx++) {
          for (const q of grid.get(gy * 100000 + gx) ?? []) {
            if (Math.hypot(feats.xy[q * 2] - px, feats.xy[q * 2 + 1] - py) > 5) continue;
            const d = index.distance(words, q, t);
            if (d > 64) continue;
            const cur = bestFor.get(q);
            if (!cur || d < cur.d) bestFor.set(q, { t, d });
          }
        }
      }
    }
    if (bestFor.size < opts.minInliers) break;
    const src: number[] = [];
    const dst: number[] = [];
    // Keypoints from coarse pyramid levels are located on a coarse grid; when enough fine ones
    // exist, fit on those only.
    const fine = [...bestFor].filter(([q]) => feats.size[q] <= FINE_SIZE);
    const pairs = fine.length >= 2 * opts.minInliers ? fine : [...bestFor];
    for (const [q, { t }] of pairs) {
      src.push(index.xy[t * 2], index.xy[t * 2 + 1]);
      dst.push(feats.xy[q * 2], feats.xy[q * 2 + 1]);
    }
    const n = pairs.length;
    const srcMat = cv.matFromArray(n, 1, cv.CV_32FC2, src);
    const dstMat = cv.matFromArray(n, 1, cv.CV_32FC2, dst);
    const mask = new cv.Mat();
    try {
      const h = cv.findHomography(srcMat, dstMat, cv.RANSAC, 2.5, mask, 500, 0.995);
      if (h.empty() || h.rows !== 3) {
        h.delete();
        break;
      }
      const Hn = Float64Array.from(h.data64F as Float64Array);
      h.delete();
      let count = 0;
      for (let i = 0; i < n; i++) if (mask.data[i]) count++;
      const quad = exampleQuad(Hn, ex);
      if (count < opts.minInliers || !plausible(quad, ex, frame)) break;
      H = Hn;
      best = { ...best, quad, inliers: Math.max(best.inliers, count) };
    } finally {
      srcMat.delete();
      dstMat.delete();
      mask.delete();
    }
  }
  return { hit: best, H };
}

const CELL = 8;

/**
 * Appearance check: samples the frame through the homography on the example's thumbnail grid
 * (2x2 supersampled) and returns the best normalised cross-correlation with the thumbnails.
 * Keypoint geometry alone lets a dozen chance matches on busy backgrounds agree; the pixels
 * inside the quad must also look like the logo. A mirrored logo fails here too.
 */
export function correlate(frame: GrayImage, H: ArrayLike<number>, ex: ThumbExample): number {
  const { tw, th } = ex;
  const n = tw * th;
  const sample = new Float32Array(n);
  const valid = new Uint8Array(n);
  let inside = 0;
  const fx = ex.width / tw;
  const fy = ex.height / th;
  // Sample a pyramid level where a thumbnail pixel spans about two frame pixels: point samples
  // of a large logo at full resolution alias its thin strokes away.
  const [cx, cy] = applyH(H, (tw / 2) * fx - 0.5, (th / 2) * fy - 0.5);
  const [ux, uy] = applyH(H, (tw / 2 + 1) * fx - 0.5, (th / 2) * fy - 0.5);
  const [vx, vy] = applyH(H, (tw / 2) * fx - 0.5, (th / 2 + 1) * fy - 0.5);
  const span = Math.min(Math.hypot(ux - cx, uy - cy), Math.hypot(vx - cx, vy - cy));
  const level = Number.isFinite(span) ? Math.max(0, Math.min(4, Math.floor(Math.log2(span / 2)))) : 0;
  const img = pyramidLevel(frame, level);
  const k = 1 / (1 << level);
  for (let v = 0; v < th; v++) {
    for (let u = 0; u < tw; u++) {
      let acc = 0;
      let cnt = 0;
      for (const [du, dv] of SUB) {
        const [px, py] = applyH(H, (u + du) * fx - 0.5, (v + dv) * fy - 0.5);
        const val = bilinear(img, (px + 0.5) * k - 0.5, (py + 0.5) * k - 0.5);
        if (val >= 0) {
          acc += val;
          cnt++;
        }
      }
      if (cnt === SUB.length) {
        sample[v * tw + u] = acc / cnt;
        valid[v * tw + u] = 1;
        inside++;
      }
    }
  }
  if (inside < n * 0.5) return 0;
  let best = ex.mask ? maskedFit(sample, valid, ex.mask, ex.thumbs[0]) : -1;
  // Per vertical band sums, so that the correlation can also be taken without one or two
  // adjacent bands: a player or a post in front of a logo covers a vertical strip of it.
  const st = new Float64Array(BANDS * 6);
  const sums = new Float64Array(6);
  for (const t of ex.thumbs) {
    st.fill(0);
    for (let v = 0; v < th; v++) {
      for (let u = 0; u < tw; u++) {
        const i = v * tw + u;
        if (!valid[i]) continue;
        const o = Math.min(BANDS - 1, Math.floor((u * BANDS) / tw)) * 6;
        const a = sample[i];
        const b = t[i];
        st[o] += 1;
        st[o + 1] += a;
        st[o + 2] += b;
        st[o + 3] += a * a;
        st[o + 4] += b * b;
        st[o + 5] += a * b;
      }
    }
    for (let skip = 0; skip <= 2; skip++) {
      for (let first = 0; first + skip <= (skip ? BANDS : 0); first++) {
        sums.fill(0);
        for (let k = 0; k < BANDS; k++) {
          if (k >= first && k < first + skip) continue;
          for (let m = 0; m < 6; m++) sums[m] += st[k * 6 + m];
        }
        if (sums[0] < inside * 0.5) continue;
        // leaving bands out may only rescue a strong match: each costs 0.06
        const ncc = pearson(sums) - 0.06 * skip;
        if (ncc > best) best = ncc;
      }
    }
  }
  return best;
}

/**
 * Photometric refinement: moves each corner by shrinking steps while the correlation with the
 * example improves. Feature positions are only as precise as their pyramid level; the pixels
 * pin the outline down to about a pixel.
 */
export function polishCorners(
  frame: GrayImage,
  quad: Quad,
  ex: ThumbExample,
  ncc0: number,
  startDiv: number,
  translateFirst = false,
): { quad: Quad; ncc: number } {
  const score = (t: Quad) => correlate(frame, exampleToFrame(t, ex.width, ex.height), ex);
  const size = Math.max(...sides(quad));
  let q = quad.slice();
  let best = ncc0;
  // Whole-quad shifts first (a tracked logo mostly moved), then corner by corner.
  if (translateFirst) {
    for (let step = Math.max(1, size / 8); step >= 1; step /= 2) {
      let improved = true;
      for (let iter = 0; iter < 6 && improved; iter++) {
        improved = false;
        for (const [dx, dy] of [
          [step, 0],
          [-step, 0],
          [0, step],
          [0, -step],
        ]) {
          const t = q.map((v, i) => v + (i % 2 === 0 ? dx : dy));
          const v = score(t);
          if (v > best + 1e-4) {
            best = v;
            q = t;
            improved = true;
            break;
          }
        }
      }
    }
  }
  const fit = descendCorners(q, best, score, {
    from: Math.max(1, size / startDiv),
    to: 0.25,
    sweeps: 4,
  });
  return { quad: fit.quad, ncc: fit.value };
}

/**
 * Coordinate ascent on the 8 corner coordinates: steps from `from` halving down to `to`; at each
 * step size, up to `sweeps` passes over the coordinates, each coordinate moving to the first
 * direction that raises `objective`.
 */
export function descendCorners(
  quad: Quad,
  value: number,
  objective: (q: Quad) => number,
  steps: { from: number; to: number; sweeps: number },
): { quad: Quad; value: number } {
  let q = quad;
  let best = value;
  for (let step = steps.from; step >= steps.to; step /= 2) {
    let improved = true;
    for (let sweep = 0; sweep < steps.sweeps && improved; sweep++) {
      improved = false;
      for (let k = 0; k < 8; k++) {
        for (const dir of [1, -1]) {
          const t = q.slice();
          t[k] += dir * step;
          const v = objective(t);
          if (v > best + 1e-4) {
            best = v;
            q = t;
            improved = true;
            break;
          }
        }
      }
    }
  }
  return { quad: q, value: best };
}

/**
 * Appearance score of a cut-out logo that ignores what is behind it: the scene decides the
 * background (light here, dark there, a player's shirt), so only the logo's own pixels are
 * compared. They must be explained by the logo's grey values (a linear fit, which for a
 * one-colour logo is a constant) far better than the quad's pixels as a whole vary:
 * 1 - 2 * residual variance of the logo pixels / variance of all pixels in the quad.
 */
function maskedFit(sample: Float32Array, valid: Uint8Array, mask: Uint8Array, thumb: Uint8Array): number {
  let n = 0;
  let sAll = 0;
  let ssAll = 0;
  let nf = 0;
  let ms = 0;
  let mt = 0;
  for (let i = 0; i < sample.length; i++) {
    if (!valid[i]) continue;
    n++;
    sAll += sample[i];
    ssAll += sample[i] * sample[i];
    if (mask[i] >= 230) {
      nf++;
      ms += sample[i];
      mt += thumb[i];
    }
  }
  if (nf < 12 || nf > n * 0.9) return -1;
  const varAll = ssAll / n - (sAll / n) ** 2;
  if (varAll < 36) return -1;
  ms /= nf;
  mt /= nf;
  let cov = 0;
  let vs = 0;
  let vt = 0;
  for (let i = 0; i < sample.length; i++) {
    if (!valid[i] || mask[i] < 230) continue;
    const a = sample[i] - ms;
    const b = thumb[i] - mt;
    cov += a * b;
    vs += a * a;
    vt += b * b;
  }
  const slope = vt > 4 * nf ? Math.max(0, cov / vt) : 0;
  const residual = (vs - slope * cov) / nf;
  return 1 - (2 * residual) / varAll;
}

/** Vertical bands of the correlation, see {@link correlate}. */
const BANDS = 5;

const SUB: [number, number][] = [
  [0.25, 0.25],
  [0.75, 0.25],
  [0.25, 0.75],
  [0.75, 0.75],
];

const pyramids = new WeakMap<Uint8Array, GrayImage[]>();

/** The frame halved `level` times (2x2 box averages), computed once per frame. */
function pyramidLevel(frame: GrayImage, level: number): GrayImage {
  if (level === 0) return frame;
  let levels = pyramids.get(frame.data);
  if (!levels) pyramids.set(frame.data, (levels = [frame]));
  while (levels.length <= level) {
    const last = levels[levels.length - 1];
    if (last.width < 4 || last.height < 4) break;
    levels.push(halve(last));
  }
  return levels[Math.min(level, levels.length - 1)];
}

/**
 * The frame's colour (U, V, bilinear on its half-resolution chroma planes) at the centre of
 * thumbnail cell (i, j) of the example placed by H; null outside the frame.
 */
function chromaSampler(
  frame: GrayImage,
  H: ArrayLike<number>,
  ex: ThumbExample,
): (i: number, j: number) => [number, number] | null {
  const { cw, ch } = chromaPlane(frame.width, frame.height);
  const U = { width: cw, height: ch, data: frame.uv!.subarray(0, cw * ch) };
  const V = { width: cw, height: ch, data: frame.uv!.subarray(cw * ch, 2 * cw * ch) };
  const fx = ex.width / ex.tw;
  const fy = ex.height / ex.th;
  return (i, j) => {
    const [px, py] = applyH(H, (i + 0.5) * fx - 0.5, (j + 0.5) * fy - 0.5);
    // frame pixel -> chroma pixel
    const cx = (px + 0.5) / 2 - 0.5;
    const cy = (py + 0.5) / 2 - 0.5;
    const u = bilinear(U, cx, cy);
    return u < 0 ? null : [u, bilinear(V, cx, cy)];
  };
}

/**
 * Colour check: how far the colours inside the quad are from the example's, as the RMS chroma
 * difference (U, V units; 0 = same colours) over cells of a few chroma pixels (colour is at half
 * resolution and blurred: cells, not pixels, are compared). The example's colours may be scaled
 * (saturation, exposure: gain 0.6-1.4) and shifted a little (white balance: +-10) to fit. Grey
 * patterns alike in luminance but not in colour (a shirt number in the shape of a league's logo)
 * fail here. null when either side has no colour.
 */
export function chromaResidual(frame: GrayImage, H: ArrayLike<number>, ex: ThumbExample): number | null {
  if (!frame.uv || !ex.uv) return null;
  const chroma = chromaSampler(frame, H, ex);
  const { tw, th } = ex;
  const n = tw * th;
  const fx = ex.width / tw;
  const fy = ex.height / th;
  // Cells of about CHROMA_CELL chroma pixels in the frame (and at least 3 thumbnail pixels): as
  // fine as the frame's colour resolution allows, since a multicoloured logo's colours average
  // out to grey over coarse cells.
  const at = (x: number, y: number) => applyH(H, x * fx - 0.5, y * fy - 0.5);
  const [lx, ly] = at(0, th / 2);
  const [rx, ry] = at(tw, th / 2);
  const [tx, ty] = at(tw / 2, 0);
  const [bx, by] = at(tw / 2, th);
  const cellsAcross = (len: number, thumbLen: number) =>
    Math.max(2, Math.min(Math.floor(thumbLen / 3), Math.floor(len / 2 / CHROMA_CELL)));
  const gx = cellsAcross(Math.hypot(rx - lx, ry - ly), tw);
  const gy = cellsAcross(Math.hypot(bx - tx, by - ty), th);
  const cells = new Float64Array(gx * gy * 5); // weight, frame u, frame v, example u, example v
  for (let j = 0; j < th; j++) {
    for (let i = 0; i < tw; i++) {
      const k = j * tw + i;
      // the logo's own pixels (inner part of a cut-out's edge, where colour is not mixed)
      const w = ex.mask ? Math.max(0, ex.mask[k] - 128) / 127 : 1;
      if (w <= 0) continue;
      const uv = chroma(i, j);
      if (!uv) continue;
      const [u, v] = uv;
      const c =
        (Math.min(gy - 1, Math.floor((j * gy) / th)) * gx + Math.min(gx - 1, Math.floor((i * gx) / tw))) * 5;
      cells[c] += w;
      cells[c + 1] += w * (u - 128);
      cells[c + 2] += w * (v - 128);
      cells[c + 3] += w * (ex.uv[k] - 128);
      cells[c + 4] += w * (ex.uv[n + k] - 128);
    }
  }
  const minWeight = Math.max(1, n / (gx * gy) / 8);
  const kept: number[] = [];
  for (let c = 0; c < cells.length; c += 5) {
    const w = cells[c];
    if (w < minWeight) continue;
    for (let m = 1; m < 5; m++) cells[c + m] /= w;
    kept.push(c);
  }
  if (kept.length < 3) return null;
  // Fit on every cell, then again on the two thirds that fit best: a player or a post in front
  // of part of the logo changes the colour of the cells it covers. (Leaving out only whole
  // columns, as the grey check leaves out bands, lost 12 % of the right hits at 96-200 px on the
  // benchmark and still passed its one false track, so any cells may go.)
  let fit = colourFit(cells, kept);
  const order = kept.map((c) => ({ c, e: colourError(cells, c, fit) })).sort((a, b) => a.e - b.e);
  const all = kept.reduce((s, c) => s + cells[c], 0);
  const best: number[] = [];
  let w = 0;
  for (const { c } of order) {
    if (w >= all * (2 / 3) && best.length >= 3) break;
    best.push(c);
    w += cells[c];
  }
  fit = colourFit(cells, best);
  let r = 0;
  for (const c of best) r += cells[c] * colourError(cells, c, fit);
  return Math.sqrt(r / w);
}

/**
 * What a colour correlation (see chromaCorrelate) must exceed the grey one by to count instead:
 * colour is blurred and smooth, so a correlation of 0.8 in colour says about what 0.5 says in
 * grey.
 */
const CHROMA_HANDICAP = 0.3;

/**
 * How much the quad's pixels look like the example: the grey correlation (see correlate), or with
 * `colour`, for a logo whose parts may differ in colour far more than in brightness (red letters
 * on a teal board), the colour one (see chromaCorrelate) less CHROMA_HANDICAP if that is more.
 */
export function appearance(frame: GrayImage, quad: Quad, ex: ThumbExample, colour: boolean): number {
  const H = exampleToFrame(quad, ex.width, ex.height);
  const grey = correlate(frame, H, ex);
  return colour ? Math.max(grey, chromaCorrelate(frame, H, ex) - CHROMA_HANDICAP) : grey;
}

type ChromaAxis = { au: number; av: number; spread: number } | null;

/**
 * An example's main axis of chroma (unit vector in U, V) and its spread along it, once per
 * example; null for a cut-out or an example without colour (see chromaCorrelate).
 */
const chromaAxes = new WeakMap<ThumbExample, ChromaAxis>();

function chromaAxis(ex: ThumbExample): ChromaAxis {
  if (chromaAxes.has(ex)) return chromaAxes.get(ex)!;
  let a: ChromaAxis = null;
  if (ex.uv && !ex.mask?.some((m) => m < 230)) a = principalAxis(ex.uv, ex.tw * ex.th);
  chromaAxes.set(ex, a);
  return a;
}

function principalAxis(uv: Uint8Array, n: number): { au: number; av: number; spread: number } {
  let su = 0;
  let sv = 0;
  for (let k = 0; k < n; k++) {
    su += uv[k];
    sv += uv[n + k];
  }
  su /= n;
  sv /= n;
  let cuu = 0;
  let cvv = 0;
  let cuv = 0;
  for (let k = 0; k < n; k++) {
    const du = uv[k] - su;
    const dv = uv[n + k] - sv;
    cuu += du * du;
    cvv += dv * dv;
    cuv += du * dv;
  }
  // principal eigenvector of the 2 x 2 covariance
  const tr = (cuu + cvv) / 2;
  const l1 = tr + Math.sqrt(((cuu - cvv) / 2) ** 2 + cuv * cuv);
  const [eu, ev] = Math.abs(cuv) > 1e-9 ? [l1 - cvv, cuv] : cuu >= cvv ? [1, 0] : [0, 1];
  const len = Math.hypot(eu, ev);
  return { au: eu / len, av: ev / len, spread: Math.sqrt(l1 / n) };
}

/**
 * Correlation of the colours inside the quad with an opaque example's, along the example's main
 * axis of colour: for a logo whose parts differ in colour more than in brightness (red letters on
 * a teal board, which in grey are a few levels apart and drown in blur and noise). Colour is at
 * half resolution, so this suits large, bold content. -1 when the example has no such colour
 * contrast (spread under 8) or is a cut-out.
 */
function chromaCorrelate(frame: GrayImage, H: ArrayLike<number>, ex: ThumbExample): number {
  const axis = chromaAxis(ex);
  if (!frame.uv || !ex.uv || !axis || axis.spread < 8) return -1;
  const { au, av } = axis;
  const chroma = chromaSampler(frame, H, ex);
  const { tw, th } = ex;
  const n = tw * th;
  const sums = new Float64Array(6);
  for (let j = 0; j < th; j++)
    for (let i = 0; i < tw; i++) {
      const uv = chroma(i, j);
      if (!uv) continue;
      const a = au * uv[0] + av * uv[1];
      const k = j * tw + i;
      const b = au * ex.uv[k] + av * ex.uv[n + k];
      sums[0]++;
      sums[1] += a;
      sums[2] += b;
      sums[3] += a * a;
      sums[4] += b * b;
      sums[5] += a * b;
    }
  if (sums[0] < n * 0.5) return 0;
  return pearson(sums);
}

/**
 * Pearson correlation from the sums (count, a, b, a^2, b^2, ab) of pairs (a, b); 0 when either
 * side does not vary.
 */
function pearson(s: Float64Array): number {
  const [cnt, sa, sb, saa, sbb, sab] = s;
  const caa = saa - (sa * sa) / cnt;
  const cbb = sbb - (sb * sb) / cnt;
  const cab = sab - (sa * sb) / cnt;
  return caa > 1e-6 && cbb > 1e-6 ? cab / Math.sqrt(caa * cbb) : 0;
}

/** Gain (0.6-1.4, around no colour) and shift (+-10) that bring the example's cells nearest the frame's. */
function colourFit(cells: Float64Array, use: number[]): { g: number; ou: number; ov: number } {
  let total = 0;
  let ee = 0;
  let ef = 0;
  for (const c of use) {
    const w = cells[c];
    total += w;
    ee += w * (cells[c + 3] ** 2 + cells[c + 4] ** 2);
    ef += w * (cells[c + 3] * cells[c + 1] + cells[c + 4] * cells[c + 2]);
  }
  const g = ee > total * 16 ? Math.max(0.6, Math.min(1.4, ef / ee)) : 1;
  let ou = 0;
  let ov = 0;
  for (const c of use) {
    ou += cells[c] * (cells[c + 1] - g * cells[c + 3]);
    ov += cells[c] * (cells[c + 2] - g * cells[c + 4]);
  }
  return { g, ou: Math.max(-10, Math.min(10, ou / total)), ov: Math.max(-10, Math.min(10, ov / total)) };
}

/** Squared chroma difference of one cell under a fit. */
function colourError(cells: Float64Array, c: number, f: { g: number; ou: number; ov: number }): number {
  return (cells[c + 1] - f.g * cells[c + 3] - f.ou) ** 2 + (cells[c + 2] - f.g * cells[c + 4] - f.ov) ** 2;
}

/** Side of a colour-check cell, in chroma pixels (2 frame pixels each). */
const CHROMA_CELL = 4;

function bilinear(img: GrayImage, x: number, y: number): number {
  if (!(x >= 0 && y >= 0 && x <= img.width - 1 && y <= img.height - 1)) return -1;
  const x0 = Math.min(img.width - 2, Math.floor(x));
  const y0 = Math.min(img.height - 2, Math.floor(y));
  const ax = x - x0;
  const ay = y - y0;
  const i = y0 * img.width + x0;
  const d = img.data;
  return (
    (d[i] * (1 - ax) + d[i + 1] * ax) * (1 - ay) +
    (d[i + img.width] * (1 - ax) + d[i + img.width + 1] * ax) * ay
  );
}
/** ORB keypoint size up to pyramid level 2 (patch x 1.25^2). */
const FINE_SIZE = PATCH_SIZE * 1.25 * 1.25 + 0.5;

function frameGrid(feats: FeatureSet): Map<number, number[]> {
  const grid = new Map<number, number[]>();
  for (let q = 0; q < feats.count; q++) {
    const key = Math.floor(feats.xy[q * 2 + 1] / CELL) * 100000 + Math.floor(feats.xy[q * 2] / CELL);
    let l = grid.get(key);
    if (!l) grid.set(key, (l = []));
    l.push(q);
  }
  return grid;
}

/**
 * Cheap gate before OpenCV's RANSAC (the costliest step on cluttered frames): the largest number
 * of matches that one similarity transform (from 2 random matches, deterministic sampling) maps
 * within a loose tolerance (a tenth of the logo, as perspective bends it). Clutter rarely agrees.
 */
function similarityConsensus(all: Float32Array, shape: Float32Array, diag: number): number[] {
  const n = all.length / 4;
  let best: number[] = [];
  let seed = 12345;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const iters = Math.min(500, Math.max(100, n));
  for (let it = 0; it < iters; it++) {
    // Matches come best first: draw from a prefix that grows to all of them (as PROSAC does),
    // so the distinctive matches are tried together before the ambiguous ones.
    const m = Math.min(n, Math.max(16, Math.ceil((n * (it + 1)) / (iters * 0.6))));
    const i = Math.floor(rnd() * m);
    const j = Math.floor(rnd() * m);
    if (i === j) continue;
    const sx = all[j * 4] - all[i * 4];
    const sy = all[j * 4 + 1] - all[i * 4 + 1];
    const dx = all[j * 4 + 2] - all[i * 4 + 2];
    const dy = all[j * 4 + 3] - all[i * 4 + 3];
    const sl2 = sx * sx + sy * sy;
    if (sl2 < 0.0025 * diag * diag) continue;
    // complex ratio (dx + i dy) / (sx + i sy) = scale * rotation
    const a = (dx * sx + dy * sy) / sl2;
    const b = (dy * sx - dx * sy) / sl2;
    const scale = Math.hypot(a, b);
    // the logo would be under ~12 px or bigger than any frame: not a hypothesis worth counting
    if (scale * diag < 12 || scale * diag > 4000) continue;
    const logScale = Math.log(scale);
    const rot = (Math.atan2(b, a) * 180) / Math.PI;
    if (!consistent(shape, i, logScale, rot) || !consistent(shape, j, logScale, rot)) continue;
    // Loose enough for perspective, bounded so that a huge hypothesised scale does not swallow
    // every match; keypoint scale and orientation must agree with the hypothesis too, which is
    // what separates a logo from clutter that happens to match its descriptors.
    const tol = Math.min(60, Math.max(4, 0.12 * scale * diag));
    const inl: number[] = [];
    for (let k = 0; k < n; k++) {
      const px = all[k * 4] - all[i * 4];
      const py = all[k * 4 + 1] - all[i * 4 + 1];
      const qx = all[i * 4 + 2] + a * px - b * py;
      const qy = all[i * 4 + 3] + b * px + a * py;
      if (Math.hypot(qx - all[k * 4 + 2], qy - all[k * 4 + 3]) <= tol && consistent(shape, k, logScale, rot))
        inl.push(k);
    }
    if (inl.length > best.length) best = inl;
  }
  return best;
}

/** Keypoint scale within 1.6x and orientation within 30 degrees of a similarity hypothesis. */
function consistent(shape: Float32Array, k: number, logScale: number, rot: number): boolean {
  if (Math.abs(shape[k * 2] - logScale) > 0.47) return false;
  const d = ((((shape[k * 2 + 1] - rot) % 360) + 540) % 360) - 180;
  return Math.abs(d) <= 30;
}

/** Share of the example's area covered by the bounding box of the inlier keypoints (`all`: sx,sy,dx,dy). */
function spread(all: Float32Array, inlier: boolean[], ex: { width: number; height: number }): number {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  inlier.forEach((ok, i) => {
    if (!ok) return;
    x0 = Math.min(x0, all[i * 4]);
    x1 = Math.max(x1, all[i * 4]);
    y0 = Math.min(y0, all[i * 4 + 1]);
    y1 = Math.max(y1, all[i * 4 + 1]);
  });
  return ((x1 - x0) * (y1 - y0)) / (ex.width * ex.height);
}

/**
 * Geometric sanity of a homography's quad: convex and clockwise (a mirrored logo flips the
 * winding), not tiny, not larger than the frame allows, limited perspective and aspect change.
 */
export function plausible(
  quad: Quad,
  ex: { width: number; height: number },
  frame: { width: number; height: number },
) {
  if (quad.some((v) => !Number.isFinite(v))) return false;
  if (!isConvexClockwise(quad)) return false;
  const area = signedArea(quad);
  if (area < 120 || area > 1.5 * frame.width * frame.height) return false;
  const [top, right, bottom, left] = sides(quad);
  if (Math.max(top, bottom) / Math.max(1e-6, Math.min(top, bottom)) > 3) return false;
  if (Math.max(left, right) / Math.max(1e-6, Math.min(left, right)) > 3) return false;
  const aspect = (top + bottom) / (left + right) / (ex.width / ex.height);
  if (aspect > 3.5 || aspect < 1 / 3.5) return false;
  // Upright within 60 degrees: logos in footage are not seen upside down or on their side, and
  // such fits come from a symmetric part of the logo (a letter matching its turned twin).
  const ux = quad[2] - quad[0] + quad[4] - quad[6];
  const uy = quad[3] - quad[1] + quad[5] - quad[7];
  if (ux <= 0 || Math.abs(uy) > Math.tan(Math.PI / 3) * ux) return false;
  // Interior angles between about 30 and 150 degrees: stronger shear than that is a bad fit.
  for (let i = 0; i < 4; i++) {
    const a = ((i + 3) % 4) * 2;
    const b = i * 2;
    const c = ((i + 1) % 4) * 2;
    const ux = quad[a] - quad[b];
    const uy = quad[a + 1] - quad[b + 1];
    const vx = quad[c] - quad[b];
    const vy = quad[c + 1] - quad[b + 1];
    const cos = (ux * vx + uy * vy) / (Math.hypot(ux, uy) * Math.hypot(vx, vy));
    if (Math.abs(cos) > 0.87) return false;
  }
  return true;
}

/** The quad with its corners renamed as after a half (or quarter) turn, when that is plausible. */
function uprightTwin(quad: Quad, ex: { width: number; height: number }, frame: GrayImage): Quad | null {
  const square = Math.abs(Math.log(ex.width / ex.height)) < 0.1;
  for (const k of square ? [2, 1, 3] : [2]) {
    const turned = [...quad.slice(2 * k), ...quad.slice(0, 2 * k)];
    if (plausible(turned, ex, frame)) return turned;
  }
  return null;
}

/** Keeps the best hit where hits overlap (several examples of a brand, or rival brands). */
function suppress(hits: FrameHit[]): FrameHit[] {
  hits.sort((a, b) => b.score - a.score || b.inliers - a.inliers);
  const kept: FrameHit[] = [];
  for (const h of hits) {
    // Rival brands on one spot: logos that share letters or marks (two wordmarks in one typeface)
    // match each other in part, and the better explained one wins.
    const clash = kept.some((k) =>
      k.brand === h.brand ? quadIoU(k.quad, h.quad) > 0.3 : quadOverlapOfSmaller(k.quad, h.quad) > 0.4,
    );
    if (!clash) kept.push(h);
  }
  return kept;
}
