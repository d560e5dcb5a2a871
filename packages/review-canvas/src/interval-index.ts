/**
 * Static interval index for "which items are active at time t" over tens of thousands of items.
 *
 * It is an implicit augmented interval tree (the layout of Heng Li's cgranges): items sorted by start
 * form an in-order binary tree over array positions, where position i sits at level = number of
 * trailing 1-bits of i, and every node stores the largest end in its subtree. A stabbing query is
 * O(log n + k) and allocation-free (typed arrays, a preallocated stack, a caller-owned output array).
 * Intervals are closed: [start, end].
 *
 * Rebuilding is O(n log n); callers mark it dirty and rebuild lazily before the next query.
 */
export class IntervalIndex<T> {
  private items: T[] = [];
  private starts = new Float64Array(0);
  private ends = new Float64Array(0);
  private maxEnd = new Float64Array(0);
  private rootLevel = -1;
  // Each stack frame: node, level, left-visited flag. 64 levels is far beyond any array length.
  private readonly stack = new Int32Array(64 * 3);

  constructor(
    private readonly startOf: (item: T) => number,
    private readonly endOf: (item: T) => number,
  ) {}

  /** Number of indexed items. */
  get size(): number {
    return this.items.length;
  }

  /** Replaces the indexed items (the array is copied and sorted by start). O(n log n). */
  build(items: readonly T[]): void {
    const order = items.slice();
    const startOf = this.startOf;
    order.sort((a, b) => startOf(a) - startOf(b));
    this.adopt(order);
  }

  /**
   * Incremental rebuild: keeps the indexed items that pass `keep`, adds those of `added` that pass it, in O(n + m log m) for m added
   * items (only those are sorted, then merged). Window loads during playback use this, so adding a few hundred
   * detections to 50,000 does not re-sort everything.
   */
  update(keep: (item: T) => boolean, added: readonly T[]): void {
    const startOf = this.startOf;
    const fresh = added.filter(keep).sort((a, b) => startOf(a) - startOf(b));
    const old = this.items;
    const merged: T[] = new Array(old.length + fresh.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length || j < fresh.length) {
      if (i < old.length && !keep(old[i])) {
        i++;
        continue;
      }
      if (j >= fresh.length || (i < old.length && this.starts[i] <= startOf(fresh[j])))
        merged[k++] = old[i++];
      else merged[k++] = fresh[j++];
    }
    merged.length = k;
    this.adopt(merged);
  }

  private adopt(order: T[]): void {
    const n = order.length;
    const startOf = this.startOf;
    this.items = order;
    this.starts = new Float64Array(n);
    this.ends = new Float64Array(n);
    this.maxEnd = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.starts[i] = startOf(order[i]);
      this.ends[i] = this.endOf(order[i]);
    }
    this.rootLevel = this.buildMax();
  }

  private buildMax(): number {
    const n = this.items.length;
    if (n === 0) return -1;
    const { ends, maxEnd } = this;
    let lastI = 0;
    let last = 0;
    for (let i = 0; i < n; i += 2) {
      lastI = i;
      last = maxEnd[i] = ends[i];
    }
    let k = 1;
    for (; 1 << k <= n; k++) {
      const x = 1 << (k - 1);
      const i0 = (x << 1) - 1;
      const step = x << 2;
      for (let i = i0; i < n; i += step) {
        const el = maxEnd[i - x];
        const er = i + x < n ? maxEnd[i + x] : last;
        let e = ends[i];
        if (el > e) e = el;
        if (er > e) e = er;
        maxEnd[i] = e;
      }
      lastI = (lastI >> k) & 1 ? lastI - x : lastI + x;
      if (lastI < n && maxEnd[lastI] > last) last = maxEnd[lastI];
    }
    return k - 1;
  }

  /**
   * Writes into `out` every item whose [start, end] overlaps [from, to] and truncates `out` to that count.
   * Items come in start order. Returns the count.
   */
  queryRange(from: number, to: number, out: T[]): number {
    const n = this.items.length;
    let count = 0;
    if (n > 0) {
      const { starts, ends, maxEnd, items, stack } = this;
      let top = 0;
      stack[0] = (1 << this.rootLevel) - 1;
      stack[1] = this.rootLevel;
      stack[2] = 0;
      top = 1;
      while (top > 0) {
        top--;
        const x = stack[top * 3];
        const k = stack[top * 3 + 1];
        const w = stack[top * 3 + 2];
        if (k <= 3) {
          // Small subtree: a linear scan is faster than descending.
          const i0 = (x >> k) << k;
          let i1 = i0 + (1 << (k + 1)) - 1;
          if (i1 > n) i1 = n;
          for (let i = i0; i < i1 && starts[i] <= to; i++) if (ends[i] >= from) out[count++] = items[i];
        } else if (w === 0) {
          const y = x - (1 << (k - 1));
          stack[top * 3] = x;
          stack[top * 3 + 1] = k;
          stack[top * 3 + 2] = 1;
          top++;
          if (y >= n || maxEnd[y] >= from) {
            stack[top * 3] = y;
            stack[top * 3 + 1] = k - 1;
            stack[top * 3 + 2] = 0;
            top++;
          }
        } else if (x < n && starts[x] <= to) {
          if (ends[x] >= from) out[count++] = items[x];
          stack[top * 3] = x + (1 << (k - 1));
          stack[top * 3 + 1] = k - 1;
          stack[top * 3 + 2] = 0;
          top++;
        }
      }
    }
    out.length = count;
    return count;
  }

  /** Items active at time t (start <= t <= end), written into `out`. Returns the count. */
  queryPoint(t: number, out: T[]): number {
    return this.queryRange(t, t, out);
  }

  /** The item with the smallest start strictly greater than `t` that passes `accept`, or null. */
  firstStartingAfter(t: number, accept?: (item: T) => boolean): T | null {
    const { starts, items } = this;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < items.length; i++) if (!accept || accept(items[i])) return items[i];
    return null;
  }

  /** The item with the largest start strictly smaller than `t` that passes `accept`, or null. */
  lastStartingBefore(t: number, accept?: (item: T) => boolean): T | null {
    const { starts, items } = this;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0; i--) if (!accept || accept(items[i])) return items[i];
    return null;
  }
}
