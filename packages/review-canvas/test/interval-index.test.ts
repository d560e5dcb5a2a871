import { describe, expect, it } from 'vitest';
import { IntervalIndex } from '../src/interval-index.ts';

interface Iv {
  id: number;
  s: number;
  e: number;
}

// Deterministic pseudo-random generator so failures reproduce.
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

function make(n: number, seed: number): Iv[] {
  const rnd = lcg(seed);
  const out: Iv[] = [];
  for (let i = 0; i < n; i++) {
    const s = Math.floor(rnd() * 100_000);
    // Mostly short, a few very long intervals (the case that defeats a "max duration" scan).
    const len = rnd() < 0.02 ? Math.floor(rnd() * 80_000) : Math.floor(rnd() * 3000);
    out.push({ id: i, s, e: s + len });
  }
  return out;
}

describe('IntervalIndex', () => {
  it('answers point and range queries exactly like a brute-force scan', () => {
    for (const n of [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 100, 1000, 5003]) {
      const items = make(n, n + 1);
      const index = new IntervalIndex<Iv>(
        (i) => i.s,
        (i) => i.e,
      );
      index.build(items);
      const out: Iv[] = [];
      const rnd = lcg(42 + n);
      for (let q = 0; q < 200; q++) {
        const a = Math.floor(rnd() * 110_000) - 5000;
        const b = q % 2 === 0 ? a : a + Math.floor(rnd() * 5000);
        index.queryRange(a, b, out);
        const got = out.map((i) => i.id).sort((x, y) => x - y);
        const want = items
          .filter((i) => i.s <= b && i.e >= a)
          .map((i) => i.id)
          .sort((x, y) => x - y);
        expect(got).toEqual(want);
      }
    }
  });

  it('an incremental update (drop some, add some) equals a full build', () => {
    const all = make(3000, 5);
    const index = new IntervalIndex<Iv>(
      (i) => i.s,
      (i) => i.e,
    );
    index.build(all.slice(0, 2000));
    const dropped = new Set(all.filter((i) => i.id % 7 === 0).map((i) => i.id));
    index.update((i) => !dropped.has(i.id), all.slice(2000));
    const expected = all.filter((i) => !dropped.has(i.id));
    expect(index.size).toBe(expected.length);
    const out: Iv[] = [];
    const rnd = lcg(9);
    for (let q = 0; q < 300; q++) {
      const t = Math.floor(rnd() * 100_000);
      index.queryPoint(t, out);
      expect(out.map((i) => i.id).sort((a, b) => a - b)).toEqual(
        expected
          .filter((i) => i.s <= t && i.e >= t)
          .map((i) => i.id)
          .sort((a, b) => a - b),
      );
    }
  });

  it('treats intervals as closed at both ends', () => {
    const index = new IntervalIndex<Iv>(
      (i) => i.s,
      (i) => i.e,
    );
    index.build([{ id: 1, s: 100, e: 200 }]);
    const out: Iv[] = [];
    expect(index.queryPoint(100, out)).toBe(1);
    expect(index.queryPoint(200, out)).toBe(1);
    expect(index.queryPoint(99.9, out)).toBe(0);
    expect(index.queryPoint(200.1, out)).toBe(0);
    expect(out).toHaveLength(0);
  });

  it('finds the next and previous start with an acceptance predicate', () => {
    const index = new IntervalIndex<Iv>(
      (i) => i.s,
      (i) => i.e,
    );
    index.build([
      { id: 1, s: 1000, e: 2000 },
      { id: 2, s: 3000, e: 4000 },
      { id: 3, s: 5000, e: 6000 },
    ]);
    expect(index.firstStartingAfter(1000)?.id).toBe(2);
    expect(index.firstStartingAfter(999)?.id).toBe(1);
    expect(index.firstStartingAfter(5000)).toBeNull();
    expect(index.firstStartingAfter(0, (i) => i.id !== 1)?.id).toBe(2);
    expect(index.lastStartingBefore(3000)?.id).toBe(1);
    expect(index.lastStartingBefore(3001)?.id).toBe(2);
    expect(index.lastStartingBefore(1000)).toBeNull();
    expect(index.lastStartingBefore(10_000, (i) => i.id !== 3)?.id).toBe(2);
  });
});
