import { describe, expect, it } from 'vitest';
import type { BrandIndex } from '../src/brand-index.ts';
import { DescriptorIndex } from '../src/descriptor-index.ts';
import type { FeatureSet } from '../src/features.ts';
import { committedWasmDiffers, rng } from './fixtures.ts';

/** A deterministic stream of 32-bit words (the fixtures' generator, scaled back to integers). */
function words(seed: number) {
  const next = rng(seed);
  return () => Math.floor(next() * 2 ** 32);
}

/** A brand of `count` random 256-bit descriptors (one example; the thumbnails are not looked at). */
function brand(id: string, count: number, next: () => number): BrandIndex {
  const desc = new Uint8Array(count * 32);
  new Uint32Array(desc.buffer).forEach((_, i, a) => (a[i] = next()));
  return {
    brandId: id,
    version: 'test',
    examples: [{ id: 1, width: 100, height: 100, thumbs: { tw: 1, th: 1, data: ['AA=='] } }],
    count,
    exampleOf: new Uint16Array(count),
    xy: new Float32Array(count * 2),
    sa: new Float32Array(count * 2),
    desc,
  };
}

/** `from`'s descriptor `k` with `flips` distinct bits inverted. */
function near(from: Uint8Array, k: number, flips: number, next: () => number): Uint8Array {
  const d = from.slice(k * 32, k * 32 + 32);
  const bits = new Set<number>();
  while (bits.size < flips) bits.add(next() % 256);
  for (const b of bits) d[b >> 3] ^= 1 << (b & 7);
  return d;
}

function frame(descs: Uint8Array[]): FeatureSet {
  const n = descs.length;
  const desc = new Uint8Array(n * 32);
  descs.forEach((d, i) => desc.set(d, i * 32));
  return {
    count: n,
    xy: new Float32Array(n * 2),
    size: new Float32Array(n),
    angle: new Float32Array(n),
    desc,
  };
}

function hamming(a: Uint8Array, b: Uint8Array, bk: number): number {
  let d = 0;
  for (let i = 0; i < 32; i++) {
    let x = a[i] ^ b[bk * 32 + i];
    for (; x; x &= x - 1) d++;
  }
  return d;
}

describe('DescriptorIndex (LSH over every brand, probed in WebAssembly)', () => {
  const next = words(42);
  const brands = Array.from({ length: 12 }, (_, b) => brand(`b${b}`, 1500, next));
  const index = new DescriptorIndex(brands);
  const offset = (b: number) => brands.slice(0, b).reduce((s, x) => s + x.count, 0);

  it('finds the keypoint a frame descriptor was made from, with its exact distance', () => {
    // 300 queries, each a brand keypoint with 0-24 of its 256 bits flipped
    const planted = Array.from({ length: 300 }, (_, i) => ({
      b: i % brands.length,
      k: (i * 37) % 1500,
      flips: i % 25,
    }));
    const queries = planted.map((p) => near(brands[p.b].desc, p.k, p.flips, next));
    const matches = index.match(frame(queries));
    let found = 0;
    planted.forEach((p, q) => {
      const hit = matches.find((m) => m.q === q && m.t === offset(p.b) + p.k);
      if (hit) {
        found++;
        expect(hit.dist).toBe(p.flips);
        expect(index.brandOf[hit.t]).toBe(p.b);
        expect(index.distance(new Uint32Array(queries[q].slice().buffer), 0, hit.t)).toBe(p.flips);
      }
    });
    // LSH is approximate; at up to 24 flipped bits nearly every one is found
    expect(found).toBeGreaterThanOrEqual(290);
  });

  it('pairs each keypoint with the nearest keypoint of at most `brands` brands, none beyond maxDist', () => {
    const queries = Array.from({ length: 200 }, (_, i) => near(brands[i % 12].desc, i, 6, next));
    const f = frame(queries);
    for (const [maxDist, perKeypoint] of [
      [64, 6],
      [64, 2],
      [4, 6],
    ]) {
      const matches = index.match(f, maxDist, perKeypoint);
      for (let q = 0; q < queries.length; q++) {
        const mine = matches.filter((m) => m.q === q);
        expect(mine.length).toBeLessThanOrEqual(perKeypoint);
        expect(new Set(mine.map((m) => index.brandOf[m.t])).size).toBe(mine.length);
        for (const m of mine) {
          expect(m.dist).toBeLessThanOrEqual(maxDist);
          expect(m.dist).toBe(
            hamming(queries[q], brands[index.brandOf[m.t]].desc, m.t - offset(index.brandOf[m.t])),
          );
        }
        // nearest first
        for (let j = 1; j < mine.length; j++) expect(mine[j].dist).toBeGreaterThanOrEqual(mine[j - 1].dist);
        // 6 bits flipped: found unless maxDist is below that
        if (maxDist >= 6) expect(mine[0]?.dist).toBe(6);
        else expect(mine).toHaveLength(0);
      }
    }
  });

  it('gives the same answer on every call, and for a frame of random descriptors nothing near', () => {
    const queries = Array.from({ length: 100 }, (_, i) => near(brands[i % 12].desc, 2 * i, 10, next));
    const f = frame(queries);
    expect(index.match(f)).toEqual(index.match(f));
    const noise = brand('noise', 500, words(7)).desc;
    const far = index.match(frame(Array.from({ length: 500 }, (_, i) => noise.slice(i * 32, i * 32 + 32))));
    // random 256-bit strings lie about 128 bits apart; within 64 is vanishingly rare
    expect(far.length).toBeLessThan(5);
  });

  it('copes with no keypoints at all', () => {
    const empty = new DescriptorIndex([]);
    expect(empty.match(frame([brands[0].desc.slice(0, 32)]))).toEqual([]);
    expect(index.match(frame([]))).toEqual([]);
  });

  it('runs the committed lsh.wasm, which is what `npm run build:wasm` makes of assembly/lsh.ts', async () => {
    expect(await committedWasmDiffers('lsh')).toBeNull();
  });
});
