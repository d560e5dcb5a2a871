import { SAME_INSTANCE, type FrameHit } from './hits.ts';
import { maxCornerDist, quadCenter, quadIoU, sides, type Quad } from './geometry.ts';
import type { FrameMotion } from './motion.ts';

/** Automatic placement of a detection. */
export type Placement = 'BROADCAST_OVERLAY' | 'IN_SCENE';

/** A frame hit in input pixels at a time. */
export interface TimedHit extends FrameHit {
  timeMs: number;
  /** the shot it was seen in (a count of cuts since the start) */
  shot?: number;
  /** where the camera had moved the scene on screen since the shot began, input pixels */
  cam?: [number, number];
}

/** One brand instance followed over time. */
export interface Track {
  brand: number;
  hits: TimedHit[];
  /** a follow of it read as another brand's words (see analyze.ts) */
  contradicted?: boolean;
}

/** Options of the linker. */
export interface TrackerOptions {
  /** interval between sampled frames, ms */
  stepMs: number;
  /** a track survives this many sampled frames without a hit before it is closed */
  maxGap: number;
}

/**
 * Links per-frame hits into tracks, greedily by overlap (or by a centre shift smaller than the
 * logo) with the open tracks of the same brand. Memory stays bounded: only open tracks are kept
 * here, closed ones are handed to `onClose` as soon as they end.
 */
export class Tracker {
  private open: Track[] = [];
  private shot = 0;
  private cam: [number, number] = [0, 0];
  constructor(
    private readonly opts: TrackerOptions,
    private readonly onClose: (t: Track) => void,
  ) {}

  /**
   * Links a sampled frame's hits; returns the tracks that this frame started. `motion` (input
   * pixels) is how the camera moved since the previous frame: across a cut a track continues
   * only where its logo stays at the same place on screen (an overlay) or was followed by its
   * pixels from its last place, and every other track ends there.
   */
  push(timeMs: number, hits: FrameHit[], motion?: FrameMotion): Track[] {
    const cut = motion?.cut ?? false;
    if (cut) {
      this.shot++;
      this.cam = [0, 0];
    } else if (motion) this.cam = [this.cam[0] + motion.dx, this.cam[1] + motion.dy];
    const started: Track[] = [];
    const taken = new Set<Track>();
    // the detector's hits first, then follows (see below), each by score
    const sorted = [...hits].sort(
      (a, b) => Number(a.followed ?? false) - Number(b.followed ?? false) || b.score - a.score,
    );
    // The detector's hits go to the open tracks of their brand that they continue best, the best
    // pair first (see {@link assign}): taken hit by hit in score order, a board's hit took the
    // track of the board beside it, which it also continued, though less well than that board's
    // own hit. Then each follow in turn, to the best track left.
    const linked = this.assign(
      sorted.filter((h) => !h.followed),
      taken,
      cut,
    );
    const placed: FrameHit[] = [];
    for (const h of sorted) {
      const best = h.followed ? (this.assign([h], taken, cut).get(h) ?? null) : (linked.get(h) ?? null);
      const timed: TimedHit = { ...h, timeMs, shot: this.shot, cam: [this.cam[0], this.cam[1]] };
      // The same logo found twice in one frame (a follow of its track and a fresh detection, which
      // the frame's suppression never compares) is one instance: the detection (or the better of
      // two follows) went on, the other would start a twin track over it. A follow that lands on
      // a logo of its brand linked already is not linked either: its track slid there from its
      // own logo (in a pan, the upper of two IM INTER CLUB boards onto the lower one), and would
      // run on as the other's twin, off its quad. Over the real set's five runs (engine 0.36.0)
      // that took false broadcast detections from 40 to 32, true ones from 781 to 783.
      if (
        (!best || h.followed) &&
        placed.some((p) => p.brand === h.brand && quadIoU(p.quad, h.quad) > SAME_INSTANCE)
      )
        continue;
      placed.push(h);
      if (best) {
        best.hits.push(timed);
        taken.add(best);
      } else {
        const t = { brand: h.brand, hits: [timed] };
        this.open.push(t);
        taken.add(t);
        started.push(t);
      }
    }
    const still: Track[] = [];
    for (const t of this.open) {
      const lastT = t.hits[t.hits.length - 1].timeMs;
      if (timeMs - lastT > this.opts.maxGap * this.opts.stepMs + 1 || (cut && !taken.has(t))) this.onClose(t);
      else still.push(t);
    }
    this.open = still;
    return started;
  }

  /**
   * Pairs each hit of `hits` with the open track (of its brand, not in `taken`) that it continues,
   * by how well it does (see {@link similarity}, against where the track's logo may be now, see
   * {@link expected}): the best pair first, then the best of the rest, and so on.
   */
  private assign(hits: FrameHit[], taken: ReadonlySet<Track>, cut: boolean): Map<FrameHit, Track> {
    const pairs: { h: FrameHit; t: Track; s: number }[] = [];
    for (const h of hits)
      for (const t of this.open) {
        if (t.brand !== h.brand || taken.has(t)) continue;
        const lastHit = t.hits[t.hits.length - 1];
        const last = lastHit.quad;
        // Across a cut a track goes on only where its logo's pixels were followed from its last
        // place, or where the detector found it at the same place on screen (an overlay).
        if (cut && !h.followed && maxCornerDist(last, h.quad) > 2 * stillTolerance(last)) continue;
        const s = cut
          ? similarity(last, h.quad)
          : Math.max(...expected(t, lastHit, this.cam).map((q) => similarity(q, h.quad)));
        if (s > 0) pairs.push({ h, t, s });
      }
    // best pair first; between equal pairs, the better hit (hits come sorted by score)
    pairs.sort((a, b) => b.s - a.s || hits.indexOf(a.h) - hits.indexOf(b.h));
    const out = new Map<FrameHit, Track>();
    const used = new Set<Track>();
    for (const { h, t } of pairs) {
      if (out.has(h) || used.has(t)) continue;
      out.set(h, t);
      used.add(t);
    }
    return out;
  }

  /**
   * Where the camera had moved the scene on screen since the shot began, at the last linked frame
   * (input pixels; the hits' `cam`).
   */
  get camera(): readonly [number, number] {
    return this.cam;
  }

  /** Tracks still open (seen within the gap), for following them into the next frame. */
  openTracks(): readonly Track[] {
    return this.open;
  }

  /** Closes every open track (end of input). */
  flush(): void {
    for (const t of this.open) this.onClose(t);
    this.open = [];
  }
}

/**
 * Where a track's logo may be in this frame, its hits to be linked by the nearest: where the camera
 * carried it since its last hit, for a logo that moved with the scene so far (more of its camera
 * votes in-scene than overlay, see {@link placementVotes}); where it was on screen, for one that
 * stayed there (an overlay); either, while its votes do not tell. A board found again after a gap
 * in a pan is tens of pixels on, and another board of the brand may stand where it was: on the
 * real set (1280x720, CRF 18) an Inter Club track of a board at 7 s took the next IM INTER CLUB
 * board, found at 8 s at nearly the same place on screen 200 px of pan later, and its quad was
 * drawn across the boards between. Over the real set's five runs (bench/engine/RESULTS.md) this
 * alone took off 29 of 102 false detections and found 1 more true one and 6 more boards of 452 at
 * 1280x720; with the follow check of analyze.ts, 51 false ones.
 */
function expected(t: Track, last: TimedHit, cam: readonly [number, number]): Quad[] {
  if (!last.cam) return [last.quad];
  const [dx, dy] = [cam[0] - last.cam[0], cam[1] - last.cam[1]];
  if (Math.hypot(dx, dy) < CAMERA_EVIDENCE) return [last.quad];
  const carried = last.quad.map((v, i) => v + (i % 2 === 0 ? dx : dy));
  const { overlay, scene } = placementVotes(t);
  return scene > overlay ? [carried] : overlay > scene ? [last.quad] : [last.quad, carried];
}

/** 0 when unrelated; > 0 the better two quads look like the same instance a moment apart. */
function similarity(a: Quad, b: Quad): number {
  const iou = quadIoU(a, b);
  if (iou > 0.1) return 1 + iou;
  const [ca, cb] = [quadCenter(a), quadCenter(b)];
  const size = Math.max(...sides(a), ...sides(b));
  const shift = Math.hypot(ca[0] - cb[0], ca[1] - cb[1]);
  return shift < size ? 1 - shift / size : 0;
}

/** A time segment with the quad valid over it. */
export interface Segment {
  start_time: number;
  end_time: number;
  points: number[];
}

/**
 * Turns a track into time segments: each sampled hit holds until the next one, and where the track
 * missed samples between two hits the quad moves from one to the other (see {@link bridged}); consecutive hits whose corners moved less
 * than `still` pixels share one segment (a static overlay is a single segment). The quad of a merged segment is the mean of its hits.
 */
export function trackSegments(track: Track, stepMs: number, endMs: number): Segment[] {
  const segs: { start: number; end: number; quads: Quad[] }[] = [];
  const hits = bridged(track.hits, stepMs);
  hits.forEach((h, i) => {
    const next = hits[i + 1];
    const end = Math.min(endMs, next ? next.timeMs : h.timeMs + stepMs);
    const cur = segs[segs.length - 1];
    if (cur && maxCornerDist(medianQuad(cur.quads), h.quad) <= stillTolerance(h.quad)) {
      cur.end = end;
      cur.quads.push(h.quad);
    } else segs.push({ start: h.timeMs, end, quads: [h.quad] });
  });
  return segs.map((s) => ({
    start_time: Math.round(s.start),
    end_time: Math.round(Math.max(s.end, s.start)),
    points: medianQuad(s.quads).map((v) => Math.round(v * 10) / 10),
  }));
}

/**
 * The hits with the samples a track missed between two of them filled in, the quad moved in a
 * straight line from one hit to the next. Held still, as before engine 0.19.0, the quad stayed
 * behind a board that a pan carried on, for up to the tracker's gap (0.75 s): on the real set
 * this took 1 false detection off and found 1 more board, at 848x478 and at 720p alike.
 */
function bridged<H extends { timeMs: number; quad: Quad }>(hits: H[], stepMs: number): H[] {
  const out: H[] = [];
  hits.forEach((h, i) => {
    out.push(h);
    const next = hits[i + 1];
    if (!next) return;
    const steps = Math.round((next.timeMs - h.timeMs) / stepMs);
    for (let k = 1; k < steps; k++) {
      const f = k / steps;
      out.push({
        ...h,
        timeMs: h.timeMs + k * stepMs,
        quad: h.quad.map((v, j) => v + f * (next.quad[j] - v)),
      });
    }
  });
  return out;
}

/** Hits on either side of a hit that its shape is compared with. */
const SHAPE_WINDOW = 3;
/** A hit whose corners are off the shape of its neighbours by more than this share of its size is a bad fit. */
const SHAPE_TOLERANCE = 0.15;

/**
 * The track without its odd fits: a hit whose shape (corners about its centre) differs from the
 * median shape of its neighbours in time by more than 15 % of the logo's size is a corner
 * pulled onto the background, while the logo itself stayed as it was (a twisted quad in the
 * middle of a steady track). Where it is, the neighbours' segments cover the time.
 */
export function withoutOddFits(track: Track): Track {
  if (track.hits.length < 4) return track;
  const centred = track.hits.map((h) => {
    const [cx, cy] = quadCenter(h.quad);
    return h.quad.map((v, i) => v - (i % 2 === 0 ? cx : cy));
  });
  const hits = track.hits.filter((_, i) => {
    const around: Quad[] = [];
    for (let j = Math.max(0, i - SHAPE_WINDOW); j <= Math.min(track.hits.length - 1, i + SHAPE_WINDOW); j++)
      if (j !== i) around.push(centred[j]);
    const med = medianQuad(around);
    return maxCornerDist(centred[i], med) <= SHAPE_TOLERANCE * Math.max(...sides(med));
  });
  return hits.length >= 2 ? { ...track, hits } : track;
}

/** Corner jitter of a fixed logo between frames stays below this (pixels). */
function stillTolerance(q: Quad): number {
  return Math.max(3, 0.02 * Math.max(...sides(q)));
}

/** Per-coordinate median: robust to the odd frame whose fit is a few pixels off. */
function medianQuad(qs: Quad[]): Quad {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    const v = qs.map((q) => q[i]).sort((a, b) => a - b);
    const m = v.length >> 1;
    out.push(v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2);
  }
  return out;
}

/** The camera moved at least this far (input pixels) between two hits for its motion to count. */
const CAMERA_EVIDENCE = 4;

/**
 * The camera's votes on a track's placement: each pair of consecutive hits between which the camera
 * moved the scene votes overlay if the logo moved less than half as far as the scene, else in-scene.
 */
function placementVotes(track: Track): { overlay: number; scene: number } {
  let overlay = 0;
  let scene = 0;
  for (let i = 1; i < track.hits.length; i++) {
    const [a, b] = [track.hits[i - 1], track.hits[i]];
    if (!a.cam || !b.cam) continue;
    const cam = Math.hypot(b.cam[0] - a.cam[0], b.cam[1] - a.cam[1]);
    if (cam < CAMERA_EVIDENCE) continue;
    const [ca, cb] = [quadCenter(a.quad), quadCenter(b.quad)];
    if (Math.hypot(cb[0] - ca[0], cb[1] - ca[1]) < cam / 2) overlay++;
    else scene++;
  }
  return { overlay, scene };
}

/** Whether the camera's votes say that a track's logo moves with the scene (see {@link placementVotes}). */
export function movesWithScene(track: Track): boolean {
  const { overlay, scene } = placementVotes(track);
  return scene > overlay;
}

/**
 * A broadcast overlay (score bug, channel logo) stays fixed on screen while the camera moves and
 * across cuts; an in-scene logo (board, shirt, car) moves with the scene. So each pair of
 * consecutive hits between which the camera moved is a vote: the logo moved less than half as far
 * as the scene did (an overlay), or not. Footage replayed off a screen makes overlays drift a
 * little, which the half keeps apart from the scene's motion. A track seen in two shots at the
 * same place is an overlay. Without camera motion (a still shot) a logo whose corners stay put
 * (within 2% of its size, at least 3 px) over at least two sampled frames counts as an overlay, as
 * nothing else tells them apart. `votes` are the track's camera votes where the caller counted
 * them already.
 */
export function classifyPlacement(track: Track, votes = placementVotes(track)): Placement {
  if (track.hits.length < 2) return 'IN_SCENE';
  if (new Set(track.hits.map((h) => h.shot ?? 0)).size > 1) return 'BROADCAST_OVERLAY';
  const { overlay, scene } = votes;
  if (overlay + scene > 0) return overlay > scene ? 'BROADCAST_OVERLAY' : 'IN_SCENE';
  const med = medianQuad(track.hits.map((h) => h.quad));
  const tol = stillTolerance(med);
  const still = track.hits.filter((h) => maxCornerDist(h.quad, med) <= tol).length;
  // One bad fit among many must not turn an overlay into an in-scene logo.
  return still >= Math.max(2, 0.8 * track.hits.length) ? 'BROADCAST_OVERLAY' : 'IN_SCENE';
}

/**
 * A track that the detector found in one sample only and that pixel follows then held in place on
 * screen while the camera moved the scene: a follow that stuck on what lay behind the logo once the
 * logo moved on, not an overlay. An overlay's pixels are the same in every frame, so a detector that
 * found it once finds it again in the samples after (the score bugs of the real set are found in
 * nearly every sample); a board that the camera carries away leaves a follow from its old place
 * that correlates just enough with the background to go on.
 */
export function stuckInPlace(track: Track): boolean {
  if (track.hits.filter((h) => !h.followed).length > 1) return false;
  const votes = placementVotes(track);
  return votes.overlay > 0 && classifyPlacement(track, votes) === 'BROADCAST_OVERLAY';
}

/**
 * Whether the words tell against the track: a follow of it read as another brand's words (the
 * follow was dropped; see analyze.ts) and none of its hits read as its own. A keypoint fit of one
 * row of a two-row board laid over the other row reads as nothing clear in a blurred frame, and
 * then as the other row's words once the follow carries it into a sharper one.
 */
export function wordsAgainst(track: Track): boolean {
  return (track.contradicted ?? false) && !track.hits.some((h) => h.words === 'own');
}

/** Track confidence: strongest hits weigh most, and a logo confirmed over several frames gains. */
export function trackConfidence(track: Track): number {
  const scores = track.hits.map((h) => h.score).sort((a, b) => b - a);
  const top = scores.slice(0, 3);
  const mean = top.reduce((s, v) => s + v, 0) / top.length;
  const support = 1 - Math.exp(-track.hits.length / 2);
  return Math.round(Math.min(1, mean * (0.75 + 0.25 * support)) * 1000) / 1000;
}

/**
 * A track seen in one sample only, away from the edges of the analysed span: more often a chance
 * fit than a logo (see followInFrame), and a quarter of a second on screen at the default rate. On
 * the real set at 720p (`real.ts --video-scale 1.5`) dropping them took off 1 of its 2 false
 * tracks and both tracks shown at no scored frame, for 2 true detections of 142; at 848x478 it cost
 * the same 2 of 114 and took off no false one (there were none). At an edge of the span that is a
 * chunk's boundary the track may go on in the neighbouring chunk, whose stitch needs it; the
 * video's own start and end (`videoEndMs`) have no neighbour, so a track seen in its first or
 * last sample only is judged as any other.
 *
 * Except where its words read as its brand's own (the text route's hit, or one the words check
 * confirmed) in the video's first or last sample: nothing before or after could see it again (on
 * the real set, an LED board at the Serie A clip's end that turned to INTER ACADEMY in its last
 * sample). Inside the video one sample stays a chance fit, read or not: keeping those kept 5
 * boards more over the real set's five runs, but also 2 false tracks at 848x478, a row's shared
 * word (NERAZZURRI) read as the other row's brand (engine 0.38.0's trials).
 */
export function oneSample(
  t: Track,
  startMs: number,
  endMs: number,
  stepMs: number,
  videoEndMs = Infinity,
): boolean {
  if (t.hits.length !== 1) return false;
  const at = t.hits[0].timeMs;
  const atStart = startMs > 0 && at - startMs < stepMs;
  const atEnd = endMs < videoEndMs && endMs - at <= stepMs;
  if (atStart || atEnd) return false;
  // at the video's own first or last sample: kept where its words read as its own
  const videoEdge = at - startMs < stepMs || endMs - at <= stepMs;
  return !(videoEdge && t.hits[0].words === 'own');
}
