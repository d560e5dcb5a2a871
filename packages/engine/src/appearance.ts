import { chromaPlane, halve, type GrayImage } from './features.ts';
import { applyH, exampleToFrame, sides, type Quad } from './geometry.ts';

/**
 * How a region of a frame looks next to an example: grey correlation through a homography on
 * the example's thumbnail grid (with the corner polish that moves a quad to where it correlates
 * best), and the colour checks. Every route verifies its proposals with these, and the tracker
 * follows logos with them.
 */

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
  /** the cells compared where the example's crop cuts the next board's row (1; see content.ts `uncutRegion`) */
  region?: Uint8Array;
}

/**
 * Appearance check: samples the frame through the homography on the example's thumbnail grid
 * (2x2 supersampled) and returns the best normalised cross-correlation with the thumbnails.
 * Keypoint geometry alone lets a dozen chance matches on busy backgrounds agree; the pixels
 * inside the quad must also look like the logo. A mirrored logo fails here too.
 */
export function correlate(frame: GrayImage, H: ArrayLike<number>, ex: ThumbExample): number {
  const { tw, th } = ex;
  const { sample, valid, inside, cells } = sampleGrid(frame, H, ex, ex.region);
  if (inside < cells * 0.5) return 0;
  let best = ex.mask ? maskedFit(sample, valid, ex.mask, ex.thumbs[0]) : -1;
  // Per vertical band sums, so that the correlation can also be taken without one or two
  // adjacent bands: a player or a post in front of a logo covers a vertical strip of it. The
  // frame's sums (count, a, a^2) are the same for every thumbnail: they are taken once.
  const band = bandOf(tw);
  const frameSums = correlateSums.frame.fill(0);
  for (let v = 0; v < th; v++) {
    for (let u = 0; u < tw; u++) {
      const i = v * tw + u;
      if (!valid[i]) continue;
      const o = band[u] * 3;
      const a = sample[i];
      frameSums[o] += 1;
      frameSums[o + 1] += a;
      frameSums[o + 2] += a * a;
    }
  }
  const { st, sums } = correlateSums;
  for (const t of ex.thumbs) {
    st.fill(0);
    for (let v = 0; v < th; v++) {
      for (let u = 0; u < tw; u++) {
        const i = v * tw + u;
        if (!valid[i]) continue;
        const o = band[u] * 6;
        const a = sample[i];
        const b = t[i];
        st[o + 2] += b;
        st[o + 4] += b * b;
        st[o + 5] += a * b;
      }
    }
    for (let k = 0; k < BANDS; k++) {
      st[k * 6] = frameSums[k * 3];
      st[k * 6 + 1] = frameSums[k * 3 + 1];
      st[k * 6 + 3] = frameSums[k * 3 + 2];
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
 * pin the outline down to about a pixel. With `translateFirst`, whole-quad shifts come first;
 * where they leave the correlation under `shiftsReach`, the corners are not tried.
 */
export function polishCorners(
  frame: GrayImage,
  quad: Quad,
  ex: ThumbExample,
  ncc0: number,
  startDiv: number,
  translateFirst = false,
  shiftsReach = -Infinity,
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
  // the corners move a correlation by a few hundredths: short of this after the shifts, no use
  if (best < shiftsReach) return { quad: q, ncc: best };
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
 * direction that raises `objective`. Each quad is evaluated once: about a sixth of the trials come
 * back to a quad already tried (a step back to where the last move came from, a later sweep
 * trying what the one before it tried), and `objective` is deterministic.
 */
export function descendCorners(
  quad: Quad,
  value: number,
  objective: (q: Quad, bar: number) => number,
  steps: { from: number; to: number; sweeps: number },
): { quad: Quad; value: number } {
  let q = quad;
  let best = value;
  const tried = new Map<string, number>();
  // `bar`: a move is taken only above it, and the best only rises, so an objective may stop as
  // soon as it knows its value is at most the bar, and give any value between its own and the bar
  // (a value remembered for a quad then still refuses it whenever it is tried again)
  const evaluate = (t: Quad) => {
    const key = t.join();
    let v = tried.get(key);
    if (v === undefined) tried.set(key, (v = objective(t, best + 1e-4)));
    return v;
  };
  for (let step = steps.from; step >= steps.to; step /= 2) {
    let improved = true;
    for (let sweep = 0; sweep < steps.sweeps && improved; sweep++) {
      improved = false;
      for (let k = 0; k < 8; k++) {
        for (const dir of [1, -1]) {
          const t = q.slice();
          t[k] += dir * step;
          const v = evaluate(t);
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

/** {@link correlate}'s sums per band: the frame's (count, a, a^2), a thumbnail's with them, one selection of bands. */
const correlateSums = {
  frame: new Float64Array(BANDS * 3),
  st: new Float64Array(BANDS * 6),
  sums: new Float64Array(6),
};

const bands = new Map<number, Uint8Array>();

/** The band of each column of a thumbnail grid `tw` wide, once per width. */
function bandOf(tw: number): Uint8Array {
  let b = bands.get(tw);
  if (!b) {
    b = Uint8Array.from({ length: tw }, (_, u) => Math.min(BANDS - 1, Math.floor((u * BANDS) / tw)));
    bands.set(tw, b);
  }
  return b;
}

/**
 * The frame sampled through the homography on the example's thumbnail grid, 2x2 supersampled, at
 * a pyramid level where a thumbnail pixel spans about two frame pixels (point samples of a large
 * logo at full resolution alias its thin strokes away). `valid` marks the grid pixels inside the
 * frame; with a `region`, only its cells are sampled (`cells`: how many the grid compares).
 *
 * This loop runs for every candidate quad of a frame (thousands a sample: the corner polish, the
 * follows), and is the engine's hottest code. It computes what the plain loop (kept as the
 * reference in appearance.test.ts) computes, operation for operation, so that every result is
 * the same to the bit: the products of the homography with a grid coordinate are taken once per
 * column and row instead of once per sample (`h0 * x + h1 * y + h2` is `(h0 * x + h1 * y) + h2`,
 * the same additions of the same products), the bilinear lookup is written out, and a cell stops
 * at its first sample outside the frame (it is not valid either way). The returned arrays are
 * scratch, reused by the next call: read them before sampling again. (Exported for its test.)
 */
export function sampleGrid(
  frame: GrayImage,
  H: ArrayLike<number>,
  ex: { width: number; height: number; tw: number; th: number },
  region?: Uint8Array,
): { sample: Float32Array; valid: Uint8Array; inside: number; cells: number } {
  const { tw, th } = ex;
  const n = tw * th;
  const { sample, valid, cols, rows } = scratch(n, tw, th);
  let inside = 0;
  let cells = 0;
  const fx = ex.width / tw;
  const fy = ex.height / th;
  const [cx, cy] = applyH(H, (tw / 2) * fx - 0.5, (th / 2) * fy - 0.5);
  const [ux, uy] = applyH(H, (tw / 2 + 1) * fx - 0.5, (th / 2) * fy - 0.5);
  const [vx, vy] = applyH(H, (tw / 2) * fx - 0.5, (th / 2 + 1) * fy - 0.5);
  const span = Math.min(Math.hypot(ux - cx, uy - cy), Math.hypot(vx - cx, vy - cy));
  const level = Number.isFinite(span) ? Math.max(0, Math.min(4, Math.floor(Math.log2(span / 2)))) : 0;
  const img = pyramidLevel(frame, level);
  const k = 1 / (1 << level);
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = Array.from(H);
  // per column u and horizontal offset (0.25, 0.75): h0 * x, h3 * x, h6 * x; per row: h1 * y, h4 * y, h7 * y
  gridProducts(cols, tw, fx, h0, h3, h6);
  gridProducts(rows, th, fy, h1, h4, h7);
  const d = img.data;
  const W = img.width;
  const right = img.width - 1;
  const bottom = img.height - 1;
  const lastX = img.width - 2;
  const lastY = img.height - 2;
  for (let v = 0; v < th; v++) {
    for (let u = 0; u < tw; u++) {
      const at = v * tw + u;
      valid[at] = 0;
      if (region && !region[at]) continue;
      cells++;
      let acc = 0;
      let s = 0;
      for (; s < 4; s++) {
        const c = (u * 2 + (s & 1)) * 3;
        const r = (v * 2 + (s >> 1)) * 3;
        const w = cols[c + 2] + rows[r + 2] + h8;
        const px = (cols[c] + rows[r] + h2) / w;
        const py = (cols[c + 1] + rows[r + 1] + h5) / w;
        const x = (px + 0.5) * k - 0.5;
        const y = (py + 0.5) * k - 0.5;
        if (!(x >= 0 && y >= 0 && x <= right && y <= bottom)) break;
        const x0 = Math.min(lastX, Math.floor(x));
        const y0 = Math.min(lastY, Math.floor(y));
        const ax = x - x0;
        const ay = y - y0;
        const i = y0 * W + x0;
        acc += (d[i] * (1 - ax) + d[i + 1] * ax) * (1 - ay) + (d[i + W] * (1 - ax) + d[i + W + 1] * ax) * ay;
      }
      if (s === 4) {
        sample[at] = acc / 4;
        valid[at] = 1;
        inside++;
      }
    }
  }
  return { sample: sample.subarray(0, n), valid: valid.subarray(0, n), inside, cells };
}

/**
 * For each of `n` grid cells and both sample offsets in it (0.25, 0.75), the products of three
 * homography entries with the sample's coordinate `t` on the example (`(cell + offset) * f - 0.5`),
 * as {@link sampleGrid} adds them up.
 */
function gridProducts(out: Float64Array, n: number, f: number, a: number, b: number, c: number): void {
  for (let i = 0; i < n; i++)
    for (let o = 0; o < 2; o++) {
      const t = (i + (o ? 0.75 : 0.25)) * f - 0.5;
      const j = (i * 2 + o) * 3;
      out[j] = a * t;
      out[j + 1] = b * t;
      out[j + 2] = c * t;
    }
}

let scratchBuffers = {
  sample: new Float32Array(0),
  valid: new Uint8Array(0),
  cols: new Float64Array(0),
  rows: new Float64Array(0),
};

/** {@link sampleGrid}'s buffers, grown to the largest grid asked for and then reused. */
function scratch(n: number, tw: number, th: number): typeof scratchBuffers {
  let b = scratchBuffers;
  if (b.sample.length < n || b.cols.length < tw * 6 || b.rows.length < th * 6) {
    const m = Math.max(n, b.sample.length);
    b = scratchBuffers = {
      sample: new Float32Array(m),
      valid: new Uint8Array(m),
      cols: new Float64Array(Math.max(tw * 6, b.cols.length)),
      rows: new Float64Array(Math.max(th * 6, b.rows.length)),
    };
  }
  return b;
}

/** Long side of the thumbnail grid of an example cut from a frame (as for brands' examples). */
const THUMB_SIDE = 64;

/**
 * An example cut from a frame: what the quad frames there, rectified onto a thumbnail grid (grey and, when the frame has it, colour), so that the quad can be followed
 * into other frames with {@link correlate} like a brand's example. Null when the quad is too small
 * or mostly outside the frame.
 */
export function exampleFromFrame(frame: GrayImage, quad: Quad): ThumbExample | null {
  const [top, right, bottom, left] = sides(quad);
  const width = (top + bottom) / 2;
  const height = (left + right) / 2;
  if (!(width >= 4 && height >= 4)) return null;
  const k = THUMB_SIDE / Math.max(width, height);
  const tw = Math.max(4, Math.round(width * k));
  const th = Math.max(4, Math.round(height * k));
  const shape = { width, height, tw, th, thumbs: [] as Uint8Array[] };
  const H = exampleToFrame(quad, width, height);
  const { sample, valid, inside } = sampleGrid(frame, H, shape);
  if (inside < tw * th * 0.5) return null;
  // Outside the frame: the mean of the rest, which neither helps nor hurts a correlation much.
  let mean = 0;
  for (let i = 0; i < sample.length; i++) if (valid[i]) mean += sample[i];
  mean /= inside;
  const grey = Uint8Array.from(sample, (v, i) => Math.round(valid[i] ? v : mean));
  let uv: Uint8Array | undefined;
  if (frame.uv) {
    const chroma = chromaSampler(frame, H, shape);
    uv = new Uint8Array(2 * tw * th).fill(128);
    for (let j = 0; j < th; j++)
      for (let i = 0; i < tw; i++) {
        const c = chroma(i, j);
        if (!c) continue;
        uv[j * tw + i] = Math.round(c[0]);
        uv[tw * th + j * tw + i] = Math.round(c[1]);
      }
  }
  return { ...shape, thumbs: [grey], uv };
}

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
