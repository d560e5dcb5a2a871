/** A time span [begin, end] in ms. */
export type Span = [number, number];

/**
 * Merges spans into at most `max` sorted, non-overlapping segments: overlapping or touching spans
 * are joined first; while more than `max` remain, the shortest gaps between neighbours are closed
 * (all gaps up to the length of the (n - max)-th shortest, so ties may close a few more). The
 * segments still cover every given span, so a mark on a timeline is never lost, only widened.
 */
export function mergeSpans(spans: readonly Span[], max: number): Span[] {
  if (max < 1) throw new RangeError('max must be at least 1');
  const sorted = spans.filter(([a, b]) => b >= a).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: Span[] = [];
  for (const [a, b] of sorted) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  if (merged.length <= max) return merged;
  const gaps = merged.slice(1).map((s, i) => s[0] - merged[i][1]);
  const limit = [...gaps].sort((x, y) => x - y)[merged.length - max - 1];
  const out: Span[] = [[...merged[0]]];
  for (let i = 1; i < merged.length; i++) {
    if (gaps[i - 1] <= limit) out[out.length - 1][1] = merged[i][1];
    else out.push([...merged[i]]);
  }
  return out;
}
