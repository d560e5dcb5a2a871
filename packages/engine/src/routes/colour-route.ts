import {
  appearance,
  chromaResidual,
  descendCorners,
  polishCorners,
  type ThumbExample,
} from '../appearance.ts';
import type { DescriptorIndex } from '../descriptor-index.ts';
import { chromaPlane, type GrayImage } from '../features.ts';
import { exampleToFrame, isConvexClockwise, quadIoU, sides, type Quad } from '../geometry.ts';
import { plausible, SAME_INSTANCE, trace, type DetectorOptions, type FrameHit } from '../hits.ts';
import { onSchedule, type Route } from './route.ts';

/**
 * The colour route, for flat one-colour icons. ORB finds such a silhouette's corners, but their
 * descriptors look like every other logo's corners and the shared matcher gives them to other
 * brands (benchmark diagnosis: most flat icons that keypoints miss are lost in matching). Their
 * colour and outline are what tells them apart: pixels of each icon's colour are grouped into
 * connected regions on the frame's chroma plane (each model its own, as brands' colours overlap),
 * and nearby regions of one colour also as one (an icon of several parts); a region of the icon's
 * proportions and fill gives a box whose corners move while the icon's outline fits the region
 * better; a good enough fit then passes the same checks as a keypoint fit (grey correlation with
 * corner polish, colours).
 *
 * Boards (a logo on a ground of one colour: sponsor boards, badges) can be looked for the same way
 * by their ground (`DetectorOptions.boards`): its outline, with the holes that the content makes,
 * is fitted to the region of the ground's colour, and the content must then correlate, in grey or
 * in colour (see appearance: letters may differ from their ground in colour only). Their
 * content's corners are often lost in matching too: the letters of one typeface look alike on
 * every brand's board.
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
  /** where the icon is, on the example's thumbnail grid (>= 128): its outline, or a board's ground */
  mask: Uint8Array;
  /**
   * A board: a logo on a ground of one colour (a sponsor board, a badge) rather than a one-colour
   * icon. The ground's outline with the holes that its content makes is what is fitted.
   */
  board: boolean;
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
/**
 * Candidates fitted per frame at most: those whose outline, laid over the region's box, overlaps
 * the colour best (at least MIN_FIRST_IOU).
 */
const MAX_CANDIDATES = 24;
/** Candidates of one model fitted per frame at most. */
const MAX_PER_MODEL = 4;
const MIN_FIRST_IOU = 0.4;
/** Least grey correlation of a fitted outline's pixels with the logo before the corner polish. */
const MIN_FIRST_NCC = 0.2;

/** Least side in frame pixels of a region's box, and of a fitted icon. */
const MIN_SIDE = 20;

/** Most share of the frame's pixels that a model's colour may cover for its regions to be traced. */
const MAX_COVER = 0.25;

/** Regions of one model taken as parts of one icon at most (the largest ones): bounds the pairing. */
const MAX_PARTS = 200;

/** Least share of a board's pixels that are its ground's colour. */
const BOARD_MIN_GROUND = 0.5;
/** Least share of a board's pixels that are its content (not the ground): less is a blob. */
const BOARD_MIN_CONTENT = 0.08;

/**
 * The examples the colour route applies to: cut-out icons of one clear colour, and with `boards`,
 * boards (a logo on a ground of one clear colour).
 */
export function colourModels(index: DescriptorIndex, boards = false): ColourModel[] {
  const out: ColourModel[] = [];
  index.examples.forEach((ex, example) => {
    if (!ex.uv) return;
    const n = ex.tw * ex.th;
    const opaque = (k: number) => !ex.mask || ex.mask[k] >= 230;
    let w = 0;
    let su = 0;
    let sv = 0;
    let cover = 0;
    for (let k = 0; k < n; k++) {
      cover += ex.mask ? ex.mask[k] / 255 : 1;
      if (!opaque(k)) continue;
      w++;
      su += ex.uv[k] - 128;
      sv += ex.uv[n + k] - 128;
    }
    if (w < 16) return;
    const u = su / w;
    const v = sv / w;
    let spread = 0;
    for (let k = 0; k < n; k++)
      if (opaque(k)) spread += (ex.uv[k] - 128 - u) ** 2 + (ex.uv[n + k] - 128 - v) ** 2;
    const aspect = ex.width / ex.height;
    if (ex.mask && Math.hypot(u, v) >= MIN_SATURATION && Math.sqrt(spread / w) <= MAX_SPREAD) {
      if (solidity(ex.mask, ex.tw, ex.th) <= MAX_SOLIDITY)
        out.push({ example, u, v, fill: cover / n, aspect, mask: ex.mask, board: false });
      return;
    }
    if (!boards) return;
    const ground = groundColour(ex.uv, n, opaque);
    if (!ground || Math.hypot(ground.u, ground.v) < MIN_SATURATION) return;
    const model: ColourModel = { example, ...ground, fill: 0, aspect, mask: new Uint8Array(n), board: true };
    const table = modelTable(model);
    let inGround = 0;
    for (let k = 0; k < n; k++)
      if (opaque(k) && table[ex.uv[k] * 256 + ex.uv[n + k]]) {
        model.mask[k] = 255;
        inGround++;
      }
    if (inGround < BOARD_MIN_GROUND * w || inGround > (1 - BOARD_MIN_CONTENT) * w) return;
    model.fill = inGround / n;
    out.push(model);
  });
  return out;
}

/**
 * The most common colour of an example's pixels (chroma relative to grey): the fullest cell of a
 * coarse chroma histogram, refined to the mean of the pixels near it.
 */
function groundColour(
  uv: Uint8Array,
  n: number,
  opaque: (k: number) => boolean,
): { u: number; v: number } | null {
  const CELL = 8;
  const counts = new Uint32Array(32 * 32);
  for (let k = 0; k < n; k++) if (opaque(k)) counts[(uv[k] >> 3) * 32 + (uv[n + k] >> 3)]++;
  let best = 0;
  for (let c = 1; c < counts.length; c++) if (counts[c] > counts[best]) best = c;
  if (!counts[best]) return null;
  let u = Math.floor(best / 32) * CELL + CELL / 2 - 128;
  let v = (best % 32) * CELL + CELL / 2 - 128;
  for (let iter = 0; iter < 2; iter++) {
    let su = 0;
    let sv = 0;
    let m = 0;
    for (let k = 0; k < n; k++) {
      if (!opaque(k)) continue;
      const cu = uv[k] - 128;
      const cv = uv[n + k] - 128;
      if ((cu - u) ** 2 + (cv - v) ** 2 > COLOUR_TOL * COLOUR_TOL) continue;
      su += cu;
      sv += cv;
      m++;
    }
    if (!m) return null;
    u = su / m;
    v = sv / m;
  }
  return { u, v };
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

/**
 * The models' colours over the chroma plane. Their colours overlap (two brands' oranges), so a
 * pixel may be the colour of several models: `cls[u * 256 + v]` is its class, one per distinct set
 * of models of that colour (0: none of them), and `classesOf[m]` lists the classes of model m.
 */
interface ColourTable {
  cls: Uint16Array;
  classes: number;
  /** `has[m * classes + c]` is 1 when class c is among model m's colours */
  has: Uint8Array;
  classesOf: number[][];
}

const tables = new WeakMap<ColourModel[], ColourTable>();

function colourTable(models: ColourModel[]): ColourTable {
  let t = tables.get(models);
  if (t) return t;
  const own = models.map(modelTable);
  const cls = new Uint16Array(65536);
  const ids = new Map<string, number>();
  const sets: number[][] = [[]];
  for (let c = 0; c < 65536; c++) {
    const set: number[] = [];
    for (let m = 0; m < models.length; m++) if (own[m][c]) set.push(m);
    if (!set.length) continue;
    const key = set.join();
    let id = ids.get(key);
    if (id === undefined) {
      // more distinct sets than a class can number: leave the colour out rather than mislabel it
      if (sets.length === 65536) continue;
      ids.set(key, (id = sets.length));
      sets.push(set);
    }
    cls[c] = id;
  }
  const classes = sets.length;
  const has = new Uint8Array(models.length * classes);
  const classesOf: number[][] = models.map(() => []);
  sets.forEach((set, c) =>
    set.forEach((m) => {
      has[m * classes + c] = 1;
      classesOf[m].push(c);
    }),
  );
  t = { cls, classes, has, classesOf };
  tables.set(models, t);
  return t;
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
 * Connected regions (8-neighbours, gaps of one chroma pixel bridged) of the pixels of each
 * model's colour. Each model has its own regions, which may overlap another's: an icon whose
 * shades fall where two brands' colours meet is one region of its own colour, not two halves, and
 * a neighbour of the other brand's colour does not join it.
 */
function colourRegions(frame: GrayImage, models: ColourModel[]): Region[] {
  const { cw, ch } = chromaPlane(frame.width, frame.height);
  const n = cw * ch;
  const uv = frame.uv!;
  const { cls: lut, classes, has, classesOf } = colourTable(models);
  const cls = new Uint16Array(n);
  // the pixels of each class, in scan order (counting sort): the seeds of its models' regions
  const start = new Int32Array(classes + 1);
  for (let i = 0; i < n; i++) {
    const c = (cls[i] = lut[uv[i] * 256 + uv[n + i]]);
    if (c) start[c + 1]++;
  }
  for (let c = 1; c <= classes; c++) start[c] += start[c - 1];
  const order = new Int32Array(start[classes]);
  const next = start.slice(0, classes);
  for (let i = 0; i < n; i++) if (cls[i]) order[next[cls[i]]++] = i;
  // seen[p] === m + 1: p is in a region of model m already
  const seen = new Uint16Array(n);
  const stack = new Int32Array(n);
  const regions: Region[] = [];
  for (let m = 0; m < Math.min(65535, models.length); m++) {
    const stamp = m + 1;
    const mine = m * classes;
    let cover = 0;
    for (const c of classesOf[m]) cover += start[c + 1] - start[c];
    // A colour that covers much of the frame is the scene's (a pitch, the sky): a logo on a ground
    // of it cannot be told from its surroundings, and its regions are the costliest to trace.
    if (cover > n * MAX_COVER) continue;
    for (const c of classesOf[m])
      for (let o = start[c]; o < start[c + 1]; o++) {
        const s = order[o];
        if (seen[s] === stamp) continue;
        let top = 0;
        stack[top++] = s;
        seen[s] = stamp;
        const r: Region = { model: m, pixels: 0, x0: cw, y0: ch, x1: -1, y1: -1 };
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
              if (seen[q] !== stamp && has[mine + cls[q]]) {
                seen[q] = stamp;
                stack[top++] = q;
              }
            }
          }
        }
        regions.push(r);
      }
  }
  return regions;
}

/**
 * The regions, and the unions of a model's regions that lie close together: an icon of several
 * parts (letters and a mark, a ring round a letter), or one that a thin gap or a blended band of
 * another colour cuts in two, is several regions, none of which has the icon's proportions.
 * Regions are close when the gap between their boxes is at most a quarter of the larger one's
 * longer side (and at least 2 chroma pixels).
 */
function withParts(regions: Region[]): Region[] {
  const out = regions.slice();
  const byModel = new Map<number, Region[]>();
  for (const r of regions) {
    if (r.pixels < 4) continue;
    let list = byModel.get(r.model);
    if (!list) byModel.set(r.model, (list = []));
    list.push(r);
  }
  for (const all of byModel.values()) {
    const list = all.sort((a, b) => b.pixels - a.pixels).slice(0, MAX_PARTS);
    const parent = list.map((_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i];
        const b = list[j];
        const gap = Math.max(b.x0 - a.x1, a.x0 - b.x1, b.y0 - a.y1, a.y0 - b.y1) - 1;
        const reach = Math.max(2, Math.max(a.x1 - a.x0, a.y1 - a.y0, b.x1 - b.x0, b.y1 - b.y0) / 4);
        if (gap <= reach) parent[root(j)] = root(i);
      }
    const unions = new Map<number, Region & { parts: number }>();
    list.forEach((r, i) => {
      const k = root(i);
      const u = unions.get(k);
      if (!u) unions.set(k, { ...r, parts: 1 });
      else {
        u.parts++;
        u.pixels += r.pixels;
        u.x0 = Math.min(u.x0, r.x0);
        u.y0 = Math.min(u.y0, r.y0);
        u.x1 = Math.max(u.x1, r.x1);
        u.y1 = Math.max(u.y1, r.y1);
      }
    });
    for (const u of unions.values()) if (u.parts > 1) out.push(u);
  }
  return out;
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
  const candidates: { quad: Quad; model: ColourModel; first: number }[] = [];
  for (const r of withParts(colourRegions(frame, models))) {
    // chroma pixel (x, y) covers frame pixels 2x .. 2x + 2
    const x0 = r.x0 * 2;
    const y0 = r.y0 * 2;
    const w = (r.x1 - r.x0 + 1) * 2;
    const h = (r.y1 - r.y0 + 1) * 2;
    const area = w * h;
    if (Math.min(w, h) < MIN_SIDE || area > maxArea) continue;
    const fill = (r.pixels * 4) / area;
    const m = models[r.model];
    if (Math.abs(Math.log(w / h / m.aspect)) > Math.log(2.5)) continue;
    if (Math.abs(fill - m.fill) > 0.3) continue;
    const quad = [x0, y0, x0 + w, y0, x0 + w, y0 + h, x0, y0 + h];
    // the outline's overlap over the region's box, before any fitting
    // (below the bar it may stop early: such a region is dropped whatever its overlap)
    const first = shapeIoU(frame, quad, index.examples[m.example], m, 4, MIN_FIRST_IOU - 1e-6);
    if (first >= MIN_FIRST_IOU) candidates.push({ quad, model: m, first });
  }
  candidates.sort((a, b) => b.first - a.first);
  const hits: FrameHit[] = [];
  const perModel = new Map<ColourModel, number>();
  let fitted = 0;
  for (const c of candidates) {
    if (fitted === MAX_CANDIDATES) break;
    // a scene with much of one logo's colour (a board's ground in an advertising colour) gives it
    // many regions of about its proportions; its best few are enough
    const tries = perModel.get(c.model) ?? 0;
    if (tries === MAX_PER_MODEL) continue;
    const ex: ThumbExample & { brand: number } = index.examples[c.model.example];
    // (a union of parts and its largest part, or a board's ground with and without the bits of
    // ground in its letters, give about the same box: fit it once)
    if (
      skip(ex.brand, c.quad) ||
      hits.some((h) => h.brand === ex.brand && quadIoU(h.quad, c.quad) > SAME_INSTANCE)
    )
      continue;
    perModel.set(c.model, tries + 1);
    fitted++;
    const shape = fitShape(frame, c.quad, c.first, ex, c.model);
    if (shape.iou < MIN_SHAPE_IOU) {
      trace.lost?.(c.model.example, `colour shape (first ${c.first.toFixed(2)})`, shape.iou, shape.quad);
      continue;
    }
    const ncc0 = appearance(frame, shape.quad, ex, c.model.board);
    if (ncc0 < MIN_FIRST_NCC) {
      trace.lost?.(c.model.example, 'colour ncc', ncc0, shape.quad);
      continue;
    }
    // An icon's corners find their last pixel by the grey correlation. A board's stay where its
    // ground's outline put them when its content already looks right there: the correlation is
    // flat over a board's plain parts and, for letters that differ from the ground in colour only,
    // blurred (colour is at half resolution). A board that does not yet (a small one, whose
    // outline is a few chroma pixels) is polished as an icon is.
    const p =
      c.model.board && ncc0 >= opts.minCorrelation
        ? { quad: shape.quad, ncc: ncc0 }
        : polishCorners(
            frame,
            shape.quad,
            ex,
            c.model.board ? appearance(frame, shape.quad, ex, false) : ncc0,
            40,
          );
    if (p.ncc < opts.minCorrelation || !isConvexClockwise(p.quad) || !plausible(p.quad, ex, frame)) {
      trace.lost?.(c.model.example, 'colour appearance', p.ncc, p.quad);
      continue;
    }
    // a fit that shrank below the least region looked at rests on a handful of chroma pixels
    if (Math.min(...sides(p.quad)) < MIN_SIDE) continue;
    const colour = chromaResidual(frame, exampleToFrame(p.quad, ex.width, ex.height), ex);
    if (colour === null || colour > opts.maxChroma) {
      trace.lost?.(c.model.example, 'colour chroma', colour ?? -1, p.quad);
      continue;
    }
    trace.colourShape?.(c.model.example, shape.iou, p.quad);
    hits.push({
      brand: ex.brand,
      example: c.model.example,
      quad: p.quad,
      inliers: 0,
      score: 0.6 * shape.iou * Math.min(1, 0.5 + p.ncc / 1.4),
      ncc: p.ncc,
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
 * colour that goes on past the outline (sky, a shirt, a board) is not one. With `bar`, it stops
 * as soon as the cells still to come cannot lift it over the bar, and returns a bound of its value
 * that is at most the bar (a caller that drops what is not over the bar decides the same).
 */
function shapeIoU(
  frame: GrayImage,
  quad: Quad,
  ex: ThumbExample,
  m: ColourModel,
  stride: number,
  bar = -Infinity,
): number {
  const { cw, ch } = chromaPlane(frame.width, frame.height);
  const uv = frame.uv!;
  const H = exampleToFrame(quad, ex.width, ex.height);
  let inter = 0;
  let union = 0;
  const table = modelTable(m);
  const { sx: gx, sy: gy, icon, iconFrom } = shapeGrid(ex, m, stride);
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = H;
  for (let c = 0; c < icon.length; c++) {
    if ((c & 63) === 0 && c > 0) {
      // each icon cell still to come adds one to the union and at most one to the intersection
      const bound = (inter + iconFrom[c]) / (union + iconFrom[c]);
      if (bound <= bar) return bound;
    }
    const sx = gx[c];
    const sy = gy[c];
    const w = h6 * sx + h7 * sy + h8;
    // frame pixel -> chroma pixel: (p + 0.5) / 2 - 0.5
    const x = Math.round(((h0 * sx + h1 * sy + h2) / w + 0.5) / 2 - 0.5);
    const y = Math.round(((h3 * sx + h4 * sy + h5) / w + 0.5) / 2 - 0.5);
    const k = y * cw + x;
    const inColour = x >= 0 && y >= 0 && x < cw && y < ch && table[uv[k] * 256 + uv[cw * ch + k]] === 1;
    const inIcon = icon[c] === 1;
    if (inIcon && inColour) inter++;
    if (inIcon || inColour) union++;
  }
  return union ? inter / union : 0;
}

/** The cells of {@link shapeIoU}'s grid: their places in the example's pixels, and which lie in the icon. */
interface ShapeGrid {
  sx: Float64Array;
  sy: Float64Array;
  icon: Uint8Array;
  /** icon cells from each cell on */
  iconFrom: Int32Array;
}

const shapeGrids = new WeakMap<ColourModel, Map<number, ShapeGrid>>();

/**
 * The thumbnail grid of {@link shapeIoU} at `stride` (every `stride`-th cell), extended by the
 * ring, as it is the same for every placement of the icon: made once per model and stride.
 */
function shapeGrid(ex: ThumbExample, m: ColourModel, stride: number): ShapeGrid {
  let byStride = shapeGrids.get(m);
  if (!byStride) shapeGrids.set(m, (byStride = new Map()));
  const known = byStride.get(stride);
  if (known) return known;
  const fx = ex.width / ex.tw;
  const fy = ex.height / ex.th;
  const mx = Math.round(ex.tw * RING);
  const my = Math.round(ex.th * RING);
  // at least 12 cells across each side: every fourth row of a wordmark's 64 x 16 grid would be
  // four rows, too few for its corners to find their place
  const stepX = Math.min(stride, Math.max(1, Math.floor(ex.tw / 12)));
  const stepY = Math.min(stride, Math.max(1, Math.floor(ex.th / 12)));
  const sx: number[] = [];
  const sy: number[] = [];
  const icon: number[] = [];
  for (let j = -my; j < ex.th + my; j += stepY)
    for (let i = -mx; i < ex.tw + mx; i += stepX) {
      sx.push((i + 0.5) * fx - 0.5);
      sy.push((j + 0.5) * fy - 0.5);
      icon.push(i >= 0 && j >= 0 && i < ex.tw && j < ex.th && m.mask[j * ex.tw + i] >= 128 ? 1 : 0);
    }
  const iconFrom = new Int32Array(icon.length + 1);
  for (let c = icon.length - 1; c >= 0; c--) iconFrom[c] = iconFrom[c + 1] + icon[c];
  const grid = {
    sx: Float64Array.from(sx),
    sy: Float64Array.from(sy),
    icon: Uint8Array.from(icon),
    iconFrom,
  };
  byStride.set(stride, grid);
  return grid;
}

/**
 * Moves the corners of a region's box (where the outline overlaps the colour by `first`) while the
 * icon's outline fits the colour better: coarse steps on every fourth thumbnail cell, steps of 4
 * and 2 px on every other one, then down to half a pixel on all of them.
 */
function fitShape(
  frame: GrayImage,
  quad: Quad,
  first: number,
  ex: ThumbExample,
  m: ColourModel,
): { quad: Quad; iou: number } {
  let q = quad.slice();
  let best = first;
  const descend = (from: number, to: number, stride: number) => {
    const objective = (t: Quad, bar = -Infinity) => shapeIoU(frame, t, ex, m, stride, bar);
    ({ quad: q, value: best } = descendCorners(q, objective(q), objective, { from, to, sweeps: 6 }));
  };
  // A fit that is still far below the bar after a phase is not worth the finer ones (benchmark,
  // right hits: at least 0.65 after the first phase, 0.70 after the second, 0.80-0.97 at the end);
  // nor is one whose pixels do not look like the logo at all (the check that follows the fit, a
  // little below its bar; a board's ground fits many patches of an advertising colour).
  descend(Math.max(4, Math.max(...sides(q)) / 10), 4, 4);
  if (best < MIN_SHAPE_IOU - 0.17) return { quad: q, iou: best };
  descend(4, 2, 2);
  if (best < MIN_SHAPE_IOU - 0.1) return { quad: q, iou: best };
  if (appearance(frame, q, ex, m.board) < MIN_FIRST_NCC - 0.05) return { quad: q, iou: 0 };
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

const modelsOf = new WeakMap<DescriptorIndex, Map<boolean, ColourModel[]>>();

/** The colour route as a pipeline route: its colour models are built once per index. */
export const colourRoute: Route = {
  name: 'colour',
  enabled: (opts) => opts.colourRoute,
  propose({ frame, index, opts, found, seq, last }) {
    const still = frame.maxLogoShare !== undefined;
    const boards = opts.boards && (still || onSchedule({ seq, last }, opts.boardsEvery, 1));
    let byBoards = modelsOf.get(index);
    if (!byBoards) modelsOf.set(index, (byBoards = new Map()));
    let models = byBoards.get(boards);
    if (!models) byBoards.set(boards, (models = colourModels(index, boards)));
    return detectByColour(frame, index, models, opts, (brand, quad) =>
      found.some((h) => h.brand === brand && quadIoU(h.quad, quad) > SAME_INSTANCE),
    );
  },
};
