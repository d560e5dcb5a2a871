import {
  quadIoU,
  quadOverlapOfSmaller,
  signedArea,
  sides,
  isConvexClockwise,
  type Quad,
} from './geometry.ts';
import { hitLogo } from './content.ts';

/** What every detection route returns, the detector's options, and the checks they share. */

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
  /**
   * The part of the example that the logo is, in example pixels, when a route found only that part
   * (the shape route finding a mark without the word that its example shows beside it). Detections
   * report this part of the placed example instead of the example's own content.
   */
  part?: Quad;
  /** the route that found it (see pipeline.ts) */
  route?: string;
  /** what its words read as, where the words check read them (see word-check.ts) */
  words?: Reading;
}

/**
 * What a hit's words say about its brand: `own` when a line reads as its brand's words, `rival`
 * when a line reads as another brand's clearly better and none as its own, `blank` when every line
 * that could be read (tall enough, inside the frame) reads as no character at all, `foreign` when
 * a line reads surely as words of no brand in the catalogue and none as its own or a rival's,
 * else `unsure` (blurred or tiny words, or nothing in particular).
 */
export type Reading = 'own' | 'rival' | 'blank' | 'foreign' | 'unsure';

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
  /**
   * in a video the half-size pass runs on every n-th sample (the even ones at 2), tracking
   * carrying the large logos it finds between; a still image and a span's last sample always have
   * it. At 2 (every 0.5 s, engine 0.47.0): 7 % less CPU with 50 brands, and on the real set's
   * Serie A clip over the text route's eight phases at CRF 18, 793 boards of 24 px and more and 47
   * false detections against 791 and 41 at 1 (bench/engine/RESULTS.md)
   */
  coarseEvery: number;
  /** largest colour difference from the example allowed (see {@link chromaResidual}) */
  maxChroma: number;
  /** look for logos by their keypoints (see routes/keypoint-route.ts); off only to measure the other routes */
  keypointRoute: boolean;
  /** also look for flat single-colour icons by their colour and outline (see colour-route.ts) */
  colourRoute: boolean;
  /**
   * the colour route also takes boards, logos on a ground of one colour (see colour-route.ts; on
   * the benchmark: recall >= 48 px 0.82 -> 0.85 and 0.81 -> 0.87 on two seeds, detection about
   * 10 % slower on broadcast footage)
   */
  boards: boolean;
  /**
   * in a video the colour route looks for boards on every n-th sample (the odd ones at 2, the
   * text route reading even ones) and for icons on every sample, tracking carrying its hits
   * between; a still image is always looked at for both
   */
  boardsEvery: number;
  /** also read the frame's text and look for the examples' words (see routes/text-route.ts) */
  textRoute: boolean;
  /**
   * the text route reads every n-th sample (reading costs a few hundred ms a frame), and the
   * analysed span's last sample
   */
  textEvery: number;
  /**
   * the text route reads the samples whose number plus this is a multiple of `textEvery` (0: the
   * first sample and every `textEvery`-th after). For the benchmark: a real set scored at the
   * samples the text route reads measures reading, one scored between them measures how tracking
   * carries what was read (bench/engine/RESULTS.md).
   */
  textPhase: number;
  /**
   * long side (px) at which the text route finds a frame's lines of text (each line is then
   * recognised on the frame's own pixels). On the real set at 1280x720 (bench/engine/real.ts,
   * engine 0.22.0) 640 finds 82 of 113 boards and shirts of 24 px and more, 960 finds 81 and 1280
   * finds 84 but drops photo precision from 0.958 to 0.880; finding lines at 1280 costs 371 ms a
   * text sample against 79 at 640. At 640 the rows of a two-row LED board merge into one line,
   * at 1280 they are found apart (see bench/engine/RESULTS.md). The boards' 81-84 are within what
   * another encode of the same clips moves them by (64-76 of 113, session 27); the photos' loss
   * and the cost are not.
   */
  textSide: number;
  /**
   * the text route also finds the lines of text that touch the frame's edge, which PP-OCRv4's
   * line finder misses, by a second pass over the frame inside a margin (see ocr.ts `edgeLines`;
   * about 50-75 ms a reading at 640 on one thread). On the real set's Serie A clip at CRF 18, over
   * the text route's eight phases, with 0.44.0's words check: 766 boards of 24 px and more
   * against 757 without, the same 39 false detections.
   */
  textEdges: boolean;
  /**
   * read the words of a wordmark that keypoints or colour placed, and drop it when they read as
   * another brand's words (see word-check.ts; runs on the tracking thread, not in the routes)
   */
  wordCheck: boolean;
  /**
   * look for a found board's twin beside it by the board's own pixels (see twins.ts; runs on the
   * tracking thread)
   */
  twins: boolean;
  /** also look for two-tone marks by their outline (see routes/shape-route.ts) */
  shapeRoute: boolean;
  /**
   * the shape route looks at every n-th sample of a video, or at none (0; photos always). On the
   * real set it found nothing on broadcast (its boards are words, its shirts' marks under 24 px),
   * and at 4 (once a second) it took 10-brand analysis from 2.52x to 1.40x real time
   * (bench/engine/versus.ts); so 0 until footage shows it pays.
   */
  shapeEvery: number;
  /** also compare the frame with the examples through the learned appearance model (routes/learned-route.ts) */
  learnedRoute: boolean;
  /** the learned route looks at every n-th sample (a photo is sample 0) */
  learnedEvery: number;
  /** smallest logo (long side, frame px) that the learned route searches for */
  learnedMinSide: number;
  /**
   * how far (in spreads of the template's logits over the frame) a place must stand above the
   * template's own level to become a candidate
   */
  learnedMin: number;
  /** least grey correlation of a learned candidate's polished quad with the example */
  learnedMinCorrelation: number;
}

export const DEFAULT_DETECTOR: DetectorOptions = {
  featuresPerMp: 3500,
  minInliers: 8,
  ransacThreshold: 4,
  minCorrelation: 0.5,
  brandsPerKeypoint: 6,
  nLevels: 6,
  coarseShare: 0.5,
  coarseEvery: 2,
  maxChroma: 20,
  keypointRoute: true,
  colourRoute: true,
  boards: true,
  boardsEvery: 2,
  textRoute: true,
  textEvery: 8,
  textPhase: 0,
  textSide: 640,
  textEdges: true,
  wordCheck: true,
  twins: true,
  shapeRoute: true,
  shapeEvery: 0,
  learnedRoute: false,
  learnedEvery: 8,
  learnedMinSide: 32,
  learnedMin: 5,
  learnedMinCorrelation: 0.3,
};

/**
 * Two hits of a brand in one frame whose quads overlap more than this (IoU) are one logo instance:
 * every route, `suppress` and the tracker hold a second hit there for the same logo.
 */
export const SAME_INSTANCE = 0.3;

/** Diagnostics (bench/engine/diagnose.ts): told why a candidate of an example was dropped. */
export const trace: {
  lost?: (example: number, stage: string, value: number, quad?: Quad) => void;
  /** the colour residual of a candidate that passed every other check (-1: no colour known) */
  colour?: (example: number, residual: number, quad: Quad) => void;
  /** the outline overlap of a hit of the colour route (see colour-route.ts) */
  colourShape?: (example: number, iou: number, quad: Quad) => void;
} = {};
export function lost(example: number, stage: string, value: number, quad?: Quad): null {
  trace.lost?.(example, stage, value, quad);
  return null;
}

/**
 * A logo covers at most this share of a video frame: sponsor boards, shirts and overlays in
 * broadcast footage cover a few percent, and fits that covered a third of a broadcast frame were
 * twisted quads over a board's neighbours. Photos set their own (`GrayImage.maxLogoShare`).
 */
const MAX_FRAME_SHARE = 0.25;
/**
 * Opposite sides of a logo's quad in a video frame differ by at most this factor (plus
 * {@link CORNER_SLACK}): their lengths stand in the ratio of the distances of the logo's two ends
 * from the camera, and broadcast cameras look at boards, shirts and overlays from afar, through
 * long lenses (the generated set composes boards seen at an angle up to 1.54). Fits twisted
 * beyond it were chance fits or follows sliding off a board: on the real set's five runs (engine
 * 0.34.0) the bound took false broadcast detections from 55 to 40 and false tracks from 7 to 4,
 * true ones from 775 to 778 (a UNICEF track over an OVUNQUE board at CRF 19 had sides 68 and 31
 * px). A photo may be a close-up at a steep angle: there the bound stays 3.
 */
const VIDEO_PERSPECTIVE = 1.6;
/** px: corners are placed to about a pixel each, so short sides differ by a few px by chance. */
const CORNER_SLACK = 4;
/** Opposite sides of a logo's quad in a photo differ by at most this factor. */
const PHOTO_PERSPECTIVE = 3;
/** At least this share of a logo's quad lies inside the frame... */
const MIN_INSIDE = 0.6;
/**
 * ...or this share, for a wordmark whose words read at the frame's edge: a board that the camera
 * shows only in part, placed by the words in view (the text route's line at the edge) or carried
 * where its words read as its own (analyze.ts carriedByWords). What is reported is the part in
 * the picture. On the real set at 1280x720 the right edge cuts an EVERYWHERE, ALWAYS, NERAZZURRI
 * row to "EVERYWHE" at 5 s and to "EVERYWHERE, AL" at 3 s; with 0.6 neither was placed or
 * carried (engine 0.45.0: 11 boards more over the text route's eight phases at CRF 18).
 */
export const EDGE_INSIDE = 0.2;

/**
 * Geometric sanity of a homography's quad: convex and clockwise (a mirrored logo flips the
 * winding), not tiny, at most a quarter of the frame and mostly inside it, limited perspective and
 * aspect change.
 */
export function plausible(
  quad: Quad,
  ex: { width: number; height: number },
  frame: { width: number; height: number; maxLogoShare?: number },
  minInside = MIN_INSIDE,
) {
  if (quad.some((v) => !Number.isFinite(v))) return false;
  if (!isConvexClockwise(quad)) return false;
  const area = signedArea(quad);
  if (area < 120 || area > (frame.maxLogoShare ?? MAX_FRAME_SHARE) * frame.width * frame.height) return false;
  const { width: w, height: h } = frame;
  if (quadOverlapOfSmaller([0, 0, w, 0, w, h, 0, h], quad) < minInside) return false;
  const [top, right, bottom, left] = sides(quad);
  // video frames leave maxLogoShare unset (see GrayImage)
  const [factor, slack] =
    frame.maxLogoShare === undefined ? [VIDEO_PERSPECTIVE, CORNER_SLACK] : [PHOTO_PERSPECTIVE, 0];
  const skewed = (a: number, b: number) => Math.max(a, b) > factor * Math.min(a, b) + slack;
  if (skewed(top, bottom) || skewed(left, right)) return false;
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

/** Keeps the best hit where hits overlap (several examples of a brand, or rival brands). */
export function suppress(
  hits: FrameHit[],
  examples?: readonly { width: number; height: number; content?: number[] }[],
): FrameHit[] {
  hits.sort((a, b) => b.score - a.score || b.inliers - a.inliers);
  // Overlap is judged on the logos, not on the placed examples: an example cut from footage holds
  // its logo with some of the board around it (often a slice of the row above or below, see
  // content.ts), so the outlines of two sponsors' rows on one two-row board overlap widely while
  // the rows themselves do not.
  const logo = (h: FrameHit) => {
    const ex = examples?.[h.example];
    return ex ? hitLogo(h, ex) : h.quad;
  };
  const kept: { hit: FrameHit; logo: Quad }[] = [];
  for (const h of hits) {
    const q = logo(h);
    // Rival brands on one spot: logos that share letters or marks (two wordmarks in one typeface)
    // match each other in part, and the better explained one wins.
    const clashes = kept.filter((k) =>
      k.hit.brand === h.brand ? quadIoU(k.logo, q) > SAME_INSTANCE : quadOverlapOfSmaller(k.logo, q) > 0.4,
    );
    if (clashes.length === 0) kept.push({ hit: h, logo: q });
    // The brand's words read in place say where its logo is: a fit of the same brand from another
    // route that overlaps them (the text route proposes none that it aligns with) has slipped, as
    // keypoint fits do by a row on boards whose rows share letters.
    else if (h.route === 'text' && clashes.every((k) => k.hit.brand === h.brand && k.hit.route !== 'text')) {
      const at = kept.indexOf(clashes[0]);
      kept.splice(at, 0, { hit: h, logo: q });
      for (const k of clashes) kept.splice(kept.indexOf(k), 1);
    }
  }
  return kept.map((k) => k.hit);
}
