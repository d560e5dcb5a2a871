import type { RgbaImage } from './image-io.ts';
import { applyH, quadToQuad, type Quad } from './geometry.ts';
import { matchText, MIN_MATCH, MIN_SIMILARITY, normaliseText, textAgreement } from './text-match.ts';

/** Share of an example's edges that must lie on its words for the words to be the logo. */
const TEXT_EDGE_SHARE = 0.85;
/** The words' region reaches this share of a line's height beyond each line (serifs, strokes). */
const LINE_MARGIN = 0.3;
/** A line whose corner is this close to the example's edge (px) is cut by it. */
const EDGE = 1;
/** Fewest characters of a line, shorter than half the longest, that is part of the logo. */
const MIN_OWN_LINE = 4;

/**
 * Where the logo is inside an example image, when that is less than the whole image: an example cut
 * from footage or a screenshot holds the logo with some of its ground around it, often a board's
 * slanted words inside an upright box. When the example is one line of words (beside scraps of
 * its neighbours cut by the crop) and those words carry nearly all of its edges, the words are the
 * logo and their own (possibly slanted) quad is returned. Otherwise (a mark, a crest or a badge
 * around its words, several lines, a clean logo file) the whole image is the logo: undefined. Corners in the example's pixels,
 * clockwise from the top-left.
 *
 * Several lines of words are one logo (a stacked wordmark), unless exactly one of them reads the
 * brand's own name: then the crop holds the next board's line too (an LED board showing two
 * sponsors' rows, cut as one box), and the named line is the logo.
 */
export function textContent(
  logo: RgbaImage,
  lines: { text: string; quad: number[] }[],
  name?: string,
): Quad | undefined {
  if (logo.hasAlpha || lines.length === 0) return undefined; // a cut-out is already trimmed
  const { width: w, height: h } = logo;
  const grey = greyOf(logo);
  const grown = lines.map((l) => grow(l.quad, LINE_MARGIN));
  const scraps = cutStrips(grey, w, h, mainLine(lines));
  let inside = 0;
  let all = 0;
  // gradient magnitude away from the image's own border (a crop's edge is no edge of the logo)
  for (let y = 2; y < h - 2; y++) {
    for (let x = 2; x < w - 2; x++) {
      const i = y * w + x;
      const e = Math.abs(grey[i + 1] - grey[i - 1]) + Math.abs(grey[i + w] - grey[i - w]);
      if (grown.some((q) => insideConvex(q, x + 0.5, y + 0.5))) inside += e;
      else if (scraps(x + 0.5, y + 0.5)) continue;
      all += e;
    }
  }
  if (all === 0 || inside / all < TEXT_EDGE_SHARE) return undefined;
  // A short line cut by the example's edge or lying in a strip the crop cuts, or a scrap of a few
  // letters, is the ground around the logo (the next board's words), not the logo: the crop's own
  // line may touch the edge too, but it is the longest.
  const longest = Math.max(...lines.map((l) => l.text.length));
  const cut = (q: number[]) =>
    q.some((v, i) => v <= EDGE || v >= (i % 2 === 0 ? w : h) - EDGE) ||
    scraps((q[0] + q[2] + q[4] + q[6]) / 4, (q[1] + q[3] + q[5] + q[7]) / 4);
  const words = lines.filter(
    (l) => l.text.length >= longest / 2 || (!cut(l.quad) && l.text.length >= MIN_OWN_LINE),
  );
  if (words.length === 1) return clip(words[0].quad, w, h);
  // Several lines (a badge, a stacked wordmark, a score bug) are a designed logo: the whole image,
  // unless one line alone reads the brand's name.
  const named = name ? words.filter((l) => readsName(l.text, name)) : [];
  return named.length === 1 ? clip(named[0].quad, w, h) : undefined;
}

/** Width (px) of the example's border ring whose colour is taken as the ground round a mark. */
const RING = 2;
/** A pixel is ground when no channel differs from the ring's median colour by more than this. */
const GROUND_DIFF = 40;
/** Share of the ring that must be ground for the example to have a margin of ground at all. */
const GROUND_RING = 0.75;
/**
 * Share of the pixels that differ from the ground that must be the mark (not cut by the border)
 * for the example to be a mark on its ground: a crop through a scene holds more of the scene.
 */
const MARK_SHARE = 0.5;
/** Share of the mark's pixels left out at each side of its box (stray specks of the ground). */
const MARK_TRIM = 0.01;
/** Least share of the example that the mark covers. */
const MIN_MARK = 0.01;
/** A mark's box that spans this share of the example's width and height is the whole example. */
const WHOLE = 0.9;
/**
 * A ground of which this share is within {@link FLAT} levels of its colour is a drawn canvas (a
 * logo file), not a photo's ground: on the real set's files 0.80-0.99 of it is (the Robin badge's
 * red square 0.52), on the Adidas and Puma crops of other photos 0.09-0.64, but 0.85 on one photo
 * of a mark on white studio light.
 */
const CANVAS = 0.75;
const FLAT = 2;

/** Whether (x, y) lies on the RING px wide border of a w x h image. */
function onRing(x: number, y: number, w: number, h: number): boolean {
  return x < RING || y < RING || x >= w - RING || y >= h - RING;
}

/**
 * The ground an opaque example was cut from, where its border shows one (three quarters of its
 * 2 px ring within 40 levels of the ring's median colour) and that ground is no flat drawn canvas
 * (see {@link markContent}): its colour, and which pixels differ from it (`all` of them).
 * Undefined for cut-outs, small images, busy borders and logo files' canvases.
 */
export function plainGround(
  logo: RgbaImage,
): { colour: [number, number, number]; differs: Uint8Array; all: number } | undefined {
  const { width: w, height: h, data } = logo;
  if (logo.hasAlpha || w < 8 * RING || h < 8 * RING) return undefined;
  const ring: number[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (onRing(x, y, w, h)) ring.push(y * w + x);
  const ground = [0, 1, 2].map((c) => {
    const v = ring.map((i) => data[i * 4 + c]).sort((a, b) => a - b);
    return v[v.length >> 1];
  }) as [number, number, number];
  const differs = new Uint8Array(w * h);
  let all = 0;
  for (let i = 0; i < w * h; i++)
    if (
      Math.abs(data[i * 4] - ground[0]) > GROUND_DIFF ||
      Math.abs(data[i * 4 + 1] - ground[1]) > GROUND_DIFF ||
      Math.abs(data[i * 4 + 2] - ground[2]) > GROUND_DIFF
    ) {
      differs[i] = 1;
      all++;
    }
  if (ring.filter((i) => !differs[i]).length < GROUND_RING * ring.length) return undefined;
  // a drawn canvas: the ground of a logo file, which may be part of its design (a badge's panel),
  // and is what the file shows wherever it is pasted
  let groundPixels = 0;
  let flat = 0;
  for (let i = 0; i < w * h; i++) {
    if (differs[i]) continue;
    groundPixels++;
    if (
      Math.abs(data[i * 4] - ground[0]) <= FLAT &&
      Math.abs(data[i * 4 + 1] - ground[1]) <= FLAT &&
      Math.abs(data[i * 4 + 2] - ground[2]) <= FLAT
    )
      flat++;
  }
  if (flat >= CANVAS * groundPixels) return undefined;
  return { colour: ground, differs, all };
}

/**
 * Where a mark is inside an example cut with a margin of its ground round it (a graphic logo cut
 * from a photo as a user cuts it: the mark on a patch of shoe, shirt or box): the box of the
 * pixels that differ from the ground (the median colour of the example's border) in parts that
 * the border does not cut (what the border cuts is the scene round the mark: a seam, a fold, a
 * hand). Detections report that box, not the example with its margin (a 15 % margin alone takes
 * a perfect fit's overlap with the logo to 0.59), and keypoints on the ground are not looked for.
 * Undefined where the border is no plain ground, where the ground is a flat drawn canvas (a logo
 * file, whose canvas is what it shows wherever it is pasted, and may be its design: a badge's
 * panel), where the border cuts most of what differs from it (a tight crop, whose mark reaches the
 * border, or a crop through a scene), or where the mark fills the example anyway. Corners in the example's pixels, clockwise from the top-left.
 * Cut-outs are trimmed already, and words are found by {@link textContent}.
 */
export function markContent(logo: RgbaImage): Quad | undefined {
  const g = plainGround(logo);
  if (!g) return undefined;
  const { differs, all } = g;
  const { width: w, height: h } = logo;
  // the parts (8-connected) of what differs from the ground; those that reach the ring are cut by it
  const part = new Int32Array(w * h).fill(-1);
  const cut: boolean[] = [];
  const stack: number[] = [];
  for (let seed = 0; seed < w * h; seed++) {
    if (!differs[seed] || part[seed] >= 0) continue;
    const id = cut.length;
    cut.push(false);
    part[seed] = id;
    stack.push(seed);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      if (onRing(x, y, w, h)) cut[id] = true;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const j = ny * w + nx;
          if (differs[j] && part[j] < 0) {
            part[j] = id;
            stack.push(j);
          }
        }
    }
  }
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const p = part[y * w + x];
      if (p >= 0 && !cut[p]) {
        xs.push(x);
        ys.push(y);
      }
    }
  if (xs.length < MIN_MARK * w * h || xs.length < MARK_SHARE * all) return undefined;
  const span = (v: number[]) => {
    v.sort((a, b) => a - b);
    const k = Math.floor(MARK_TRIM * v.length);
    return [v[k], v[v.length - 1 - k] + 1];
  };
  const [x0, x1] = span(xs);
  const [y0, y1] = span(ys);
  if (x1 - x0 >= WHOLE * w && y1 - y0 >= WHOLE * h) return undefined;
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

/**
 * The cells of an example's thumbnail grid (`tw` x `th`) that are not in a strip the crop cuts
 * above or below its words (see {@link cutStrips}): 1 there, 0 in the strip. Undefined where the
 * crop cuts no strip. Such a strip is the next board's row on a two-row LED board, and the rows
 * swap from one moment to the next, so the same board elsewhere in the footage shows another row
 * there: the pixels are compared without it (see appearance.ts `correlate`).
 */
export function uncutRegion(
  logo: RgbaImage,
  lines: { text: string; quad: number[] }[],
  tw: number,
  th: number,
): Uint8Array | undefined {
  if (logo.hasAlpha || lines.length === 0) return undefined;
  const { width: w, height: h } = logo;
  const scraps = cutStrips(greyOf(logo), w, h, mainLine(lines));
  const region = new Uint8Array(tw * th);
  for (let v = 0; v < th; v++)
    for (let u = 0; u < tw; u++)
      region[v * tw + u] = scraps(((u + 0.5) * w) / tw, ((v + 0.5) * h) / th) ? 0 : 1;
  return region.includes(0) ? region : undefined;
}

/** An example's grey levels (BT.601 luma of its RGB). */
function greyOf(logo: RgbaImage): Float32Array {
  const { width: w, height: h, data } = logo;
  const grey = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++)
    grey[i] = 0.299 * data[i * 4] + 0.587 * data[i * 4 + 1] + 0.114 * data[i * 4 + 2];
  return grey;
}

/** The quad of the longest line of an example's words: its own line, where a crop holds others. */
function mainLine(lines: { text: string; quad: number[] }[]): number[] {
  return lines.reduce((a, b) => (b.text.length > a.text.length ? b : a)).quad;
}

/** Whether a line read in an example is the brand's name: the name whole, and little else. */
export function readsName(line: string, name: string): boolean {
  const want = normaliseText(name);
  const seen = normaliseText(line);
  const m = matchText(want, seen);
  return (
    !!m &&
    m.score >= 0.7 &&
    m.example[1] - m.example[0] >= 0.8 * want.text.length &&
    m.seen[1] - m.seen[0] >= 0.7 * seen.text.length
  );
}

/**
 * A line read in an example with the part that reads as the brand's name written as the name
 * (normalised, see `normaliseText`): OCR misreads a letter or two of a small example (the real
 * set's 1xBet board crop reads "XRET" at 1280x720), the name that the user typed does not. The
 * part must hold most of the name ({@link NAME_SHARE}; the crop may cut a letter, OCR may drop
 * one) nearly as it is written (a letter in four may differ). Otherwise, or where it reads the
 * name exactly, the line comes back as it was read.
 */
export function nameCorrected(line: string, name: string): string {
  const want = normaliseText(name).text;
  const seen = normaliseText(line).text;
  const m = matchText({ text: want }, { text: seen });
  if (!m || m.example[1] - m.example[0] < NAME_SHARE * want.length) return line;
  const part = want.slice(m.example[0], m.example[1]);
  if (textAgreement(part, seen.slice(m.seen[0], m.seen[1]), MIN_MATCH) < MIN_SIMILARITY) return line;
  const fixed = seen.slice(0, m.seen[0]) + part + seen.slice(m.seen[1]);
  return fixed === seen ? line : fixed;
}

/** Share of the brand's name that a line must hold for the name to correct it. */
const NAME_SHARE = 0.8;

/** Whether a point (example px) lies inside the content quad grown by `share` of its height. */
export function inContent(content: Quad, x: number, y: number, share = 0.35): boolean {
  return insideConvex(grow(content, share), x, y);
}

/** The part of the example that is the logo (`content`, example pixels) where `outline` shows the whole example. */
export function contentIn(outline: Quad, ex: { width: number; height: number; content?: Quad }): Quad {
  if (!ex.content) return outline;
  const H = quadToQuad([0, 0, ex.width, 0, ex.width, ex.height, 0, ex.height], outline);
  if (!H) return outline;
  const out: number[] = [];
  for (let k = 0; k < 4; k++) out.push(...applyH(H, ex.content[k * 2], ex.content[k * 2 + 1]));
  return out.every(Number.isFinite) ? out : outline;
}

/**
 * The logo a hit shows, where the hit placed its example: the part a route found (see
 * `FrameHit.part`), else the example's content, else the whole example.
 */
export function hitLogo(
  hit: { quad: Quad; part?: Quad },
  ex: { width: number; height: number; content?: Quad },
): Quad {
  return contentIn(hit.quad, hit.part ? { ...ex, content: hit.part } : ex);
}

/** Rows of edges next to the crop's border, as a share of the line's own, that make a strip cut. */
const CUT_SHARE = 0.7;

/**
 * Whether a point lies in a strip above or below the example's main line that the crop cuts: the
 * next board's row (or the ground) sliced off by the example's upper or lower border, thinner than
 * a line, whose strokes run into that border. Such a scrap is no part of the logo, however sharp
 * the footage shows it (its edges grew with the resolution and decided the content before).
 * A frame or a mark above or below the words stays: it ends inside the image, so no strokes cross
 * the border next to it, or it is as tall as a line.
 */
function cutStrips(grey: Float32Array, w: number, h: number, q: number[]): (x: number, y: number) => boolean {
  const lineH = (Math.hypot(q[6] - q[0], q[7] - q[1]) + Math.hypot(q[4] - q[2], q[5] - q[3])) / 2;
  const g = grow(q, LINE_MARGIN);
  const x0 = Math.max(2, Math.ceil(Math.max(g[0], g[6])));
  const x1 = Math.min(w - 3, Math.floor(Math.min(g[2], g[4])));
  // (an example too thin for bands of rows at its borders has no strip to leave out)
  if (x1 <= x0 || lineH <= 0 || h < 12) return () => false;
  const at = (ax: number, ay: number, bx: number, by: number, x: number) =>
    Math.abs(bx - ax) < 1e-6 ? (ay + by) / 2 : ay + ((x - ax) * (by - ay)) / (bx - ax);
  const top = (x: number) => at(g[0], g[1], g[2], g[3], x);
  const bottom = (x: number) => at(g[6], g[7], g[4], g[5], x);
  // strokes crossing a row: the gradient along it, per pixel
  const along = (y: number) => {
    let s = 0;
    for (let x = x0; x <= x1; x++) s += Math.abs(grey[y * w + x + 1] - grey[y * w + x - 1]);
    return s / (x1 - x0 + 1);
  };
  let own = 0;
  let n = 0;
  for (let x = x0; x <= x1; x++) {
    for (let y = Math.max(2, Math.ceil(top(x))); y <= Math.min(h - 3, bottom(x)); y++) {
      own += Math.abs(grey[y * w + x + 1] - grey[y * w + x - 1]);
      n++;
    }
  }
  if (n === 0 || own === 0) return () => false;
  own /= n;
  const band = (ys: number[]) => ys.reduce((s, y) => s + along(y), 0) / ys.length / own;
  const topCut = band([2, 3, 4]) >= CUT_SHARE;
  const bottomCut = band([h - 5, h - 4, h - 3]) >= CUT_SHARE;
  return (x, y) => {
    if (x < x0 || x > x1 + 1) return false;
    const t = top(x);
    const b = bottom(x);
    return (topCut && y < t && t < lineH) || (bottomCut && y > b && h - b < lineH);
  };
}

/** A line's quad grown by `share` of its height on every side, along its own axes. */
function grow(q: number[], share: number): Quad {
  const len = (ax: number, ay: number) => Math.hypot(ax, ay) || 1;
  const ux = (q[2] - q[0]) / len(q[2] - q[0], q[3] - q[1]);
  const uy = (q[3] - q[1]) / len(q[2] - q[0], q[3] - q[1]);
  const vx = (q[6] - q[0]) / len(q[6] - q[0], q[7] - q[1]);
  const vy = (q[7] - q[1]) / len(q[6] - q[0], q[7] - q[1]);
  const d = share * Math.hypot(q[6] - q[0], q[7] - q[1]);
  const signs = [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1],
  ];
  return signs.flatMap(([su, sv], k) => [
    q[k * 2] + d * (su * ux + sv * vx),
    q[k * 2 + 1] + d * (su * uy + sv * vy),
  ]);
}

/** Whether a point lies inside a convex quad (either winding). */
function insideConvex(q: Quad, x: number, y: number): boolean {
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const ax = q[k * 2];
    const ay = q[k * 2 + 1];
    const bx = q[((k + 1) % 4) * 2];
    const by = q[((k + 1) % 4) * 2 + 1];
    const c = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    if (c === 0) continue;
    if (sign === 0) sign = Math.sign(c);
    else if (Math.sign(c) !== sign) return false;
  }
  return true;
}

function clip(q: number[], w: number, h: number): Quad {
  return q.map((v, i) => Math.min(i % 2 === 0 ? w : h, Math.max(0, v)));
}
