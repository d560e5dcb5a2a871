import type { DescriptorIndex } from './descriptor-index.ts';
import { chromaPlane, type GrayImage } from './features.ts';
import {
  chromaResidual,
  correlate,
  plausible,
  polishCorners,
  trace,
  type DetectorOptions,
  type FrameHit,
  type ThumbExample,
} from './frame-detector.ts';
import { exampleToFrame, isConvexClockwise, sides, type Quad } from './geometry.ts';

/**
 * The colour route, for flat one-colour icons. ORB finds such a silhouette's corners, but their
 * descriptors look like every other logo's corners and the shared matcher gives them to other
 * brands (benchmark diagnosis: most flat icons that keypoints miss are lost in matching). Their
 * colour and outline are what tells them apart: pixels of the icon's colour are grouped into
 * connected regions on the frame's chroma plane; a region of the icon's proportions and fill gives
 * a box whose corners move while the icon's outline fits the region better; a good enough fit then
 * passes the same checks as a keypoint fit (grey correlation with corner polish, colours).
 */

/** An example that the colour route looks for. */
interface ColourModel {
  example: number;
  /** the icon's chroma, relative to grey (U - 128, V - 128) */
  u: number;
  v: number;
  /** share of the example's box that the icon covers */
  fill: number;
  aspect: number;
}

/** Least chroma (distance from grey) of an icon that the colour route looks for. */
const MIN_SATURATION = 24;
/** Most spread of the chroma over an icon's pixels: more is a multicoloured logo. */
const MAX_SPREAD = 10;
/** A frame pixel matches an icon's colour at gain g (0.6-1.4, exposure) within this distance. */
const COLOUR_TOL = 12;
/**
 * Most solidity (area over convex hull area) of an icon's outline: a solid blob (a rounded
 * square, a disc) fits any patch of its colour of about its shape (on the benchmark, a blue
 * sweater passed for the SQLite icon), so it is left to the keypoints.
 */
const MAX_SOLIDITY = 0.8;
/** Overlap of the icon's outline and the frame's pixels of its colour that a candidate must reach. */
const MIN_SHAPE_IOU = 0.8;
/** Candidates verified per frame at most (largest first). */
const MAX_CANDIDATES = 24;

/** The examples the colour route applies to: cut-out icons of one clear colour. */
export function colourModels(index: DescriptorIndex): ColourModel[] {
  const out: ColourModel[] = [];
  index.examples.forEach((ex, example) => {
    if (!ex.mask || !ex.uv) return;
    const n = ex.tw * ex.th;
    let w = 0;
    let su = 0;
    let sv = 0;
    let cover = 0;
    for (let k = 0; k < n; k++) {
      cover += ex.mask[k] / 255;
      if (ex.mask[k] < 230) continue;
      w++;
      su += ex.uv[k] - 128;
      sv += ex.uv[n + k] - 128;
    }
    if (w < 16) return;
    const u = su / w;
    const v = sv / w;
    let spread = 0;
    for (let k = 0; k < n; k++)
      if (ex.mask[k] >= 230) spread += (ex.uv[k] - 128 - u) ** 2 + (ex.uv[n + k] - 128 - v) ** 2;
    if (Math.hypot(u, v) < MIN_SATURATION || Math.sqrt(spread / w) > MAX_SPREAD) return;
    if (solidity(ex.mask, ex.tw, ex.th) > MAX_SOLIDITY) return;
    out.push({ example, u, v, fill: cover / n, aspect: ex.width / ex.height });
  });
  return out;
}

/** Whether chroma (cu, cv) relative to grey is the model's colour at some gain 0.6-1.4. */
function sameColour(cu: number, cv: number, m: ColourModel): boolean {
  const mm = m.u * m.u + m.v * m.v;
  const g = Math.max(0.6, Math.min(1.4, (cu * m.u + cv * m.v) / mm));
  return (cu - g * m.u) ** 2 + (cv - g * m.v) ** 2 <= COLOUR_TOL * COLOUR_TOL;
}

const modelTables = new WeakMap<ColourModel, Uint8Array>();

/** (u, v) -> 1 when it is the model's colour (see {@link sameColour}), built once per model. */
function modelTable(m: ColourModel): Uint8Array {
  let t = modelTables.get(m);
  if (t) return t;
  t = new Uint8Array(65536);
  for (let u = 0; u < 256; u++)
    for (let v = 0; v < 256; v++) t[u * 256 + v] = sameColour(u - 128, v - 128, m) ? 1 : 0;
  modelTables.set(m, t);
  return t;
}

const tables = new WeakMap<ColourModel[], Uint16Array>();

/** chroma (u, v) -> 1 + the first model of that colour, 0 for none (models of one colour share regions) */
function colourTable(models: ColourModel[]): Uint16Array {
  let lut = tables.get(models);
  if (lut) return lut;
  lut = new Uint16Array(65536);
  for (let u = 0; u < 256; u++)
    for (let v = 0; v < 256; v++)
      for (let m = 0; m < Math.min(65535, models.length); m++)
        if (sameColour(u - 128, v - 128, models[m])) {
          lut[u * 256 + v] = m + 1;
          break;
        }
  tables.set(models, lut);
  return lut;
}

interface Region {
  model: number;
  pixels: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Connected regions (8-neighbours, gaps of one chroma pixel bridged) of pixels that match one of
 * the models' colours; each region is labelled with the model whose colour its pixels match.
 */
function colourRegions(frame: GrayImage, models: ColourModel[]): Region[] {
  const { cw, ch } = chromaPlane(frame.width, frame.height);
  const uv = frame.uv!;
  const lut = colourTable(models);
  const label = new Uint16Array(cw * ch);
  for (let i = 0; i < cw * ch; i++) label[i] = lut[uv[i] * 256 + uv[cw * ch + i]];
  const seen = new Uint8Array(cw * ch);
  const stack = new Int32Array(cw * ch);
  const regions: Region[] = [];
  for (let s = 0; s < cw * ch; s++) {
    if (!label[s] || seen[s]) continue;
    const l = label[s];
    let top = 0;
    stack[top++] = s;
    seen[s] = 1;
    const r: Region = { model: l - 1, pixels: 0, x0: cw, y0: ch, x1: -1, y1: -1 };
    while (top) {
      const p = stack[--top];
      const x = p % cw;
      const y = (p - x) / cw;
      r.pixels++;
      if (x < r.x0) r.x0 = x;
      if (x > r.x1) r.x1 = x;
      if (y < r.y0) r.y0 = y;
      if (y > r.y1) r.y1 = y;
      for (let dy = -2; dy <= 2; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= ch) continue;
        for (let dx = -2; dx <= 2; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= cw) continue;
          const q = yy * cw + xx;
          if (label[q] === l && !seen[q]) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    regions.push(r);
  }
  return regions;
}

/**
 * Hits of the colour route in one frame, for the examples in `models` (see {@link colourModels}).
 * `skip` tells which brands already have a keypoint hit over a region.
 */
export function detectByColour(
  frame: GrayImage,
  index: DescriptorIndex,
  models: ColourModel[],
  opts: DetectorOptions,
  skip: (brand: number, quad: Quad) => boolean,
): FrameHit[] {
  if (!frame.uv || models.length === 0) return [];
  const maxArea = (frame.width * frame.height) / 8;
  const candidates: { quad: Quad; model: ColourModel; area: number }[] = [];
  for (const r of colourRegions(frame, models)) {
    // chroma pixel (x, y) covers frame pixels 2x .. 2x + 2
    const x0 = r.x0 * 2;
    const y0 = r.y0 * 2;
    const w = (r.x1 - r.x0 + 1) * 2;
    const h = (r.y1 - r.y0 + 1) * 2;
    const area = w * h;
    if (Math.min(w, h) < 20 || area > maxArea) continue;
    const fill = (r.pixels * 4) / area;
    const ref = models[r.model];
    for (const m of models) {
      if (m !== ref && !sameColour(ref.u, ref.v, m)) continue;
      if (Math.abs(Math.log(w / h / m.aspect)) > Math.log(2.5)) continue;
      if (Math.abs(fill - m.fill) > 0.3) continue;
      candidates.push({ quad: [x0, y0, x0 + w, y0, x0 + w, y0 + h, x0, y0 + h], model: m, area });
    }
  }
  candidates.sort((a, b) => b.area - a.area);
  const hits: FrameHit[] = [];
  for (const c of candidates.slice(0, MAX_CANDIDATES)) {
    const ex: ThumbExample & { brand: number } = index.examples[c.model.example];
    if (skip(ex.brand, c.quad)) continue;
    const shape = fitShape(frame, c.quad, ex, c.model);
    if (shape.iou < MIN_SHAPE_IOU) continue;
    const ncc0 = correlate(frame, exampleToFrame(shape.quad, ex.width, ex.height), ex);
    if (ncc0 < 0.2) continue;
    const p = polishCorners(frame, shape.quad, ex, ncc0, 40);
    if (p.ncc < opts.minCorrelation || !isConvexClockwise(p.quad) || !plausible(p.quad, ex, frame)) continue;
    const colour = chromaResidual(frame, exampleToFrame(p.quad, ex.width, ex.height), ex);
    if (colour === null || colour > opts.maxChroma) continue;
    trace.colourShape?.(c.model.example, shape.iou, p.quad);
    hits.push({
      brand: ex.brand,
      example: c.model.example,
      quad: p.quad,
      inliers: 0,
      score: 0.6 * shape.iou * Math.min(1, 0.5 + p.ncc / 1.4),
    });
  }
  return hits;
}

/** Ring around the icon's box, as a share of its size, where its colour must not go on. */
const RING = 0.2;

/**
 * How well the pixels of the icon's colour in the frame fill the icon's outline placed at `quad`:
 * intersection over union on the example's thumbnail grid (every `stride`-th cell), extended by a
 * ring around the box: an icon is a figure on a ground of another colour, and a patch of the
 * colour that goes on past the outline (sky, a shirt, a board) is not one.
 */
function shapeIoU(frame: GrayImage, quad: Quad, ex: ThumbExample, m: ColourModel, stride: number): number {
  const { cw, ch } = chromaPlane(frame.width, frame.height);
  const uv = frame.uv!;
  const H = exampleToFrame(quad, ex.width, ex.height);
  const fx = ex.width / ex.tw;
  const fy = ex.height / ex.th;
  let inter = 0;
  let union = 0;
  const mx = Math.round(ex.tw * RING);
  const my = Math.round(ex.th * RING);
  const table = modelTable(m);
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = H;
  for (let j = -my; j < ex.th + my; j += stride)
    for (let i = -mx; i < ex.tw + mx; i += stride) {
      const inIcon = i >= 0 && j >= 0 && i < ex.tw && j < ex.th && ex.mask![j * ex.tw + i] >= 128;
      const sx = (i + 0.5) * fx - 0.5;
      const sy = (j + 0.5) * fy - 0.5;
      const w = h6 * sx + h7 * sy + h8;
      // frame pixel -> chroma pixel: (p + 0.5) / 2 - 0.5
      const x = Math.round(((h0 * sx + h1 * sy + h2) / w + 0.5) / 2 - 0.5);
      const y = Math.round(((h3 * sx + h4 * sy + h5) / w + 0.5) / 2 - 0.5);
      const k = y * cw + x;
      const inColour = x >= 0 && y >= 0 && x < cw && y < ch && table[uv[k] * 256 + uv[cw * ch + k]] === 1;
      if (inIcon && inColour) inter++;
      if (inIcon || inColour) union++;
    }
  return union ? inter / union : 0;
}

/**
 * Moves the corners of a region's box while the icon's outline fits the colour better: coarse
 * steps on every fourth thumbnail cell, steps of 4 and 2 px on every other one, then down to half a
 * pixel on all of them.
 */
function fitShape(
  frame: GrayImage,
  quad: Quad,
  ex: ThumbExample,
  m: ColourModel,
): { quad: Quad; iou: number } {
  let q = quad.slice();
  let best = shapeIoU(frame, q, ex, m, 4);
  if (best < 0.4) return { quad: q, iou: best };
  const descend = (from: number, to: number, stride: number) => {
    best = shapeIoU(frame, q, ex, m, stride);
    for (let step = from; step >= to; step /= 2) {
      let improved = true;
      for (let sweep = 0; sweep < 6 && improved; sweep++) {
        improved = false;
        for (let k = 0; k < 8; k++)
          for (const dir of [1, -1]) {
            const t = q.slice();
            t[k] += dir * step;
            const v = shapeIoU(frame, t, ex, m, stride);
            if (v > best + 1e-4) {
              best = v;
              q = t;
              improved = true;
              break;
            }
          }
      }
    }
  };
  // A fit that is still far below the bar after a phase is not worth the finer ones (benchmark,
  // right hits: at least 0.65 after the first phase, 0.70 after the second, 0.80-0.97 at the end).
  descend(Math.max(4, Math.max(...sides(q)) / 10), 4, 4);
  if (best < MIN_SHAPE_IOU - 0.17) return { quad: q, iou: best };
  descend(4, 2, 2);
  if (best < MIN_SHAPE_IOU - 0.1) return { quad: q, iou: best };
  descend(4, 0.5, 1);
  return { quad: q, iou: best };
}

/** Area of the mask (>= 128) over the area of its convex hull, on the thumbnail grid. */
function solidity(mask: Uint8Array, w: number, h: number): number {
  // outline points: each row's first and last pixel edges (enough for the hull)
  const pts: [number, number][] = [];
  let area = 0;
  for (let y = 0; y < h; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < w; x++)
      if (mask[y * w + x] >= 128) {
        area++;
        if (first < 0) first = x;
        last = x;
      }
    if (first >= 0) pts.push([first, y], [last + 1, y], [first, y + 1], [last + 1, y + 1]);
  }
  if (pts.length < 3) return 1;
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: [number, number][]) => {
    const hull: [number, number][] = [];
    for (const p of list) {
      while (hull.length >= 2 && cross(hull[hull.length - 2], hull[hull.length - 1], p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  const hull = [...half(pts), ...half(pts.slice().reverse())];
  let hullArea = 0;
  for (let i = 0; i < hull.length; i++) {
    const [x1, y1] = hull[i];
    const [x2, y2] = hull[(i + 1) % hull.length];
    hullArea += x1 * y2 - x2 * y1;
  }
  return area / Math.max(1, Math.abs(hullArea) / 2);
}
