import { appearance, polishCorners } from '../appearance.ts';
import type { DescriptorIndex } from '../descriptor-index.ts';
import type { GrayImage } from '../features.ts';
import { isConvexClockwise, quadIoU, type Quad } from '../geometry.ts';
import { plausible, SAME_INSTANCE, trace, type FrameHit } from '../hits.ts';
import { correlate, embed, learnedMeta, resize, template } from '../learned.ts';
import type { Route, RouteInput } from './route.ts';

/**
 * The learned route, for marks that keypoints and text miss: small, blurred, low-contrast or
 * single-colour logos in photos and footage (learned.ts; the model was trained on synthetic
 * composites, see tools/learned-route). The frame is searched at a ladder of scales, each one
 * bringing logos of one size to the size of the examples' canvas; every example's template is
 * correlated with the frame's features at once; the best places become candidates, whose quads
 * the pixels then check and polish as for any other route.
 */

/** Ratio between neighbouring search scales (the model was trained for +-25 % around each). */
const SCALE_STEP = Math.SQRT2;
/** Candidates verified per frame, best first. */
const MAX_CANDIDATES = 24;

interface Templates {
  data: Float32Array;
  count: number;
  /** per template: its example and its logo's box in the canvas */
  of: { example: number; box: { x: number; y: number; w: number; h: number } }[];
}

const cache = new WeakMap<DescriptorIndex, Promise<Templates>>();

/** Every example's templates (one per verification thumbnail: cut-outs have a light and a dark one). */
function templates(index: DescriptorIndex): Promise<Templates> {
  let t = cache.get(index);
  if (!t) {
    t = (async () => {
      const parts: Float32Array[] = [];
      const of: Templates['of'] = [];
      for (const [example, ex] of index.examples.entries())
        for (const thumb of ex.thumbs) {
          const tpl = await template({ width: ex.tw, height: ex.th, data: thumb });
          parts.push(tpl.data);
          of.push({ example, box: tpl.box });
        }
      const size = parts[0]?.length ?? 0;
      const data = new Float32Array(size * parts.length);
      parts.forEach((p, i) => data.set(p, i * size));
      return { data, count: parts.length, of };
    })();
    cache.set(index, t);
  }
  return t;
}

interface Candidate {
  example: number;
  quad: Quad;
  /** how far the place stands above the template's level in the frame (spreads of its logits) */
  p: number;
}

export const learnedRoute: Route = {
  name: 'learned',
  enabled: (opts) => opts.learnedRoute,
  async propose({ frame, index, opts, found, seq }: RouteInput): Promise<FrameHit[]> {
    if ((seq ?? 0) % Math.max(1, opts.learnedEvery) !== 0) return [];
    if (index.examples.length === 0) return [];
    const tpl = await templates(index);
    const { canvas, stride } = await learnedMeta();
    const maps: { scores: Awaited<ReturnType<typeof correlate>>; f: number }[] = [];
    const shortSide = Math.min(frame.width, frame.height);
    for (let side = opts.learnedMinSide; side <= shortSide * 0.9; side *= SCALE_STEP) {
      const f = canvas / side;
      const w = Math.round(frame.width * f);
      const h = Math.round(frame.height * f);
      if (w < canvas || h < canvas) break;
      maps.push({ scores: await correlate(await embed(resize(frame, w, h)), tpl.data, tpl.count), f });
    }
    const stats = templateStats(
      maps.map((m) => m.scores),
      tpl.count,
    );
    const cands: Candidate[] = [];
    for (const { scores, f } of maps)
      peaks(scores, stats, opts.learnedMin, (t, i, j, z) => {
        const { example, box } = tpl.of[t];
        const x0 = (j * stride + box.x) / f;
        const y0 = (i * stride + box.y) / f;
        const x1 = x0 + box.w / f;
        const y1 = y0 + box.h / f;
        cands.push({ example, p: z, quad: [x0, y0, x1, y0, x1, y1, x0, y1] });
      });
    cands.sort((a, b) => b.p - a.p);
    const hits: FrameHit[] = [];
    let tried = 0;
    for (const c of cands) {
      if (tried >= MAX_CANDIDATES) break;
      const ex = index.examples[c.example];
      const near = (h: { brand: number; quad: Quad }) =>
        h.brand === ex.brand && quadIoU(h.quad, c.quad) > SAME_INSTANCE;
      if (found.some(near) || hits.some(near)) continue;
      tried++;
      const hit = verify(frame, c, ex, opts.learnedMinCorrelation);
      if (hit) hits.push({ ...hit, brand: ex.brand });
    }
    return hits;
  },
};

const logit = (p: number) => Math.log(Math.max(p, 1e-6) / Math.max(1e-6, 1 - p));

/**
 * Each template's mean and spread of logits over every place and scale of the frame. Raw scores
 * are not comparable between templates (a thin swoosh agrees a little with every edge of a photo,
 * a dense badge with little): what stands out is a place far above the template's own level.
 */
function templateStats(maps: { data: Float32Array; rows: number; cols: number }[], count: number) {
  const mean = new Float64Array(count);
  const sd = new Float64Array(count);
  let n = 0;
  for (const s of maps) {
    const plane = s.rows * s.cols;
    n += plane;
    for (let t = 0; t < count; t++)
      for (let k = 0; k < plane; k++) {
        const l = logit(s.data[t * plane + k]);
        mean[t] += l;
        sd[t] += l * l;
      }
  }
  for (let t = 0; t < count; t++) {
    mean[t] /= Math.max(1, n);
    sd[t] = Math.sqrt(Math.max(1e-6, sd[t] / Math.max(1, n) - mean[t] * mean[t]));
  }
  return { mean, sd };
}

/** Local maxima (3x3, per template) whose logit stands at least `minZ` spreads above the template's level. */
function peaks(
  s: { data: Float32Array; rows: number; cols: number },
  stats: { mean: Float64Array; sd: Float64Array },
  minZ: number,
  take: (t: number, i: number, j: number, z: number) => void,
) {
  const { data, rows, cols } = s;
  const plane = rows * cols;
  const count = data.length / plane;
  for (let t = 0; t < count; t++) {
    const o = t * plane;
    const min = 1 / (1 + Math.exp(-(stats.mean[t] + minZ * stats.sd[t])));
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        const p = data[o + i * cols + j];
        if (p < min) continue;
        let top = true;
        for (let di = -1; di <= 1 && top; di++)
          for (let dj = -1; dj <= 1; dj++) {
            const y = i + di;
            const x = j + dj;
            if ((di || dj) && y >= 0 && y < rows && x >= 0 && x < cols && data[o + y * cols + x] > p) {
              top = false;
              break;
            }
          }
        if (top) take(t, i, j, (logit(p) - stats.mean[t]) / stats.sd[t]);
      }
  }
}

/** The candidate's quad polished on the pixels; kept when the pixels agree enough. */
function verify(
  frame: GrayImage,
  c: Candidate,
  ex: DescriptorIndex['examples'][number],
  minCorrelation: number,
): Omit<FrameHit, 'brand'> | null {
  if (!plausible(c.quad, ex, frame)) return null;
  const ncc0 = appearance(frame, c.quad, ex, true);
  const p = polishCorners(frame, c.quad, ex, ncc0, 20);
  const polished = isConvexClockwise(p.quad) && plausible(p.quad, ex, frame) && p.ncc >= ncc0;
  const quad = polished ? p.quad : c.quad;
  const ncc = polished ? p.ncc : ncc0;
  if (ncc < minCorrelation) {
    trace.lost?.(c.example, 'learned appearance', ncc, quad);
    return null;
  }
  return {
    example: c.example,
    quad,
    inliers: 0,
    score: Math.min(1, c.p / 10) * Math.min(1, 0.6 + Math.max(0, ncc)),
    ncc,
  };
}
