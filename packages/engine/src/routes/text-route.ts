import { appearance, polishCorners } from '../appearance.ts';
import { hitLogo } from '../content.ts';
import { isConvexClockwise, projectRect, quadIoU, quadToQuad, type Quad } from '../geometry.ts';
import { plausible, trace, type FrameHit } from '../hits.ts';
import { readText, regionRgb, type TextLine } from '../ocr.ts';
import { matchText, MIN_MATCH, normaliseText } from '../text-match.ts';
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
/** The pixels must agree at least this much with a text-placed logo... */
const MIN_CORRELATION = 0.3;
/** ...unless the words alone are this sure (long and read almost exactly). */
const SURE_TEXT = 0.9;
/** Overlap of logo outlines at which a hit of the brand already found is this line's logo. */
const ALIGNED = 0.5;

export const textRoute: Route = {
  name: 'text',
  enabled: (opts) => opts.textRoute,
  async propose({ frame, index, opts, found, seq }: RouteInput): Promise<FrameHit[]> {
    if (((seq ?? 0) + opts.textPhase) % Math.max(1, opts.textEvery) !== 0) return [];
    if (!index.examples.some((e) => e.text.length > 0)) return [];
    // lines found at most textSide px on the long side, and read on the frame's own pixels
    const rgb = regionRgb(frame, 0, 0, frame.width, frame.height);
    const lines: TextLine[] = rgb
      ? await readText(rgb, { maxSide: opts.textSide, maxLines: MAX_LINES, minHeight: 6 })
      : [];
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
