import type { DescriptorIndex } from '../descriptor-index.ts';
import type { GrayImage } from '../features.ts';
import { quadIoU, type Quad } from '../geometry.ts';
import { plausible, SAME_INSTANCE, type DetectorOptions, type FrameHit } from '../hits.ts';
import type { Route } from './route.ts';

/**
 * The shape route, for silhouettes: a flat mark of one tone on a ground of another (a swoosh, three
 * bars, a leaping cat, a crest printed on a shirt or a shoe). Such a mark has few corners, and those
 * look like every other logo's, so keypoints miss it (on the team's real photos the keypoints found
 * none of the ten Adidas bar marks); and it is often printed in another colour than its example (a
 * white mark on a navy shirt, a black one on a white shoe), so the colour route misses it too. What
 * stays is its outline.
 *
 * At activation (lazily, per index) each example that is two-tone (Otsu's threshold separates its
 * grey levels well) gives its silhouette: the tone that does not touch the example's border. An
 * example whose silhouette falls into separate clusters (a mark above its word) also gives each
 * large cluster as a model of its own, reported as that part of the example (`FrameHit.part`).
 *
 * In a frame, the grey image is cut at several levels, dark-on-light and light-on-dark; each
 * connected region, and each cluster of nearby regions, is a candidate. A candidate whose moment
 * invariants (elongation, spread) are close to a model's is aligned with it (centroids, area,
 * principal axes, then a small descent over shift, turn and scale) and kept when the two masks
 * overlap well (IoU). Only that overlap speaks for a hit: the route does not check grey levels or
 * colours, which a printed mark does not keep.
 */

/**
 * Long side (px) of the image that the route segments. On the real photos, 1280 for photos found
 * no mark more than 640 and made one false detection more.
 */
const WORK_SIDE = 640;
/** Grey levels at which the image is cut. */
const LEVELS = [48, 80, 112, 144, 176, 208];
/** Least area (work px) of a candidate: smaller outlines are too coarse to tell apart. */
const MIN_AREA = 90;
/** Most share of the work image that a candidate covers. */
const MAX_SHARE = 0.4;
/** Least mask overlap (IoU) of a hit. */
const MIN_IOU = 0.74;
/**
 * A hit's overlap must also stand this far above the overlap of the model with a plain blob (the
 * ellipse of its moments): a mark that a blob fits well (a disc, a house, a thick C) is found
 * everywhere a blob of its tone is.
 */
const BLOB_MARGIN = 0.25;
/** Largest turn (radians) of a mark from its example: marks in footage and photos stand upright. */
const MAX_TURN = (40 * Math.PI) / 180;
/** Most stretch of a mark one way over the other (a photo resized to a square from 2:1). */
const MAX_STRETCH = 2.2;
/** Most regions of a model or a candidate: more is a word, which the text route reads. */
const MAX_PARTS = 4;
/** Points per side of the grid on which two masks are compared. */
const GRID = 40;

/** A silhouette that the shape route looks for. */
interface ShapeModel {
  brand: number;
  example: number;
  /** the silhouette on its own grid (1 = mark) */
  mask: Uint8Array;
  mw: number;
  mh: number;
  /** grid px -> example px */
  toExample: number;
  /** where the silhouette's grid starts in example px (the part's corner) */
  ox: number;
  oy: number;
  /** the part of the example that the model is, in example px (absent: the whole example) */
  part?: Quad;
  parts: number;
  inv: Invariants;
  /** overlap of the silhouette with the ellipse of its moments: how much a plain blob fits it */
  blob: number;
}

interface Invariants {
  area: number;
  cx: number;
  cy: number;
  /** principal axis angle (radians) */
  theta: number;
  /** sqrt of the ratio of the principal second moments (>= 1) */
  elong: number;
  /** (mu20 + mu02) / area^2: spread for its area, scale- and turn-free (a disc has 1 / 2 pi) */
  spread: number;
  /** area over the area of the ellipse of the same second moments: 1 for a filled ellipse, less for holes and notches */
  fill: number;
}

interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
  m10: number;
  m01: number;
  m20: number;
  m11: number;
  m02: number;
  label: number;
}

function invariants(r: {
  area: number;
  m10: number;
  m01: number;
  m20: number;
  m11: number;
  m02: number;
}): Invariants {
  const cx = r.m10 / r.area;
  const cy = r.m01 / r.area;
  const mu20 = r.m20 / r.area - cx * cx;
  const mu02 = r.m02 / r.area - cy * cy;
  const mu11 = r.m11 / r.area - cx * cy;
  const common = Math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 * mu11);
  const l1 = (mu20 + mu02) / 2 + common;
  const l2 = Math.max(1e-9, (mu20 + mu02) / 2 - common);
  return {
    area: r.area,
    cx,
    cy,
    theta: 0.5 * Math.atan2(2 * mu11, mu20 - mu02),
    elong: Math.sqrt(l1 / l2),
    spread: ((mu20 + mu02) * r.area) / (r.area * r.area),
    fill: r.area / (4 * Math.PI * Math.sqrt(l1 * l2)),
  };
}

/** A region with no pixel yet: its box empty (grows with every pixel or region added), its sums 0. */
function emptyRegion(label: number): Region {
  return {
    x0: Infinity,
    y0: Infinity,
    x1: -1,
    y1: -1,
    area: 0,
    m10: 0,
    m01: 0,
    m20: 0,
    m11: 0,
    m02: 0,
    label,
  };
}

/** 4-connected regions of `bin` (1 = in); `labels` gets each pixel's region number + 1. */
function regions(bin: Uint8Array, w: number, h: number, labels: Int32Array, minArea: number): Region[] {
  labels.fill(0);
  const out: Region[] = [];
  const stack: number[] = [];
  let next = 0;
  const visit = (q: number) => {
    if (bin[q] && !labels[q]) {
      labels[q] = next;
      stack.push(q);
    }
  };
  for (let start = 0; start < w * h; start++) {
    if (!bin[start] || labels[start]) continue;
    next++;
    const r = emptyRegion(next);
    labels[start] = next;
    stack.push(start);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      r.area++;
      r.m10 += x;
      r.m01 += y;
      r.m20 += x * x;
      r.m11 += x * y;
      r.m02 += y * y;
      if (x < r.x0) r.x0 = x;
      if (x > r.x1) r.x1 = x;
      if (y < r.y0) r.y0 = y;
      if (y > r.y1) r.y1 = y;
      if (x > 0) visit(p - 1);
      if (x < w - 1) visit(p + 1);
      if (y > 0) visit(p - w);
      if (y < h - 1) visit(p + w);
    }
    if (r.area >= minArea) out.push(r);
  }
  return out;
}

/** Gap between two boxes (0 when they overlap), in px. */
function boxGap(a: Region, b: Region): number {
  const dx = Math.max(0, a.x0 - b.x1 - 1, b.x0 - a.x1 - 1);
  const dy = Math.max(0, a.y0 - b.y1 - 1, b.y0 - a.y1 - 1);
  return Math.max(dx, dy);
}

/**
 * Clusters of nearby regions (single link): two regions are near when the gap between their boxes
 * is at most half the shorter side of the smaller box's, as the parts of one mark (three bars, a
 * letter's pieces) stand. Returns clusters of 2 or more regions.
 */
function clusters(rs: Region[]): Region[][] {
  const parent = rs.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < rs.length; i++)
    for (let j = i + 1; j < rs.length; j++) {
      const a = rs[i];
      const b = rs[j];
      const short = Math.min(a.x1 - a.x0 + 1, a.y1 - a.y0 + 1, b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
      const big = Math.max(a.area, b.area);
      if (Math.min(a.area, b.area) < big * 0.08) continue;
      if (boxGap(a, b) <= Math.max(1, short * 0.5)) parent[find(i)] = find(j);
    }
  const groups = new Map<number, Region[]>();
  rs.forEach((r, i) => {
    const k = find(i);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(r);
  });
  return [...groups.values()].filter((g) => g.length >= 2);
}

function sum(rs: Region[]): Region {
  const out = emptyRegion(0);
  for (const r of rs) {
    out.x0 = Math.min(out.x0, r.x0);
    out.y0 = Math.min(out.y0, r.y0);
    out.x1 = Math.max(out.x1, r.x1);
    out.y1 = Math.max(out.y1, r.y1);
    out.area += r.area;
    out.m10 += r.m10;
    out.m01 += r.m01;
    out.m20 += r.m20;
    out.m11 += r.m11;
    out.m02 += r.m02;
  }
  return out;
}

/** Otsu's threshold of a grey image and how well it separates (between-class over total variance). */
function otsu(px: Uint8Array): { t: number; separation: number } {
  const hist = new Float64Array(256);
  for (const v of px) hist[v]++;
  const n = px.length;
  let total = 0;
  for (let i = 0; i < 256; i++) total += i * hist[i];
  const mean = total / n;
  let varT = 0;
  for (let i = 0; i < 256; i++) varT += hist[i] * (i - mean) ** 2;
  varT /= n;
  let wB = 0;
  let sB = 0;
  let best = 0;
  let t = 128;
  for (let i = 0; i < 256; i++) {
    wB += hist[i];
    if (wB === 0 || wB === n) continue;
    sB += i * hist[i];
    const mB = sB / wB;
    const mF = (total - sB) / (n - wB);
    const between = (wB / n) * ((n - wB) / n) * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      t = i;
    }
  }
  return { t, separation: varT > 0 ? best / varT : 0 };
}

/** Most mean chroma distance (U and V, 0-255) of a silhouette's or its ground's pixels from their mean. */
const MAX_CHROMA_SPREAD = 10;

/** Whether the pixels of `mask` equal to `which` are of about one colour (U plane then V plane). */
function oneColour(uv: Uint8Array, n: number, mask: Uint8Array, which: number): boolean {
  let su = 0;
  let sv = 0;
  let count = 0;
  for (let i = 0; i < n; i++)
    if (mask[i] === which) {
      su += uv[i];
      sv += uv[n + i];
      count++;
    }
  if (!count) return false;
  const mu = su / count;
  const mv = sv / count;
  let spread = 0;
  for (let i = 0; i < n; i++)
    if (mask[i] === which) spread += Math.abs(uv[i] - mu) + Math.abs(uv[n + i] - mv);
  return spread / count <= MAX_CHROMA_SPREAD;
}

/** Least separation (Otsu) of a two-tone example. */
const MIN_SEPARATION = 0.8;

function modelsFor(index: DescriptorIndex): ShapeModel[] {
  const out: ShapeModel[] = [];
  index.examples.forEach((ex, example) => {
    const { tw, th } = ex;
    let fg: Uint8Array;
    if (ex.mask) {
      fg = new Uint8Array(tw * th);
      for (let i = 0; i < fg.length; i++) fg[i] = ex.mask[i] > 127 ? 1 : 0;
    } else {
      const grey = ex.thumbs[0];
      const { t, separation } = otsu(grey);
      if (separation < MIN_SEPARATION) return;
      const dark = new Uint8Array(tw * th);
      for (let i = 0; i < dark.length; i++) dark[i] = grey[i] <= t ? 1 : 0;
      // the mark is the tone that touches the example's border less
      let border = 0;
      let count = 0;
      for (let x = 0; x < tw; x++) border += dark[x] + dark[(th - 1) * tw + x];
      for (let y = 0; y < th; y++) border += dark[y * tw] + dark[y * tw + tw - 1];
      count = 2 * (tw + th);
      fg = border * 2 < count ? dark : dark.map((v) => 1 - v);
    }
    // a silhouette is one colour on one ground: a mark of many colours (a textured logo) is told
    // by its colours, which the keypoints and the colour checks look at
    if (ex.uv && !(oneColour(ex.uv, tw * th, fg, 1) && (ex.mask || oneColour(ex.uv, tw * th, fg, 0)))) return;
    const labels = new Int32Array(tw * th);
    const all = regions(fg, tw, th, labels, 1);
    const fgArea = all.reduce((s, r) => s + r.area, 0);
    if (fgArea < 0.06 * tw * th || fgArea > 0.8 * tw * th) return;
    const parts = all.filter((r) => r.area >= 0.015 * fgArea);
    const toExample = ex.width / tw;
    const make = (rs: Region[], isPart: boolean) => {
      if (rs.length > MAX_PARTS) return;
      const s = sum(rs);
      const inv = invariants(s);
      // a solid box or disc fits any patch of one tone of about its shape
      if (s.area / ((s.x1 - s.x0 + 1) * (s.y1 - s.y0 + 1)) > 0.88) return;
      if (inv.fill > 0.9) return;
      const mw = s.x1 - s.x0 + 1;
      const mh = s.y1 - s.y0 + 1;
      if (Math.max(mw, mh) < 12) return;
      const mask = new Uint8Array(mw * mh);
      const keep = new Set(rs.map((r) => r.label));
      for (let y = 0; y < mh; y++)
        for (let x = 0; x < mw; x++) mask[y * mw + x] = keep.has(labels[(y + s.y0) * tw + x + s.x0]) ? 1 : 0;
      const ox = s.x0 * toExample;
      const oy = s.y0 * toExample;
      const ex1 = (s.x1 + 1) * toExample;
      const ey1 = (s.y1 + 1) * toExample;
      const inv0 = { ...inv, cx: inv.cx - s.x0, cy: inv.cy - s.y0 };
      const blob = ellipseOverlap(mask, mw, mh, inv0);
      out.push({
        brand: ex.brand,
        blob,
        example,
        mask,
        mw,
        mh,
        toExample,
        ox,
        oy,
        part: isPart || mw * mh < 0.9 * tw * th ? [ox, oy, ex1, oy, ex1, ey1, ox, ey1] : undefined,
        parts: rs.length,
        inv: inv0,
      });
    };
    make(parts, false);
    const groups = clusters(parts);
    const singles = parts.filter((r) => !groups.some((g) => g.includes(r)));
    if (groups.length + singles.length > 1)
      for (const g of [...groups, ...singles.map((r) => [r])])
        if (g.reduce((s, r) => s + r.area, 0) >= 0.25 * fgArea) make(g, true);
  });
  return out;
}

/** IoU of a mask with the ellipse of the same moments (1 for a filled ellipse). */
function ellipseOverlap(mask: Uint8Array, mw: number, mh: number, inv: Invariants): number {
  // semi-axes of the ellipse with the mask's second moments: a = 2 sqrt(l1), b = 2 sqrt(l2)
  const l1l2 = (inv.area / (4 * Math.PI * inv.fill)) ** 2;
  const sum = inv.spread * inv.area;
  const l1 = (sum + Math.sqrt(Math.max(0, sum * sum - 4 * l1l2))) / 2;
  const l2 = Math.max(1e-9, sum - l1);
  const a = 2 * Math.sqrt(l1);
  const b = 2 * Math.sqrt(l2);
  const c = Math.cos(inv.theta);
  const s = Math.sin(inv.theta);
  const r = Math.ceil(a) + 1;
  let inter = 0;
  let union = 0;
  for (let y = Math.floor(inv.cy - r); y <= inv.cy + r; y++)
    for (let x = Math.floor(inv.cx - r); x <= inv.cx + r; x++) {
      const dx = x + 0.5 - inv.cx;
      const dy = y + 0.5 - inv.cy;
      const u = (c * dx + s * dy) / a;
      const v = (-s * dx + c * dy) / b;
      const inE = u * u + v * v <= 1;
      const inM = x >= 0 && y >= 0 && x < mw && y < mh && mask[y * mw + x] === 1;
      if (inE && inM) inter++;
      if (inE || inM) union++;
    }
  return union ? inter / union : 1;
}

const modelsOf = new WeakMap<DescriptorIndex, ShapeModel[]>();

/** A candidate of the frame: its regions on one cut of the work image. */
interface Candidate {
  box: Region;
  inv: Invariants;
  parts: number;
  labels: Set<number>;
  cut: Int32Array;
}

/** Similarity-plus-stretch from model grid to work px: x' = A (x - mcx) + (tx, ty). */
interface Fit {
  turn: number;
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

function apply(f: Fit, m: ShapeModel, x: number, y: number): [number, number] {
  const c = Math.cos(f.turn);
  const s = Math.sin(f.turn);
  const u = (x - m.inv.cx) * f.sx;
  const v = (y - m.inv.cy) * f.sy;
  return [c * u - s * v + f.tx, s * u + c * v + f.ty];
}

/** Mask overlap of the model placed by `f` with the candidate, on a grid over both boxes. */
function overlap(m: ShapeModel, c: Candidate, f: Fit, w: number): number {
  const corners = [apply(f, m, 0, 0), apply(f, m, m.mw, 0), apply(f, m, m.mw, m.mh), apply(f, m, 0, m.mh)];
  const x0 = Math.min(c.box.x0, ...corners.map((p) => p[0]));
  const x1 = Math.max(c.box.x1 + 1, ...corners.map((p) => p[0]));
  const y0 = Math.min(c.box.y0, ...corners.map((p) => p[1]));
  const y1 = Math.max(c.box.y1 + 1, ...corners.map((p) => p[1]));
  const cos = Math.cos(-f.turn);
  const sin = Math.sin(-f.turn);
  let inter = 0;
  let union = 0;
  const step = Math.max((x1 - x0) / GRID, (y1 - y0) / GRID, 0.5);
  for (let y = y0 + step / 2; y < y1; y += step)
    for (let x = x0 + step / 2; x < x1; x += step) {
      const xi = Math.floor(x);
      const yi = Math.floor(y);
      const inC =
        xi >= c.box.x0 &&
        xi <= c.box.x1 &&
        yi >= c.box.y0 &&
        yi <= c.box.y1 &&
        c.labels.has(c.cut[yi * w + xi]);
      const dx = x - f.tx;
      const dy = y - f.ty;
      const mx = Math.floor((cos * dx - sin * dy) / f.sx + m.inv.cx);
      const my = Math.floor((sin * dx + cos * dy) / f.sy + m.inv.cy);
      const inM = mx >= 0 && my >= 0 && mx < m.mw && my < m.mh && m.mask[my * m.mw + mx] === 1;
      if (inC && inM) inter++;
      if (inC || inM) union++;
    }
  return union ? inter / union : 0;
}

/** Best fit of a model to a candidate, from the moments and a small descent. */
function fit(m: ShapeModel, c: Candidate, w: number): { f: Fit; iou: number } | null {
  const scale = Math.sqrt(c.inv.area / m.inv.area);
  const starts: number[] = [];
  if (m.inv.elong > 1.25 && c.inv.elong > 1.25) {
    for (const flip of [0, Math.PI]) {
      let t = c.inv.theta - m.inv.theta + flip;
      t = Math.atan2(Math.sin(t), Math.cos(t));
      if (Math.abs(t) <= MAX_TURN + 0.1) starts.push(t);
    }
  } else starts.push(-0.35, 0, 0.35);
  const tries0: Fit[] = starts.map((turn) => ({ turn, sx: scale, sy: scale, tx: c.inv.cx, ty: c.inv.cy }));
  // A mark stretched one way (a photo resized to a square, a print on cloth seen aslant) has its
  // moments' axes turned away from the model's: it also starts upright, box fitted to box.
  const bx = (c.box.x1 - c.box.x0 + 1) / m.mw;
  const by = (c.box.y1 - c.box.y0 + 1) / m.mh;
  if (Math.max(bx / by, by / bx) > 1.15) tries0.push({ turn: 0, sx: bx, sy: by, tx: c.inv.cx, ty: c.inv.cy });
  let best: { f: Fit; iou: number } | null = null;
  for (const f0 of tries0) {
    let f = f0;
    let iou = overlap(m, c, f, w);
    if (iou < 0.4) continue;
    let stepT = 0.08;
    let stepS = 0.06;
    let stepX = Math.max(0.5, 0.03 * Math.sqrt(c.inv.area));
    for (let round = 0; round < 3; round++) {
      let moved = true;
      for (let it = 0; moved && it < 6; it++) {
        moved = false;
        const tries: Fit[] = [
          { ...f, turn: f.turn + stepT },
          { ...f, turn: f.turn - stepT },
          { ...f, sx: f.sx * (1 + stepS) },
          { ...f, sx: f.sx / (1 + stepS) },
          { ...f, sy: f.sy * (1 + stepS) },
          { ...f, sy: f.sy / (1 + stepS) },
          { ...f, tx: f.tx + stepX },
          { ...f, tx: f.tx - stepX },
          { ...f, ty: f.ty + stepX },
          { ...f, ty: f.ty - stepX },
        ];
        for (const g of tries) {
          if (Math.abs(g.turn) > MAX_TURN || g.sx / g.sy > MAX_STRETCH || g.sy / g.sx > MAX_STRETCH) continue;
          const v = overlap(m, c, g, w);
          if (v > iou) {
            iou = v;
            f = g;
            moved = true;
          }
        }
      }
      stepT /= 2;
      stepS /= 2;
      stepX /= 2;
    }
    if (!best || iou > best.iou) best = { f, iou };
  }
  return best;
}

/** Work image: the frame averaged down to at most WORK_SIDE on its long side. */
function workImage(frame: GrayImage): { img: Uint8Array; w: number; h: number; k: number } {
  const k = Math.max(1, Math.max(frame.width, frame.height) / WORK_SIDE);
  if (k === 1) return { img: frame.data, w: frame.width, h: frame.height, k };
  const w = Math.floor(frame.width / k);
  const h = Math.floor(frame.height / k);
  const img = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx0 = Math.floor(x * k);
      const sx1 = Math.max(sx0 + 1, Math.floor((x + 1) * k));
      const sy0 = Math.floor(y * k);
      const sy1 = Math.max(sy0 + 1, Math.floor((y + 1) * k));
      let s = 0;
      for (let yy = sy0; yy < sy1; yy++)
        for (let xx = sx0; xx < sx1; xx++) s += frame.data[yy * frame.width + xx];
      img[y * w + x] = Math.round(s / ((sx1 - sx0) * (sy1 - sy0)));
    }
  return { img, w, h, k };
}

/** Whether a candidate's invariants are near enough a model's to try a fit. */
function near(m: ShapeModel, c: Candidate): boolean {
  if (c.parts > m.parts + 1) return false;
  const e = c.inv.elong / m.inv.elong;
  if (e > 1.45 || e < 1 / 1.45) return false;
  const s = c.inv.spread / m.inv.spread;
  if (s > 1.35 || s < 1 / 1.35) return false;
  const f = c.inv.fill / m.inv.fill;
  return f < 1.25 && f > 1 / 1.25;
}

export function detectByShape(frame: GrayImage, index: DescriptorIndex, models: ShapeModel[]): FrameHit[] {
  if (!models.length) return [];
  const { img, w, h, k } = workImage(frame);
  const bin = new Uint8Array(w * h);
  const hits: FrameHit[] = [];
  for (const level of LEVELS)
    for (const dark of [true, false]) {
      for (let i = 0; i < bin.length; i++) bin[i] = (dark ? img[i] < level : img[i] > level) ? 1 : 0;
      const cut = new Int32Array(w * h);
      const rs = regions(bin, w, h, cut, 12).filter(
        (r) => r.x0 > 0 && r.y0 > 0 && r.x1 < w - 1 && r.y1 < h - 1 && r.area < MAX_SHARE * w * h,
      );
      const cands: Candidate[] = [];
      for (const r of rs)
        if (r.area >= MIN_AREA)
          cands.push({ box: r, inv: invariants(r), parts: 1, labels: new Set([r.label]), cut });
      for (const g of clusters(rs)) {
        if (g.length > MAX_PARTS + 1) continue;
        const s = sum(g);
        if (s.area >= MIN_AREA && s.area < MAX_SHARE * w * h)
          cands.push({
            box: s,
            inv: invariants(s),
            parts: g.length,
            labels: new Set(g.map((r) => r.label)),
            cut,
          });
      }
      for (const c of cands)
        for (const m of models) {
          if (!near(m, c)) continue;
          const r = fit(m, c, w);
          if (!r || r.iou < Math.max(MIN_IOU, m.blob + BLOB_MARGIN)) continue;
          const ex = index.examples[m.example];
          // the example's outline through the fit, in frame px
          const toGrid = (ex_x: number, ex_y: number) =>
            apply(r.f, m, (ex_x - m.ox) / m.toExample, (ex_y - m.oy) / m.toExample);
          const outline = [
            toGrid(0, 0),
            toGrid(ex.width, 0),
            toGrid(ex.width, ex.height),
            toGrid(0, ex.height),
          ].flatMap(([x, y]) => [x * k, y * k]);
          const logo = m.part
            ? [0, 1, 2, 3].flatMap((i) => toGrid(m.part![i * 2], m.part![i * 2 + 1])).map((v) => v * k)
            : outline;
          const dims = m.part
            ? { width: m.part[2] - m.part[0], height: m.part[5] - m.part[1] }
            : { width: ex.width, height: ex.height };
          if (!plausible(logo, dims, frame)) continue;
          hits.push({
            brand: m.brand,
            example: m.example,
            quad: outline,
            part: m.part,
            inliers: 0,
            score: r.iou,
            ncc: r.iou,
          });
        }
    }
  // one hit per place and brand: the best overlap
  hits.sort((a, b) => b.score - a.score);
  const kept: FrameHit[] = [];
  for (const h of hits) if (!kept.some((o) => quadIoU(o.quad, h.quad) > SAME_INSTANCE)) kept.push(h);
  return kept;
}

/** The models of an index, for tests and diagnosis. */
export function shapeModels(index: DescriptorIndex): readonly ShapeModel[] {
  let models = modelsOf.get(index);
  if (!models) modelsOf.set(index, (models = modelsFor(index)));
  return models;
}

export const shapeRoute: Route = {
  name: 'shape',
  enabled: (opts: DetectorOptions) => opts.shapeRoute && true,
  propose({ frame, index, opts, found, seq }) {
    // a photo (maxLogoShare is set for stills only) always; a video's samples every `shapeEvery`, or never at 0
    const photo = frame.maxLogoShare !== undefined;
    if (!photo && (opts.shapeEvery <= 0 || (seq ?? 0) % opts.shapeEvery !== 0)) return [];
    return detectByShape(frame, index, shapeModels(index) as ShapeModel[]).filter(
      (h) => !found.some((o) => o.brand === h.brand && quadIoU(o.quad, h.quad) > SAME_INSTANCE),
    );
  },
};
