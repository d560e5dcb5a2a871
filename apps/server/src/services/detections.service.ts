import type { CoordinateSegment } from '@logo-review/contract';
import { badRequest } from '../errors.ts';

/**
 * Checks a detection's geometry: begin <= end, every segment's start <= end and inside the span,
 * eight finite numbers per segment. Names the offending segment in the message.
 */
export function checkGeometry(
  field: string,
  span: { time_begin: number; time_end: number },
  coordinates: CoordinateSegment[],
): void {
  if (span.time_begin > span.time_end) throw badRequest(`${field}: time_begin must not be after time_end.`);
  coordinates.forEach((s, i) => {
    if (s.start_time > s.end_time)
      throw badRequest(`${field}.coordinates.${i}: start_time is after end_time.`);
    if (s.start_time < span.time_begin || s.end_time > span.time_end) {
      throw badRequest(`${field}.coordinates.${i}: the segment lies outside time_begin..time_end.`);
    }
    if (!s.points.every((n) => Number.isFinite(n) && Math.abs(n) < 1e6)) {
      throw badRequest(`${field}.coordinates.${i}: points must be finite numbers.`);
    }
  });
}
