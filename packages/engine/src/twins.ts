import { correlate, exampleFromFrame, type ThumbExample } from './appearance.ts';
import type { GrayImage } from './features.ts';
import { FOLLOW_DROP, followInFrame } from './follow.ts';
import {
  exampleToFrame,
  maxCornerDist,
  quadIoU,
  quadCenter,
  quadOverlapOfSmaller,
  sides,
  type Quad,
} from './geometry.ts';
import { DEFAULT_DETECTOR, SAME_INSTANCE, type FrameHit } from './hits.ts';

/**
 * Correlation with the found board's own pixels that its twin beside it must reach: boards of one
 * sponsor set side by side are printed alike and seen in the same light, blur and perspective.
 */
const TWIN_LOOK = 0.7;

/**
 * Where the board beside may start, up or down by these shares of the board's height: the quad of
 * a logo whose example is an upright crop stays upright on a board row that slopes.
 */
const SLOPES = [-0.5, -0.375, -0.25, -0.125, 0.125, 0.25, 0.375, 0.5];
/** ... and along the row by these shares of its width (a gap between boards, or none). */
const NUDGES = [-0.125, 0.125];
/** Correlation with the board's pixels at the best start for the corner polish to be tried. */
const START_LOOK = 0.5;

/**
 * How far a twin's corners may lie from its neighbour's, both taken about their centres, as a
 * share of the neighbour's longer side.
 */
const SHAPE_TOLERANCE = 0.15;

/** Boards in a row followed from one found board, on each side. */
const MAX_CHAIN = 3;

/**
 * Boards of a sponsor are often set side by side (the pitch-side pairs of 1XBET boards, a row of
 * LED panels showing one advert). Where one of them is found, its neighbour along the board's
 * edges is looked for with the found board's own pixels as the example: they share the frame's
 * blur, light and perspective, which the brand's example does not (in a pan's blur the
 * keypoints found one board of a pair and missed its twin, whose pixels are the same). A twin
 * must also correlate with the brand's example as a follow of the board must (see
 * `followCorrelation`), so that a neighbouring panel of another sponsor in the same typeface is
 * not taken for one. `hits` are the seeds; no twin is placed over a hit of its brand among them,
 * `others` (the frame's follows) or the twins found. Quads in input pixels, `sx`/`sy` times the
 * frame's.
 */
export function twinHits(
  frame: GrayImage,
  hits: FrameHit[],
  thumbs: readonly ThumbExample[],
  sx: number,
  sy: number,
  others: FrameHit[] = [],
): FrameHit[] {
  const out: FrameHit[] = [];
  const toFrame = (q: Quad): Quad => q.map((v, i) => (i % 2 === 0 ? v / sx : v / sy));
  const toInput = (q: Quad): Quad => q.map((v, i) => (i % 2 === 0 ? v * sx : v * sy));
  const taken = (h: FrameHit, q: Quad) =>
    [...hits, ...others, ...out].some((o) => o.brand === h.brand && quadIoU(o.quad, q) > SAME_INSTANCE);
  for (const seed of hits) {
    const ex = thumbs[seed.example];
    if (!ex) continue;
    const q0 = toFrame(seed.quad);
    const look = exampleFromFrame(frame, q0);
    if (!look) continue;
    const minExample = Math.max(DEFAULT_DETECTOR.minCorrelation, (seed.ncc ?? 0) - FOLLOW_DROP);
    for (const side of [1, -1] as const) {
      let q = q0;
      for (let k = 0; k < MAX_CHAIN; k++) {
        // the row may slope across the frame, and boards stand a little apart: the start beside
        // it that correlates best, up or down first, then along the row
        const [top, right, bottom, left] = sides(q);
        const base = beside(q, side);
        // mostly outside the frame: no hit could be placed there (see plausible)
        if (
          quadOverlapOfSmaller([0, 0, frame.width, 0, frame.width, frame.height, 0, frame.height], base) < 0.6
        )
          break;
        const at = (dx: number, dy: number) => {
          const c = base.map(
            (v, i) => v + (i % 2 === 0 ? (dx * (top + bottom)) / 2 : (dy * (left + right)) / 2),
          );
          return { c, v: correlate(frame, exampleToFrame(c, look.width, look.height), look) };
        };
        let start = at(0, 0);
        let slope = 0;
        for (const dy of SLOPES) {
          const t = at(0, dy);
          if (t.v > start.v) [start, slope] = [t, dy];
        }
        for (const dx of NUDGES) {
          const t = at(dx, slope);
          if (t.v > start.v) start = t;
        }
        // nothing like the board there: no polish (it costs a hundred correlations)
        if (start.v < START_LOOK) break;
        const next = start.c;
        if (taken(seed, toInput(next))) break;
        const f = followInFrame(
          frame,
          next,
          look,
          TWIN_LOOK,
          DEFAULT_DETECTOR.maxChroma,
          false,
          TWIN_LOOK - 0.1,
        );
        // it must stay beside the board it came from (not slide back over it or away)
        if (!f || maxCornerDist(f.quad, next) > Math.max(...sides(next)) / 4) break;
        // a twin is a copy: the same size and shape as the board beside it, up to perspective
        if (!sameShape(f.quad, q)) break;
        const quad = toInput(f.quad);
        if (taken(seed, quad)) break;
        const ncc = correlate(frame, exampleToFrame(f.quad, ex.width, ex.height), ex);
        if (ncc < minExample) break;
        // the seed's example placed beside it (what its words read is the seed's, not the twin's)
        const { brand, example, part } = seed;
        out.push({
          brand,
          example,
          ...(part ? { part } : {}),
          quad,
          inliers: 0,
          score: seed.score * 0.95,
          followed: true,
          ncc,
          route: 'twin',
        });
        q = f.quad;
      }
    }
  }
  return out;
}

/**
 * The quad of the same size beside `q` along its top and bottom edges, to the right (`side` 1)
 * or to the left (-1).
 */
export function beside(q: Quad, side: 1 | -1): Quad {
  const [x0, y0, x1, y1, x2, y2, x3, y3] = q;
  const [tx, ty] = [x1 - x0, y1 - y0];
  const [bx, by] = [x2 - x3, y2 - y3];
  return side === 1
    ? [x1, y1, x1 + tx, y1 + ty, x2 + bx, y2 + by, x2, y2]
    : [x0 - tx, y0 - ty, x0, y0, x3, y3, x3 - bx, y3 - by];
}

/** Whether `a` has about the shape and size of `b` (see {@link SHAPE_TOLERANCE}). */
function sameShape(a: Quad, b: Quad): boolean {
  const [ca, cb] = [quadCenter(a), quadCenter(b)];
  const [dx, dy] = [cb[0] - ca[0], cb[1] - ca[1]];
  const moved = a.map((v, i) => v + (i % 2 === 0 ? dx : dy));
  return maxCornerDist(moved, b) <= SHAPE_TOLERANCE * Math.max(...sides(b));
}
