/**
 * Matching text read by OCR against a brand's words: normalising what OCR confuses, and aligning
 * an example's text with a line read in a frame (used by the text route, the word check and the
 * examples' content).
 */

/**
 * A letter of another script read in a line, kept as an unknown character that agrees with none:
 * PP-OCRv4 reads some stylised Latin glyphs as a Chinese character (the 1X of the 1XBET logo as
 * 仪), and dropping it would shorten the line.
 */
export const UNKNOWN = '#';

/** Fewest matched characters that can place a logo. */
export const MIN_MATCH = 4;
/** Least share of characters that agree over the matched span (OCR confuses a few). */
export const MIN_SIMILARITY = 0.75;

/** Text reduced to what OCR reads reliably: upper-case letters and digits, look-alikes merged. */
export function normaliseText(s: string): { text: string } {
  const text = s
    .normalize('NFKD')
    .toUpperCase()
    // everything but letters and digits goes (accents' marks, punctuation, a '#' that OCR read),
    // then what is left beyond A-Z and 0-9 is a letter of another script: an unknown character
    .replace(/[^\p{L}0-9]/gu, '')
    .replace(/[^A-Z0-9]/gu, UNKNOWN)
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
      const sub = prevD[j - 1] + (p[i - 1] === t[j - 1] && p[i - 1] !== UNKNOWN ? 0 : 1);
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
