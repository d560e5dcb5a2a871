import { isUnreviewed, type Detection } from './types.ts';

/** The review queue's order (issue 17, item 4): by start time, or most confident first. */
export type ReviewOrder = 'time' | 'confidence';

/** `a` comes before `b` in time order: by start, then id (a total order, so nothing is skipped or repeated). */
function timeBefore(
  a: Pick<Detection, 'time_begin' | 'id'>,
  b: Pick<Detection, 'time_begin' | 'id'>,
): boolean {
  return a.time_begin < b.time_begin || (a.time_begin === b.time_begin && a.id < b.id);
}

/**
 * The next detection to review among `candidates`: unreviewed ones that `accept` lets through (the filter).
 *
 * - 'time': the first one after `after` in (start, id) order; null when none follows (the caller loads more,
 *   or wraps around with `after` null).
 * - 'confidence': the most confident one left (hand-drawn ones, without confidence, last), ties by time order.
 *   Decided ones leave the queue, so `after` is not needed.
 */
export function nextInQueue<D extends Detection>(
  candidates: Iterable<D>,
  order: ReviewOrder,
  after: Pick<Detection, 'time_begin' | 'id'> | null,
  accept: (d: D) => boolean = () => true,
): D | null {
  let best: D | null = null;
  for (const d of candidates) {
    if (!isUnreviewed(d) || !accept(d)) continue;
    if (order === 'time') {
      if (after !== null && !timeBefore(after, d)) continue;
      if (best === null || timeBefore(d, best)) best = d;
    } else {
      const c = d.confidence ?? -1;
      const b = best?.confidence ?? -1;
      if (best === null || c > b || (c === b && timeBefore(d, best))) best = d;
    }
  }
  return best;
}

function quadArea(p: readonly number[]): number {
  let a = 0;
  const n = p.length >> 1;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    a += p[2 * i] * p[2 * j + 1] - p[2 * j] * p[2 * i + 1];
  }
  return Math.abs(a) / 2;
}

/**
 * The frame that shows a detection best: the middle of its segment with the largest box (the logo seen
 * closest), inside the detection's span. Without segments, the middle of the span.
 */
export function bestFrameTime(d: Pick<Detection, 'coordinates' | 'time_begin' | 'time_end'>): number {
  let best = -1;
  let time = (d.time_begin + d.time_end) / 2;
  for (const s of d.coordinates) {
    const area = quadArea(s.points);
    if (area > best) {
      best = area;
      time = (Math.max(s.start_time, d.time_begin) + Math.min(s.end_time, d.time_end)) / 2;
    }
  }
  return Math.min(d.time_end, Math.max(d.time_begin, Math.floor(time)));
}
