/**
 * A set of disjoint, sorted time spans (ms) that absorbs overlapping additions.
 *
 * Exposure is the union of spans, not their sum: two detections of one brand on screen at the
 * same moment count once. Memory is bounded by the number of disjoint spans, which the video's
 * length limits (spans that touch or overlap merge), not by how many detections were added.
 */
export class IntervalUnion {
  private starts: number[] = [];
  private ends: number[] = [];
  private instants: number[] = [];

  add(begin: number, end: number): void {
    if (!(end > begin)) return;
    const { starts, ends } = this;
    const n = starts.length;
    // Detections arrive roughly in time order, so the common case is an append at the end.
    if (n === 0 || begin > ends[n - 1]) {
      starts.push(begin);
      ends.push(end);
      return;
    }
    // First span whose end reaches begin, and the first span starting after end.
    const lo = lowerBound(ends, begin);
    const hi = upperBound(starts, end);
    if (lo === hi) {
      starts.splice(lo, 0, begin);
      ends.splice(lo, 0, end);
      return;
    }
    const mergedBegin = Math.min(begin, starts[lo]);
    const mergedEnd = Math.max(end, ends[hi - 1]);
    starts.splice(lo, hi - lo, mergedBegin);
    ends.splice(lo, hi - lo, mergedEnd);
  }

  /**
   * Records a zero-length span (a detection drawn at one instant): it covers nothing, but
   * `covers` answers true at that instant.
   */
  addInstant(at: number): void {
    this.instants.push(at);
  }

  /** Length (ms) of [begin, end] that the union covers. */
  overlap(begin: number, end: number): number {
    if (!(end > begin)) return 0;
    const { starts, ends } = this;
    let sum = 0;
    for (let i = lowerBound(ends, begin); i < starts.length && starts[i] < end; i++) {
      sum += Math.min(end, ends[i]) - Math.max(begin, starts[i]);
    }
    return sum;
  }

  /** Whether an instant lies in a span (ends included) or is a recorded instant. */
  covers(at: number): boolean {
    const i = lowerBound(this.ends, at);
    return (i < this.starts.length && this.starts[i] <= at) || this.instants.includes(at);
  }

  /** Total covered length (ms). */
  total(): number {
    let sum = 0;
    for (let i = 0; i < this.starts.length; i++) sum += this.ends[i] - this.starts[i];
    return sum;
  }

  get spanCount(): number {
    return this.starts.length;
  }
}

/** Index of the first value >= x. */
function lowerBound(values: number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first value > x. */
function upperBound(values: number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
