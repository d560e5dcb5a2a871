import type { DescriptorIndex, Match } from '../descriptor-index.ts';
import {
  computeOrb,
  halve,
  mergeFeatures,
  PATCH_SIZE,
  type FeatureSet,
  type GrayImage,
} from '../features.ts';
import { applyH, exampleToFrame, isConvexClockwise, projectRect, quadIoU, type Quad } from '../geometry.ts';
import { chromaResidual, correlate, polishCorners, type ThumbExample } from '../appearance.ts';
import { lost, plausible, trace, DEFAULT_DETECTOR, type DetectorOptions, type FrameHit } from '../hits.ts';
import type { Cv } from '../opencv.ts';
import { onSchedule, type Route, type RouteInput } from './route.ts';

const MAX_INSTANCES_PER_EXAMPLE = 3;
/** Inlier keypoints must span this share of the example's area. */
const SPREAD = 0.08;

/**
 * The keypoint route: ORB keypoints of the frame matched through the shared LSH index of every
 * brand, a similarity consensus and RANSAC homography per example, guided refinement, then the
 * appearance checks (grey correlation with corner polish, colour).
 */
export const keypointRoute: Route = {
  name: 'keypoints',
  enabled: (opts) => opts.keypointRoute,
  propose({ cv, frame, index, opts, seq, last }: RouteInput): FrameHit[] {
    const feats = frameFeatures(
      cv,
      frame,
      opts,
      coarseSample(opts, seq, last, frame.maxLogoShare !== undefined),
    );
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
    return hits;
  },
};

/**
 * Whether sample `seq` of a video has ORB's half-size pass (see {@link DetectorOptions.coarseEvery}):
 * every `coarseEvery`-th, from the first, and a span's last; a still image always.
 */
export function coarseSample(opts: DetectorOptions, seq = 0, last = false, still = false): boolean {
  return still || onSchedule({ seq, last }, opts.coarseEvery);
}

/**
 * ORB keypoints of a frame: the full-size pyramid plus, with `coarse`, a half-size pass for large
 * logos.
 */
export function frameFeatures(
  cv: Cv,
  frame: GrayImage,
  opts: DetectorOptions = DEFAULT_DETECTOR,
  coarse = true,
): FeatureSet {
  const maxFeatures = Math.max(500, Math.round((opts.featuresPerMp * frame.width * frame.height) / 1e6));
  const orb = { nLevels: opts.nLevels, scaleFactor: 1.25, patchSize: PATCH_SIZE };
  // ORB's pyramid gives its coarse levels a small share of the keypoint budget, and large logos
  // live there; a second pass on the half-size frame with its own budget finds them
  // (benchmark, per frame: recall on 200+ px logos 0.14 -> 0.18 with a full budget).
  const fine = computeOrb(cv, frame, { ...orb, maxFeatures });
  if (!coarse) return fine;
  return mergeFeatures([
    { f: fine, scale: 1 },
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

/** The quad with its corners renamed as after a half (or quarter) turn, when that is plausible. */
function uprightTwin(quad: Quad, ex: { width: number; height: number }, frame: GrayImage): Quad | null {
  const square = Math.abs(Math.log(ex.width / ex.height)) < 0.1;
  for (const k of square ? [2, 1, 3] : [2]) {
    const turned = [...quad.slice(2 * k), ...quad.slice(0, 2 * k)];
    if (plausible(turned, ex, frame)) return turned;
  }
  return null;
}
