import { LISTED_REVIEW_STATES, type CoordinateSegment, type ReviewState } from '@logo-review/contract';
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

type Span = { time_begin: number; time_end: number };
type Geometry = Span & { coordinates: CoordinateSegment[] };

/**
 * The segments cut to [begin, end]: those outside it are dropped, those across an end are cut
 * there. A segment that only touches the span (ends where it begins) is outside it, unless it is
 * an instant (start = end) inside the span, or the span is an instant that the segment covers.
 */
export function clipSegments(
  coordinates: CoordinateSegment[],
  begin: number,
  end: number,
): CoordinateSegment[] {
  const out: CoordinateSegment[] = [];
  for (const s of coordinates) {
    const a = Math.max(s.start_time, begin);
    const b = Math.min(s.end_time, end);
    const instant = a === b && (s.start_time === s.end_time || begin === end);
    if (b > a || instant) out.push({ start_time: a, end_time: b, points: s.points });
  }
  return out;
}

/**
 * Splits a detection at `time` (strictly inside its span): the left part ends and the right part
 * begins there, a segment across the time is divided. Each part must keep a box (a detection has
 * at least one segment).
 */
export function splitGeometry(d: Geometry, time: number): [Geometry, Geometry] {
  if (!(time > d.time_begin && time < d.time_end))
    throw badRequest(
      `time: ${time} is not strictly inside the detection's span ${d.time_begin}..${d.time_end} ms.`,
    );
  const left = clipSegments(d.coordinates, d.time_begin, time);
  const right = clipSegments(d.coordinates, time, d.time_end);
  if (left.length === 0 || right.length === 0)
    throw badRequest(`time: the detection has no box on one side of ${time} ms.`);
  return [
    { time_begin: d.time_begin, time_end: time, coordinates: left },
    { time_begin: time, time_end: d.time_end, coordinates: right },
  ];
}

/**
 * Joins two detections' spans and boxes, `a` being the one that begins first. Where they overlap in
 * time, `a`'s boxes are kept (one box per time); a gap between them stays without a box.
 */
export function mergeGeometry(a: Geometry, b: Geometry): Geometry {
  const rest = clipSegments(b.coordinates, a.time_end, Infinity).filter(
    // An instant of b at a's very end would duplicate a's last box time.
    (s) => !(s.start_time === a.time_end && s.end_time === a.time_end),
  );
  const coordinates = [...a.coordinates, ...rest].sort((x, y) => x.start_time - y.start_time);
  return {
    time_begin: Math.min(a.time_begin, b.time_begin),
    time_end: Math.max(a.time_end, b.time_end),
    coordinates,
  };
}

/** How a review state reads in a detection's history. */
export const REVIEW_LABEL: Record<ReviewState, string> = {
  UNREVIEWED: 'Unreviewed',
  TRUE_POSITIVE: 'True positive',
  EDITED: 'Edited',
  MANUAL: 'Manual',
  FALSE_POSITIVE: 'False positive',
  DELETED: 'Deleted',
};

const isListed = (s: string) => (LISTED_REVIEW_STATES as readonly string[]).includes(s);
const label = (s: string) => REVIEW_LABEL[s as ReviewState] ?? s;

/**
 * The history entry of a state change: a verdict reads as its name ("True positive", "False
 * positive", "Deleted"); a hidden detection made listed again (an undo) reads "Restored"; a return to
 * unreviewed "Marked unreviewed". `verdict` is what was asked when the state kept is another (a
 * hand-drawn box confirmed as true stays MANUAL).
 */
export function reviewAction(
  before: string,
  after: ReviewState,
  verdict: ReviewState = after,
): { action: string; detail: string } {
  const detail = `${label(before)} → ${label(after)}`;
  if (!isListed(before) && isListed(after)) return { action: 'Restored', detail };
  if (verdict === 'UNREVIEWED') return { action: 'Marked unreviewed', detail };
  return { action: label(verdict), detail };
}
