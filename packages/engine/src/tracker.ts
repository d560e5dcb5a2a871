import type { FrameHit } from './frame-detector.ts';
import { maxCornerDist, quadCenter, quadIoU, sides, type Quad } from './geometry.ts';

/** Automatic placement of a detection. */
export type Placement = 'BROADCAST_OVERLAY' | 'IN_SCENE';

/** A frame hit in input pixels at a time. */
export interface TimedHit extends FrameHit {
  timeMs: number;
}

/** One brand instance followed over time. */
export interface Track {
  brand: number;
  hits: TimedHit[];
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
  constructor(
    private readonly opts: TrackerOptions,
    private readonly onClose: (t: Track) => void,
  ) {}

  /** Links a sampled frame's hits; returns the tracks that this frame started. */
  push(timeMs: number, hits: FrameHit[]): Track[] {
    const started: Track[] = [];
    const taken = new Set<Track>();
    const sorted = [...hits].sort((a, b) => b.score - a.score);
    for (const h of sorted) {
      let best: Track | null = null;
      let bestScore = 0;
      for (const t of this.open) {
        if (t.brand !== h.brand || taken.has(t)) continue;
        const last = t.hits[t.hits.length - 1].quad;
        const s = similarity(last, h.quad);
        if (s > bestScore) {
          bestScore = s;
          best = t;
        }
      }
      const timed = { ...h, timeMs };
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
      if (timeMs - lastT > this.opts.maxGap * this.opts.stepMs + 1) this.onClose(t);
      else still.push(t);
    }
    this.open = still;
    return started;
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
 * Turns a track into time segments: each sampled hit holds until the next one; consecutive hits
 * whose corners moved less than `still` pixels share one segment (a static overlay is a single
 * segment). The quad of a merged segment is the mean of its hits.
 */
export function trackSegments(track: Track, stepMs: number, endMs: number): Segment[] {
  const segs: { start: number; end: number; quads: Quad[] }[] = [];
  track.hits.forEach((h, i) => {
    const next = track.hits[i + 1];
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

/**
 * A logo whose corners stay put (within 2% of its size, at least 3 px) over at least two sampled
 * frames is fixed in screen space: a broadcast overlay (score bug, channel logo). Anything that
 * moves with the camera or the scene is in-scene.
 */
export function classifyPlacement(track: Track): Placement {
  if (track.hits.length < 2) return 'IN_SCENE';
  const med = medianQuad(track.hits.map((h) => h.quad));
  const tol = stillTolerance(med);
  const still = track.hits.filter((h) => maxCornerDist(h.quad, med) <= tol).length;
  // One bad fit among many must not turn an overlay into an in-scene logo.
  return still >= Math.max(2, 0.8 * track.hits.length) ? 'BROADCAST_OVERLAY' : 'IN_SCENE';
}

/** Track confidence: strongest hits weigh most, and a logo confirmed over several frames gains. */
export function trackConfidence(track: Track): number {
  const scores = track.hits.map((h) => h.score).sort((a, b) => b - a);
  const top = scores.slice(0, 3);
  const mean = top.reduce((s, v) => s + v, 0) / top.length;
  const support = 1 - Math.exp(-track.hits.length / 2);
  return Math.round(Math.min(1, mean * (0.75 + 0.25 * support)) * 1000) / 1000;
}
