import { appearance, exampleFromFrame, polishCorners, type ThumbExample } from './appearance.ts';
import type { GrayImage } from './features.ts';
import { applyH, clipToFrame, isConvexClockwise, quadIoU, quadToQuad, sides, type Quad } from './geometry.ts';
import { DEFAULT_DETECTOR, plausible, SAME_INSTANCE, type FrameHit, type Reading } from './hits.ts';
import { recognize, regionRgb } from './ocr.ts';
import { placeExample } from './routes/text-route.ts';
import { matchText, MIN_MATCH, normaliseText, textAgreement } from './text-match.ts';

/**
 * The words check: a wordmark placed by its pixels (keypoints, colour) is read where its words
 * should stand, and dropped when they read as another brand's words and not as its own.
 *
 * Boards of one stadium share a typeface and often words, so a keypoint fit can take one board
 * for another: a two-row board's OVUNQUE, SEMPRE, NERAZZURRI example laid over its EVERYWHERE,
 * ALWAYS, NERAZZURRI row (they share NERAZZURRI, and the rows' pixels correlate with either
 * example about alike), or JOIN THE FAMILY laid over the EVERYWHERE row next to it. What tells
 * them apart is what the words say. The hit's example's text lines (read at activation, see
 * brand-index.ts) are carried into the frame by the hit's own placement and read there (PP-OCRv4
 * recognition only, one line at a time, no detection pass); a hit is dropped when a line reads as
 * a line of another active brand clearly better than as any line of its own brand, and no line
 * reads as its own. Blurred or tiny words that read as nothing in particular leave the hit alone.
 * What the words said is kept with the hit (`words`): the tracks use it too (see
 * tracker.ts's `wordsAgainst`, and analyze.ts's follow back, which stops where the words read as
 * no character at all).
 *
 * Reading costs 10-50 ms a line, so a clear verdict (own or rival) is kept for the place it was
 * given at (carried with the camera's motion, or fixed on screen for an overlay) for
 * {@link MEMORY_MS}: a board or a score bug seen again at the same place is not read again in
 * every sample. A reading that settles nothing is not kept: the next sample may be sharper. Nor
 * does a verdict hold once the place no longer looks as it did when it was read
 * ({@link SAME_LOOK}): an LED board shows another sponsor every few seconds, and a track that
 * followed the board through the change would otherwise keep its words' verdict for the next one.
 * An LED board that changes to another sponsor in the same typeface on the same colours may still
 * look as it did, so a rival verdict does not hold against the detector's own hit of the brand at
 * the place: the words are read again, and a reading as the brand's own overturns it (on the real
 * set at CRF 18, an INTER ACADEMY board at the Serie A clip's end, read as JOIN THE FAMILY half a
 * second earlier; engine 0.38.0).
 */

/** A verdict holds this long for hits of its brand at its place. */
const MEMORY_MS = 1000;
/** A hit at a remembered place: overlap with the remembered quad (after the camera's motion). */
const SAME_PLACE = 0.5;
/**
 * ...and its pixels' correlation with what the place showed when it was read, under which the
 * place is read again (an LED board changed what it shows; or a pan blurred it, and a reading
 * costs only time).
 */
const SAME_LOOK = 0.5;
/** Lines shorter than this (frame px, the line's height) are not read: nothing reliable comes of them. */
const MIN_LINE_HEIGHT = 7;
/** A line must lie this far inside the frame (px) to be read whole... */
const EDGE = 2;
/**
 * ...else the part of it in view is read, if that is at least this share of its length (0.4 until
 * engine 0.45.0: a row that the frame's edge cuts to its first word, "EVERYWHE" of a 26-letter
 * row, shows 28 % of it, and its track could not be carried by its words).
 */
const IN_VIEW = 0.2;
/**
 * Fewest characters of agreement that count as reading a brand's words; a brand's line shorter
 * than this is read in full, down to the text route's {@link MIN_MATCH} (see {@link minChars}).
 */
const MIN_CHARS = 5;
/**
 * A line reads as a brand's line at this agreement or more (share of agreeing characters)... At
 * 0.6 an INTER ACADEMY board at the Serie A clip's end, read "HTERADE" under a keypoint hit of
 * Inter Club (0.00 for Inter Club, 0.57 for Inter Academy), said nothing, and the hit made a false
 * track; 0.55 also removes others on the real set and loses no true detection (engine 0.27.0).
 */
const READS_AS = 0.55;
/** ...and as a rival's rather than its own when the rival's agreement beats its own's by this much. */
const MARGIN = 0.25;
/** A line that agrees this well with its own brand's words confirms the hit whatever else it reads. */
const OWN_SURE = 0.75;
/** A line read as a rival's words places the rival's logo (see `asRival`) when it agrees this well. */
const RIVAL_SURE = 0.75;
/**
 * A line read at this mean character probability or more (PP-OCRv4's, see ocr.ts `recognize`)...
 */
const FOREIGN_SURE = 0.85;
/**
 * ...into this many characters or more, agreeing with no brand's words ({@link READS_AS}), reads
 * as words of no brand in the catalogue (`foreign`). Shorter lines agree with a brand's words by
 * chance too often to tell (unrelated words of 8-13 letters agree 0.25-0.44 with INTER ACADEMY).
 */
const FOREIGN_CHARS = 8;

interface Line {
  brand: number;
  text: string;
}

/** A line read clearly as another brand's words: where it stands (frame px), what it read, whose. */
interface RivalLine {
  line: Quad;
  seen: string;
  brand: number;
  agreement: number;
}

interface Verdict {
  brand: number;
  /** where the hit was, carried with the camera's motion since (a board) */
  quad: Quad;
  /** where it was on screen (an overlay stays there) */
  screen: Quad;
  reading: 'own' | 'rival';
  timeMs: number;
  /** what the place showed when it was read (null when too little of it was in the frame) */
  look: ThumbExample | null;
}

/** The words of the brands' examples, as the check needs them. */
export interface WordExample {
  brand: number;
  width: number;
  height: number;
  text: { text: string; quad: number[] }[];
}

export class WordCheck {
  private readonly lines: Line[];
  private memory: Verdict[] = [];
  /** the frame (its time) that the memory stands for */
  private at = NaN;
  /** the line that the last {@link read} read as another brand's, if any */
  private rivalRead: RivalLine | null = null;
  /** what each hit read as a rival's words, for {@link keptOrMoved} (by the hit given to {@link readings}) */
  private readonly rivalOf = new WeakMap<FrameHit, RivalLine>();

  /**
   * `examples`: every example by its global number (as hits name them); `thumbs`, the same
   * examples' thumbnails, let a hit whose words read clearly as another brand's be placed as that
   * brand's (see {@link asRival}).
   */
  constructor(
    private readonly examples: readonly WordExample[],
    private readonly thumbs: readonly ThumbExample[] = [],
  ) {
    this.lines = examples.flatMap((e) =>
      e.text.map((t) => ({ brand: e.brand, text: normaliseText(t.text).text })),
    );
  }

  /** Whether an example (its global number) has words to read. */
  hasWords(example: number): boolean {
    return (this.examples[example]?.text.length ?? 0) > 0;
  }

  /**
   * How well a line read in a frame (normalised text) agrees with the words of `brand`'s examples
   * (`own`) and with the best of the other brands' (`other`, whose brand is `rival`, -1 for none),
   * as shares of agreeing characters.
   */
  agreement(seen: string, brand: number): { own: number; other: number; rival: number } {
    let own = 0;
    let other = 0;
    let rival = -1;
    for (const l of this.lines) {
      const a = textAgreement(l.text, seen, minChars(l.text));
      if (l.brand === brand) own = Math.max(own, a);
      else if (a > other) {
        other = a;
        rival = l.brand;
      }
    }
    return { own, other, rival };
  }

  /** Whether there is anything to check at all (some example has words). */
  get active(): boolean {
    return this.lines.length > 0;
  }

  /**
   * The hits without those whose words read as another brand's (moved to their own row where they
   * have one, see {@link onOwnRow}). Quads are in input pixels, `scale` times the frame's
   * (analysis) pixels. `shift` is the camera's motion into this frame (input pixels), or null after
   * a cut (nothing remembered carries over).
   */
  async check(
    frame: GrayImage,
    hits: FrameHit[],
    timeMs: number,
    shift: [number, number] | null,
    scale: [number, number] = [1, 1],
  ): Promise<FrameHit[]> {
    const read = await this.readings(frame, hits, timeMs, shift, scale);
    return (await this.keptOrMoved(frame, hits, read, scale)).filter((h) => h !== null);
  }

  /**
   * Each hit with what its words read as (`readings`, see {@link readings}); one whose words read as
   * another brand's moved to its own row (see {@link onOwnRow}), or null where it has none there or
   * a hit of its brand (among `hits` and `others`) stands there already.
   */
  async keptOrMoved(
    frame: GrayImage,
    hits: FrameHit[],
    readings: (Reading | undefined)[],
    scale: [number, number],
    others: FrameHit[] = [],
  ): Promise<(FrameHit | null)[]> {
    const out: (FrameHit | null)[] = [];
    for (const [i, h] of hits.entries()) {
      if (readings[i] !== 'rival') {
        out.push({ ...h, words: readings[i] });
        continue;
      }
      const moved = await this.onOwnRow(frame, h, scale);
      const taken = (m: FrameHit) =>
        [...hits, ...others, ...out].some(
          (o) => o !== null && o !== h && o.brand === m.brand && quadIoU(o.quad, m.quad) > SAME_INSTANCE,
        );
      if (moved && !taken(moved)) {
        out.push(moved);
        continue;
      }
      const rival = this.rivalOf.get(h);
      const other = rival ? this.asRival(frame, rival, scale) : null;
      out.push(other && !taken(other) ? other : null);
    }
    return out;
  }

  /**
   * The rival brand's logo where a hit's words read clearly as that brand's: its example placed by
   * the line read (the text route's placement, see `placeExample`), kept where the pixels agree
   * with the example about as well as the detector asks of any hit. Null where no example of
   * that brand places or agrees. Quads in input pixels, `scale` times the frame's.
   *
   * Boards of one club share a word and a typeface: on the Serie A clip keypoints lay the OVUNQUE
   * row's example over the EVERYWHERE row of a two-row board (or an IM INTER CLUB example over an
   * INTER ACADEMY board, whose words read "KTERACADE"). Dropping the fit left the row missed where
   * its own brand's fit did not find it; the words say whose row it is. On the real set's five runs
   * this found 6 more boards, most of them such rows (bench/engine/RESULTS.md, engine 0.31.0).
   */
  asRival(frame: GrayImage, rival: RivalLine, scale: [number, number] = [1, 1]): FrameHit | null {
    if (rival.agreement < RIVAL_SURE) return null;
    let best: FrameHit | null = null;
    for (const [example, ex] of this.examples.entries()) {
      const thumb = this.thumbs[example];
      if (ex.brand !== rival.brand || !thumb) continue;
      for (const t of ex.text) {
        const want = normaliseText(t.text);
        const m = matchText(want, { text: rival.seen });
        if (!m) continue;
        const quad = placeExample(
          { quad: t.quad, length: want.text.length, span: m.example },
          { quad: rival.line, length: rival.seen.length, span: m.seen },
          ex,
        );
        if (!quad || !plausible(quad, thumb, frame)) continue;
        const p = polishCorners(frame, quad, thumb, appearance(frame, quad, thumb, true), 20);
        if (
          p.ncc < DEFAULT_DETECTOR.minCorrelation ||
          !isConvexClockwise(p.quad) ||
          !plausible(p.quad, thumb, frame)
        )
          continue;
        const score = 0.75 * m.score * Math.min(1, 0.6 + p.ncc);
        if (!best || score > best.score)
          best = {
            brand: ex.brand,
            example,
            quad: p.quad.map((v, i) => v * scale[i % 2]),
            inliers: 0,
            score,
            ncc: p.ncc,
            route: 'words',
            words: 'own',
          };
      }
    }
    return best;
  }

  /**
   * A hit whose words read as another brand's, moved one row of its words up or down to where they
   * read as its own (null where neither does). Quads in input pixels, `scale` times the frame's.
   *
   * A stadium's two-row LED boards show two brands' lines one above the other, in one typeface and
   * often with a word in common (EVERYWHERE, ALWAYS, NERAZZURRI over OVUNQUE, SEMPRE, NERAZZURRI on
   * the Serie A clip), and the rows swap from one moment to the next. Keypoints on the shared word
   * fit either row, and on the real set at 720p each brand's fit landed on the other's row for
   * seconds on end: the words check dropped both, and both rows were missed.
   */
  async onOwnRow(frame: GrayImage, h: FrameHit, scale: [number, number] = [1, 1]): Promise<FrameHit | null> {
    const quad = h.quad.map((v, i) => v / scale[i % 2]);
    const q = linesInFrame(this.examples[h.example], quad)?.[0];
    if (!q) return null;
    // a row's height in the frame: the mean of the line's left and right sides
    const down = [(q[6] - q[0] + q[4] - q[2]) / 2, (q[7] - q[1] + q[5] - q[3]) / 2];
    for (const d of [1, -1]) {
      const moved = quad.map((v, i) => v + d * down[i % 2]);
      if ((await this.read(frame, { ...h, quad: moved }, true)) !== 'own') continue;
      return { ...h, quad: moved.map((v, i) => v * scale[i % 2]), words: 'own' };
    }
    return null;
  }

  /**
   * What each hit's words say (see {@link read}), as {@link check} decides by it. A hit at a place
   * whose words were read in the last {@link MEMORY_MS} gets that place's reading without reading
   * again. Only what was read clearly (`own` or `rival`) is remembered: a line blurred by a pan is
   * read again in the next sample, when the camera may have steadied (remembering `unsure` let a
   * one-row-off fit of a two-row board through for a second after a blurred frame).
   */
  async readings(
    frame: GrayImage,
    hits: FrameHit[],
    timeMs: number,
    shift: [number, number] | null,
    scale: [number, number] = [1, 1],
  ): Promise<(Reading | undefined)[]> {
    if (!this.active) return hits.map(() => undefined);
    // the first call for a frame carries what is remembered into it (a frame may be checked twice:
    // its detections, then its tracks' follows)
    if (timeMs !== this.at) {
      this.at = timeMs;
      this.memory = shift
        ? this.memory
            .filter((v) => timeMs - v.timeMs < MEMORY_MS)
            .map((v) => ({ ...v, quad: v.quad.map((c, i) => c + shift[i % 2]) }))
        : [];
    }
    const out: (Reading | undefined)[] = [];
    for (const h of hits) {
      // a text hit was placed by its words; a follow of one may have slid off them
      if ((h.route === 'text' && !h.followed) || !this.hasWords(h.example)) {
        out.push(h.route === 'text' && !h.followed ? 'own' : undefined);
        continue;
      }
      const inFrame = h.quad.map((v, i) => v / scale[i % 2]);
      const known = this.memory.find(
        (v) =>
          v.brand === h.brand &&
          (quadIoU(v.quad, h.quad) > SAME_PLACE || quadIoU(v.screen, h.quad) > SAME_PLACE) &&
          v.look !== null &&
          appearance(frame, inFrame, v.look, false) >= SAME_LOOK,
      );
      let reading: Reading | undefined = known?.reading;
      // The detector found the brand again where its words were read as a rival's: an LED board
      // may show its words now. The words are read again, and only a reading as its own overturns
      // the verdict (a blurred reading leaves it).
      const again = reading === 'rival' && !h.followed;
      if (reading === undefined || again) {
        const fresh = await this.read(frame, { ...h, quad: inFrame });
        if (!again || fresh === 'own') {
          if (known) this.memory.splice(this.memory.indexOf(known), 1);
          reading = fresh;
          if (reading === 'rival' && this.rivalRead) this.rivalOf.set(h, this.rivalRead);
          if (reading === 'own' || reading === 'rival')
            this.memory.push({
              brand: h.brand,
              quad: h.quad,
              screen: h.quad,
              reading,
              timeMs,
              look: exampleFromFrame(frame, inFrame),
            });
        }
      }
      out.push(reading);
    }
    return out;
  }

  /**
   * What the hit's words say (see {@link Reading}): `own` when a line reads as its own brand's,
   * `rival` when a line reads as another brand's clearly better than as its own and none reads as
   * its own, `blank` when every line that could be read reads as no character at all (a follow
   * that slid off the words onto the pitch), `foreign` when neither and a line reads surely as
   * words of no brand ({@link FOREIGN_CHARS}: an LED board that showed another sponsor, not in the
   * catalogue), else `unsure`. With `distinct`, only `own` or `unsure`:
   * `own` when a line reads as its own brand's words clearly better than as any other's (a word
   * that two brands share, read alone, is no evidence of either).
   */
  async read(frame: GrayImage, h: FrameHit, distinct = false): Promise<Reading> {
    const ex = this.examples[h.example];
    this.rivalRead = null;
    const lines = linesInFrame(ex, h.quad);
    if (!lines) return 'unsure';
    let rival = false;
    let sure = false;
    let foreign = false;
    // lines read as no character at all, and whether any line read as some
    let blank = 0;
    let letters = false;
    // each place read once (a line that nearly reads the brand's name is listed twice, as read
    // and as the name: see nameCorrected)
    const places = new Set<string>();
    for (const [i, t] of ex.text.entries()) {
      if (places.has(t.quad.join())) continue;
      places.add(t.quad.join());
      const q = lines[i];
      if (!q) continue;
      const [, right, , left] = sides(q);
      if (Math.min(left, right) < MIN_LINE_HEIGHT) continue;
      const read = await readLine(frame, q);
      if (read === null) continue;
      const seen = normaliseText(read.text).text;
      if (seen.length === 0) blank++;
      else letters = true;
      if (seen.length < minChars(normaliseText(t.text).text)) continue;
      const { own, other, rival: whose } = this.agreement(seen, h.brand);
      if (own >= OWN_SURE && (!distinct || own >= other + MARGIN)) return 'own';
      if (distinct) continue;
      const says = lineSays(own, other);
      if (says === 'rival') {
        rival = true;
        if (!this.rivalRead || other > this.rivalRead.agreement)
          this.rivalRead = { line: q, seen, brand: whose, agreement: other };
      } else if (says === 'own') sure = true;
      else if (read.confidence >= FOREIGN_SURE && seen.length >= FOREIGN_CHARS && other < READS_AS)
        foreign = true;
    }
    if (rival) return 'rival';
    if (sure) return 'own';
    if (foreign) return 'foreign';
    return blank > 0 && !letters ? 'blank' : 'unsure';
  }
}

/**
 * What a line read clearly where a hit's words should stand says of the hit, from how well it
 * agrees with the hit's brand's words (`own`) and with the best of the other brands' (`other`):
 * `rival` where it reads as another brand's ({@link READS_AS}) clearly better ({@link MARGIN}) than
 * as its own, `own` where it reads as its own, else nothing.
 */
export function lineSays(own: number, other: number): 'own' | 'rival' | undefined {
  if (other >= READS_AS && other >= own + MARGIN) return 'rival';
  return own >= READS_AS ? 'own' : undefined;
}

/**
 * Characters of agreement that read a brand's line: {@link MIN_CHARS}, or all of a shorter line.
 * A brand whose example reads as a short line (the real set's 1XBET crop reads "XRET", and as
 * "XBET" once corrected by the brand's name) is read on it: counted at 5 characters, its words
 * agreed with nothing, so a catalogue brand whose words share a few letters ("1UXBE1", 0.67)
 * dropped every keypoint hit of it as a rival's, while that brand's own hits on the 1XBET boards
 * read as its own.
 */
function minChars(line: string): number {
  return Math.max(MIN_MATCH, Math.min(MIN_CHARS, line.length));
}

/**
 * Where each of an example's lines of words stands in the frame for a hit at `quad` (null for a
 * line that does not map to finite points), or null where the quad maps nothing.
 */
function linesInFrame(ex: WordExample, quad: Quad): (Quad | null)[] | null {
  const H = quadToQuad([0, 0, ex.width, 0, ex.width, ex.height, 0, ex.height], quad);
  if (!H) return null;
  return ex.text.map((t) => {
    const q: Quad = [];
    for (let k = 0; k < 4; k++) q.push(...applyH(H, t.quad[2 * k], t.quad[2 * k + 1]));
    return q.every(Number.isFinite) ? q : null;
  });
}

/**
 * The text of one line of the frame (its quad in frame pixels). A line that runs off the frame
 * is read where it shows (a board in a pan, cut by the picture's edge): the words in view are
 * matched inside a brand's line (see `textAgreement`), with the reading's mean character
 * probability. Null where too little of it shows.
 */
async function readLine(frame: GrayImage, line: Quad): Promise<{ text: string; confidence: number } | null> {
  let q = line;
  const beyond = (v: number, i: number) => v < -EDGE || v > (i % 2 === 0 ? frame.width : frame.height) + EDGE;
  if (q.some(beyond)) {
    q = clipToFrame(q, frame.width, frame.height);
    const [top, , bottom] = sides(q);
    const [top0, , bottom0] = sides(line);
    if (top + bottom < IN_VIEW * (top0 + bottom0)) return null;
  }
  const xs = [q[0], q[2], q[4], q[6]];
  const ys = [q[1], q[3], q[5], q[7]];
  const x0 = Math.floor(Math.min(...xs));
  const y0 = Math.floor(Math.min(...ys));
  const x1 = Math.ceil(Math.max(...xs));
  const y1 = Math.ceil(Math.max(...ys));
  const left = Math.max(0, x0);
  const top = Math.max(0, y0);
  const rgb = regionRgb(frame, left, top, Math.min(frame.width, x1) - left, Math.min(frame.height, y1) - top);
  if (!rgb) return null;
  return recognize(
    rgb,
    q.map((v, i) => v - (i % 2 === 0 ? left : top)),
  );
}
