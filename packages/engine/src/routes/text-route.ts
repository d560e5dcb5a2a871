import { appearance, polishCorners } from '../appearance.ts';
import { hitLogo } from '../content.ts';
import { isConvexClockwise, nearEdge, projectRect, quadIoU, quadToQuad, type Quad } from '../geometry.ts';
import { EDGE_INSIDE, plausible, SAME_INSTANCE, trace, type FrameHit } from '../hits.ts';
import { readText, regionRgb, type TextLine } from '../ocr.ts';
import { matchText, MIN_MATCH, normaliseText, type TextMatch } from '../text-match.ts';
import { onSchedule, type Route, type RouteInput } from './route.ts';

/**
 * The text route, for wordmarks: sponsor boards, shirts and overlays are mostly words, and their
 * letters look alike to keypoints (one typeface on every board of a stadium). PP-OCRv4 reads the
 * lines of text in the frame (ocr.ts); a line that reads as a line of an example's text places
 * the example through the correspondence of the two lines (the matched characters' share of each
 * line), and the pixels then check and polish the quad as for any other route. Reading is costly
 * (a few hundred ms a frame), so it runs on every `textEvery`-th sample and tracking carries its
 * hits between, and on the analysed span's last sample: words that show only after the last
 * scheduled reading (LED boards switching to another sponsor in a clip's last 2 s) have no later
 * reading to find them and be followed back from. That is one reading more per video or chunk; on
 * the real set's five runs (engine 0.35.0) it found 3 boards more, at the Serie A clip's end.
 */

/** Lines read per frame, largest first. */
const MAX_LINES = 16;
/** The pixels must agree at least this much with a text-placed logo... */
const MIN_CORRELATION = 0.3;
/** ...unless the words alone are this sure (long and read almost exactly). */
const SURE_TEXT = 0.9;
/** A brand whose words read better than another's over the same characters by this much is theirs. */
const RIVAL_MARGIN = 0.05;
/** Overlap of logo outlines at which a hit of the brand already found is this line's logo. */
const ALIGNED = 0.5;
/**
 * A line read within this many frame pixels of the frame's edge is cut by it (not ocr.ts's
 * EDGE_NEAR, which picks the lines found on DBNet's margin).
 */
const CUT_BY_EDGE = 4;

export const textRoute: Route = {
  name: 'text',
  enabled: (opts) => opts.textRoute,
  async propose({ frame, index, opts, found, seq, last }: RouteInput): Promise<FrameHit[]> {
    if (!onSchedule({ seq, last }, opts.textEvery, opts.textPhase)) return [];
    if (!index.examples.some((e) => e.text.length > 0)) return [];
    // lines found at most textSide px on the long side, and read on the frame's own pixels
    const rgb = regionRgb(frame, 0, 0, frame.width, frame.height);
    const lines: TextLine[] = rgb
      ? await readText(rgb, {
          maxSide: opts.textSide,
          maxLines: MAX_LINES,
          minHeight: 6,
          edges: opts.textEdges,
        })
      : [];
    const hits: FrameHit[] = [];
    for (const line of lines) {
      const seen = normaliseText(line.text);
      // A line may hold a brand's words more than once (two boards side by side read as one
      // line, "XBET XBET"): once a part of it places a logo, or reads best as some example's
      // words where no logo is placed (one found already), the parts on either side are read
      // for another. A part placing a logo over one that the line placed already is not another.
      const placed: FrameHit[] = [];
      const parts: [number, number][] = [[0, seen.text.length]];
      for (let next = parts.pop(); next; next = parts.pop()) {
        const [from, to] = next;
        if (to - from < MIN_MATCH) continue;
        const { hit, span } = placeLine(frame, index, found, line.quad, seen.text, from, to);
        if (!span) continue;
        parts.push([from, span[0]], [span[1], to]);
        if (!hit || placed.some((h) => quadIoU(h.quad, hit.quad) > SAME_INSTANCE)) continue;
        placed.push(hit);
        if (!hits.some((h) => h.brand === hit.brand && quadIoU(h.quad, hit.quad) > SAME_INSTANCE))
          hits.push(hit);
      }
    }
    return hits;
  },
};

/**
 * The best placed example for the characters [from, to) of a line read in the frame (normalised
 * text `seen`, whose quad spans all of it), and the characters of the line that placed it; where
 * no example is placed (`hit` null), the characters that read best as some example's words (null
 * where none does).
 */
function placeLine(
  frame: RouteInput['frame'],
  index: RouteInput['index'],
  found: RouteInput['found'],
  lineQuad: Quad,
  seen: string,
  from: number,
  to: number,
): { hit: FrameHit | null; span: [number, number] | null } {
  let best: { hit: FrameHit; span: [number, number] } | null = null;
  const reads: (BrandReading & {
    example: number;
    t: { text: string; quad: number[] };
    want: string;
    m: TextMatch;
  })[] = [];
  for (let example = 0; example < index.examples.length; example++)
    for (const t of index.examples[example].text) {
      const want = normaliseText(t.text).text;
      const m = matchText({ text: want }, { text: seen.slice(from, to) });
      if (!m) continue;
      const span: [number, number] = [from + m.seen[0], from + m.seen[1]];
      reads.push({ example, t, want, m, span, brand: index.examples[example].brand, score: m.score });
    }
  // a board that the frame's edge cuts: its words read there, the rest of its logo is beyond it
  const inside = nearEdge(lineQuad, frame.width, frame.height, CUT_BY_EDGE) ? EDGE_INSIDE : undefined;
  for (const r of reads) {
    const { example, t, want, m, span } = r;
    const ex = index.examples[example];
    // Words that read clearly better as another brand's words over the same characters are
    // that brand's: boards that share a word (INTER of IM INTER CLUB and INTER ACADEMY) read
    // in part must not place the brand that the rest of the words would not.
    if (outread(r, reads)) continue;
    const quad = placeExample(
      { quad: t.quad, length: want.length, span: m.example },
      { quad: lineQuad, length: seen.length, span },
      ex,
    );
    if (!quad || !plausible(quad, ex, frame, inside)) continue;
    // A hit of the brand already placed here stands only if it holds these words: a fit
    // that slipped a row on a board whose rows share letters overlaps them without it.
    const logo = hitLogo({ quad }, ex);
    if (
      found.some(
        (h) => h.brand === ex.brand && quadIoU(hitLogo(h, index.examples[h.example]), logo) > ALIGNED,
      )
    )
      continue;
    const ncc0 = appearance(frame, quad, ex, true);
    const p = polishCorners(frame, quad, ex, ncc0, 20);
    const pixelsAgree =
      p.ncc >= MIN_CORRELATION && isConvexClockwise(p.quad) && plausible(p.quad, ex, frame, inside);
    const sure = m.score;
    if (!pixelsAgree && sure < SURE_TEXT) {
      trace.lost?.(example, 'text appearance', p.ncc, p.quad);
      continue;
    }
    const q = pixelsAgree ? p.quad : quad;
    const ncc = pixelsAgree ? p.ncc : ncc0;
    const score = 0.75 * sure * Math.min(1, 0.6 + Math.max(0, ncc));
    if (!best || score > best.hit.score)
      best = { hit: { brand: ex.brand, example, quad: q, inliers: 0, score, ncc }, span };
  }
  // where nothing is placed, the characters that read best as some example's words
  const read = reads.reduce<(typeof reads)[number] | null>((a, r) => (!a || r.score > a.score ? r : a), null);
  return best ?? { hit: null, span: read?.span ?? null };
}

/** A reading of characters of a line as a brand's words: its text score and character span. */
export interface BrandReading {
  brand: number;
  score: number;
  span: [number, number];
}

/**
 * Whether another brand's words read better than `read`'s, by more than {@link RIVAL_MARGIN}, over
 * most of the same characters (`reads`: every example's reading of the line's part).
 */
export function outread(read: BrandReading, reads: BrandReading[]): boolean {
  const [from, to] = read.span;
  return reads.some(
    (r) =>
      r.brand !== read.brand &&
      r.score > read.score + RIVAL_MARGIN &&
      Math.min(r.span[1], to) - Math.max(r.span[0], from) > (to - from) / 2,
  );
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
export function placeExample(
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
