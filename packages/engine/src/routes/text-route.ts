import { appearance, polishCorners } from '../appearance.ts';
import type { GrayImage } from '../features.ts';
import { isConvexClockwise, projectRect, quadIoU, quadToQuad, type Quad } from '../geometry.ts';
import { plausible, trace, type FrameHit } from '../hits.ts';
import { readText, regionRgb, type RgbImage, type TextLine } from '../ocr.ts';
import type { Route, RouteInput } from './route.ts';

/**
 * The text route, for wordmarks: sponsor boards, shirts and overlays are mostly words, and their
 * letters look alike to keypoints (one typeface on every board of a stadium). PP-OCRv4 reads the
 * lines of text in the frame (ocr.ts); a line that reads as a line of an example's text places
 * the example through the correspondence of the two lines (the matched characters' share of each
 * line), and the pixels then check and polish the quad as for any other route. Reading is costly
 * (a few hundred ms a frame), so it runs on every `textEvery`-th sample and tracking carries its
 * hits between.
 */

/** Lines read per frame, largest first. */
const MAX_LINES = 16;
/** Fewest matched characters that can place a logo. */
const MIN_MATCH = 4;
/** Least share of characters that agree over the matched span (OCR confuses a few). */
const MIN_SIMILARITY = 0.75;
/** The pixels must agree at least this much with a text-placed logo... */
const MIN_CORRELATION = 0.3;
/** ...unless the words alone are this sure (long and read almost exactly). */
const SURE_TEXT = 0.9;

export const textRoute: Route = {
  name: 'text',
  enabled: (opts) => opts.textRoute,
  async propose({ frame, index, opts, found, seq }: RouteInput): Promise<FrameHit[]> {
    if ((seq ?? 0) % Math.max(1, opts.textEvery) !== 0) return [];
    if (!index.examples.some((e) => e.text.length > 0)) return [];
    const { rgb, scale } = frameRgb(frame, opts.textSide);
    const lines = (await readText(rgb, { maxSide: opts.textSide, maxLines: MAX_LINES, minHeight: 6 })).map(
      (l): TextLine => ({ ...l, quad: l.quad.map((v) => v * scale) }),
    );
    const hits: FrameHit[] = [];
    for (const line of lines) {
      const seen = normaliseText(line.text);
      if (seen.text.length < MIN_MATCH) continue;
      let best: { hit: FrameHit; sure: number } | null = null;
      for (let example = 0; example < index.examples.length; example++) {
        const ex = index.examples[example];
        for (const t of ex.text) {
          const want = normaliseText(t.text);
          const m = matchText(want, seen);
          if (!m) continue;
          const quad = placeExample(
            { quad: t.quad, length: want.text.length, span: m.example },
            { quad: line.quad, length: seen.text.length, span: m.seen },
            ex,
          );
          if (!quad || !plausible(quad, ex, frame)) continue;
          if (found.some((h) => h.brand === ex.brand && quadIoU(h.quad, quad) > 0.3)) continue;
          const ncc0 = appearance(frame, quad, ex, true);
          const p = polishCorners(frame, quad, ex, ncc0, 20);
          const pixelsAgree =
            p.ncc >= MIN_CORRELATION && isConvexClockwise(p.quad) && plausible(p.quad, ex, frame);
          const sure = m.score;
          if (!pixelsAgree && sure < SURE_TEXT) {
            trace.lost?.(example, 'text appearance', p.ncc, p.quad);
            continue;
          }
          const q = pixelsAgree ? p.quad : quad;
          const ncc = pixelsAgree ? p.ncc : ncc0;
          const score = 0.75 * sure * Math.min(1, 0.6 + Math.max(0, ncc));
          if (!best || score > best.hit.score)
            best = { hit: { brand: ex.brand, example, quad: q, inliers: 0, score, ncc }, sure };
        }
      }
      const b = best?.hit;
      if (b && !hits.some((h) => h.brand === b.brand && quadIoU(h.quad, b.quad) > 0.3)) hits.push(b);
    }
    return hits;
  },
};

/** Text reduced to what OCR reads reliably: upper-case letters and digits, look-alikes merged. */
export function normaliseText(s: string): { text: string } {
  const text = s
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL|]/g, '1');
  return { text };
}

/** Where two texts agree: character spans [from, to) in each, and a 0..1 score. */
export interface TextMatch {
  example: [number, number];
  seen: [number, number];
  score: number;
}

/**
 * The best match between an example's text and a line read in a frame: the example's text
 * inside the line (a board with more words), or part of the example's text as the whole line
 * (a board half in view), by edit distance over the span. Score: the share of agreeing
 * characters, discounted for short matches (a 4-letter match is weaker evidence than 10).
 */
export function matchText(example: { text: string }, seen: { text: string }): TextMatch | null {
  const a = inside(example.text, seen.text);
  const b = inside(seen.text, example.text);
  const cands: TextMatch[] = [];
  if (a) cands.push({ example: [0, example.text.length], seen: a.span, score: a.similarity });
  if (b) cands.push({ example: b.span, seen: [0, seen.text.length], score: b.similarity });
  let best: TextMatch | null = null;
  for (const c of cands) {
    const len = Math.min(c.example[1] - c.example[0], c.seen[1] - c.seen[0]);
    if (len < MIN_MATCH || c.score < MIN_SIMILARITY) continue;
    const score = c.score * Math.min(1, 0.5 + len / 16);
    if (!best || score > best.score) best = { ...c, score };
  }
  return best;
}

/**
 * How well a line read in a frame agrees with a line of an example's text (both normalised), 0..1:
 * the share of agreeing characters where one lies inside the other (edit distance over the span),
 * counted only where the agreeing span holds at least `minChars` characters and covers most of the
 * line read (a short word agreeing with a corner of a long line is no reading of it).
 */
export function textAgreement(example: string, seen: string, minChars: number): number {
  let best = 0;
  const a = inside(example, seen);
  // the example's words inside the line read: they must cover most of it
  if (a && example.length >= minChars && a.span[1] - a.span[0] >= 0.6 * seen.length)
    best = Math.max(best, a.similarity);
  // the line read inside the example's words (part of the line in view, or read partly)
  const b = inside(seen, example);
  if (b && seen.length >= minChars && b.span[1] - b.span[0] >= minChars) best = Math.max(best, b.similarity);
  return best;
}

/** Semi-global alignment: `p` anywhere inside `t`; the span of `t` and 1 - distance / |p|. */
function inside(p: string, t: string): { span: [number, number]; similarity: number } | null {
  const m = p.length;
  const n = t.length;
  if (m === 0 || n === 0) return null;
  // D[i][j]: cost of p[0..i) ending at t[j]; S[i][j]: where in t that alignment started
  let prevD = new Array<number>(n + 1).fill(0);
  let prevS = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const D = new Array<number>(n + 1);
    const S = new Array<number>(n + 1);
    D[0] = i;
    S[0] = 0;
    for (let j = 1; j <= n; j++) {
      const sub = prevD[j - 1] + (p[i - 1] === t[j - 1] ? 0 : 1);
      const del = prevD[j] + 1;
      const ins = D[j - 1] + 1;
      if (sub <= del && sub <= ins) {
        D[j] = sub;
        S[j] = prevS[j - 1];
      } else if (del <= ins) {
        D[j] = del;
        S[j] = prevS[j];
      } else {
        D[j] = ins;
        S[j] = S[j - 1];
      }
    }
    prevD = D;
    prevS = S;
  }
  let end = 1;
  for (let j = 1; j <= n; j++) if (prevD[j] < prevD[end]) end = j;
  return { span: [prevS[end], end], similarity: 1 - prevD[end] / m };
}

/** The part of a line's quad between two fractions of its length (along its reading direction). */
function part(q: Quad, from: number, to: number): Quad {
  const at = (f: number, a: number, b: number) => [
    q[a] + f * (q[b] - q[a]),
    q[a + 1] + f * (q[b + 1] - q[a + 1]),
  ];
  return [...at(from, 0, 2), ...at(to, 0, 2), ...at(to, 6, 4), ...at(from, 6, 4)];
}

/**
 * The example placed in the frame: the homography that takes the matched part of the example's
 * line onto the matched part of the frame's line (character spans as shares of each line's
 * normalised length), applied to the example's outline.
 */
function placeExample(
  exampleLine: { quad: number[]; length: number; span: [number, number] },
  frameLine: { quad: Quad; length: number; span: [number, number] },
  ex: { width: number; height: number },
): Quad | null {
  const from = (l: typeof exampleLine) => part(l.quad, l.span[0] / l.length, l.span[1] / l.length);
  const H = quadToQuad(from(exampleLine), from(frameLine));
  if (!H) return null;
  const quad = projectRect(H, ex.width, ex.height);
  return quad.every(Number.isFinite) ? quad : null;
}

/** The frame as RGB at most `side` px on its long side, and the factor back to frame pixels. */
function frameRgb(frame: GrayImage, side: number): { rgb: RgbImage; scale: number } {
  const step = Math.max(1, Math.floor(Math.max(frame.width, frame.height) / side));
  const w = Math.floor(frame.width / step);
  const h = Math.floor(frame.height / step);
  return {
    rgb: regionRgb(frame, 0, 0, w, h, step) ?? { width: 0, height: 0, data: new Uint8Array(0) },
    scale: step,
  };
}
