import type { Segment } from './types.ts';

/**
 * Index of the segment shown at time `t` (ms): the last segment whose start is at or before `t`.
 * That is the segment containing `t`; in a gap between segments the previous quad holds; before the first
 * segment the first one is used. Returns -1 when there are no segments. Assumes segments sorted by start
 * (the model sorts them on ingest).
 */
export function segmentIndexAt(coordinates: readonly Segment[], t: number): number {
  const n = coordinates.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (coordinates[mid].start_time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : lo - 1;
}

/** The quad (8 numbers, video pixels) shown at time `t`, or null without segments. No copy is made. */
export function quadAt(coordinates: readonly Segment[], t: number): number[] | null {
  const i = segmentIndexAt(coordinates, t);
  return i < 0 ? null : coordinates[i].points;
}

/** Returns the segments sorted by start time (the same array when already sorted). */
export function sortSegments(coordinates: Segment[]): Segment[] {
  for (let i = 1; i < coordinates.length; i++) {
    if (coordinates[i].start_time < coordinates[i - 1].start_time) {
      return coordinates.slice().sort((a, b) => a.start_time - b.start_time);
    }
  }
  return coordinates;
}

/** A copy of `coordinates` whose segment `index` shows `points` instead. */
export function replaceSegmentPoints(
  coordinates: readonly Segment[],
  index: number,
  points: number[],
): Segment[] {
  return coordinates.map((s, i) => (i === index ? { ...s, points: points.slice() } : s));
}

/** Translates a flat point list by (dx, dy), writing into `out` (allocation-free when `out` is reused). */
export function translatePoints(points: ArrayLike<number>, dx: number, dy: number, out: number[]): number[] {
  out.length = points.length;
  for (let i = 0; i < points.length; i += 2) {
    out[i] = points[i] + dx;
    out[i + 1] = points[i + 1] + dy;
  }
  return out;
}

/** Copies `points` into `out`, moving vertex `vertex` to (x, y). */
export function movePointsVertex(
  points: ArrayLike<number>,
  vertex: number,
  x: number,
  y: number,
  out: number[],
): number[] {
  out.length = points.length;
  for (let i = 0; i < points.length; i++) out[i] = points[i];
  out[2 * vertex] = x;
  out[2 * vertex + 1] = y;
  return out;
}
