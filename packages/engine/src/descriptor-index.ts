import { readFileSync } from 'node:fs';
import { decodeThumbs, type BrandIndex } from './brand-index.ts';
import type { FeatureSet } from './features.ts';

/** `probe` of `assembly/lsh.ts`: the lookup of one descriptor in every table (see {@link DescriptorIndex.match}). */
type Probe = (...args: number[]) => number;
const lshModule = new WebAssembly.Module(readFileSync(new URL('./lsh.wasm', import.meta.url)));

/** One frame keypoint matched to one brand keypoint. */
export interface Match {
  /** frame keypoint index */
  q: number;
  /** global keypoint index in the {@link DescriptorIndex} */
  t: number;
  dist: number;
}

const TABLES = 16;
const MAX_BUCKET = 48;
/** int32s of candidate pairs (id, distance) one query may collect */
const CAND_CAP = 4096;

/** Hamming distance of two 256-bit descriptors given as 8 uint32 words. */
function hamming(a: Uint32Array, ai: number, b: Uint32Array, bi: number): number {
  let d = 0;
  for (let k = 0; k < 8; k++) {
    let x = a[ai + k] ^ b[bi + k];
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    d += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return d;
}

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One shared nearest-neighbour index over the keypoints of every brand, so that a frame is matched
 * against 200 brands at about the cost of 10: bit-sampling LSH on the 256-bit ORB descriptors,
 * with the key length grown with the index size so buckets stay a few entries long.
 */
export class DescriptorIndex {
  readonly count: number;
  /** brand (position in the brands array) per keypoint */
  readonly brandOf: Uint16Array;
  /** global example number per keypoint; see {@link examples} */
  readonly exampleOf: Uint32Array;
  readonly xy: Float32Array;
  /** size (example px) and angle (deg) per keypoint */
  readonly sa: Float32Array;
  /** each example's size and verification thumbnails (see {@link decodeThumbs}), by global number */
  readonly examples: (ReturnType<typeof decodeThumbs> & {
    brand: number;
    local: number;
    /** keypoints of an example are contiguous: [start, end) */
    start: number;
    end: number;
  })[] = [];
  private readonly words: Uint32Array;
  private readonly bits: Uint16Array;
  private readonly keyBits: number;
  private readonly stamp: Int32Array;
  private stampNo = 0;
  private readonly cands: Int32Array;
  /** the query descriptor handed to `probe` */
  private readonly query: Uint32Array;
  private readonly probe: Probe;
  /** byte addresses in the WebAssembly memory, and the bucket offsets' stride per table */
  private readonly at: Record<'bits' | 'offsets' | 'ids' | 'words' | 'stamp' | 'cands' | 'query', number>;
  private readonly size1: number;
  private readonly bestOf: Int32Array;
  private readonly brandStamp: Int32Array;
  private readonly brandSlot: Int32Array;

  constructor(brands: BrandIndex[]) {
    const n = brands.reduce((s, b) => s + b.count, 0);
    this.count = n;
    this.brandOf = new Uint16Array(n);
    this.exampleOf = new Uint32Array(n);
    this.xy = new Float32Array(n * 2);
    this.sa = new Float32Array(n * 2);
    this.keyBits = Math.max(10, Math.min(18, Math.round(Math.log2(Math.max(n, 1))) - 2));
    const size = 1 << this.keyBits;
    this.size1 = size + 1;
    // Everything `probe` reads lives in its instance's memory, laid out once (it never grows
    // afterwards, so the views below stay valid).
    const lsh = new WebAssembly.Instance(lshModule, {});
    const memory = lsh.exports.memory as WebAssembly.Memory;
    this.probe = lsh.exports.probe as Probe;
    let end = memory.buffer.byteLength;
    const take = (bytes: number) => {
      const start = end;
      end += Math.ceil(bytes / 32) * 32;
      return start;
    };
    this.at = {
      bits: take(TABLES * this.keyBits * 2),
      offsets: take(TABLES * this.size1 * 4),
      ids: take(TABLES * n * 4),
      words: take(n * 32),
      stamp: take(n * 4),
      cands: take(CAND_CAP * 4),
      query: take(32),
    };
    memory.grow(Math.ceil((end - memory.buffer.byteLength) / 65536));
    const heap = memory.buffer;
    this.words = new Uint32Array(heap, this.at.words, n * 8);
    this.stamp = new Int32Array(heap, this.at.stamp, n);
    this.cands = new Int32Array(heap, this.at.cands, CAND_CAP);
    this.query = new Uint32Array(heap, this.at.query, 8);
    this.bits = new Uint16Array(heap, this.at.bits, TABLES * this.keyBits);
    const bytes = new Uint8Array(heap, this.at.words, n * 32);
    let o = 0;
    brands.forEach((b, bi) => {
      const exBase = this.examples.length;
      b.examples.forEach((e, li) =>
        this.examples.push({ brand: bi, local: li, start: o, end: o, ...decodeThumbs(e) }),
      );
      this.brandOf.fill(bi, o, o + b.count);
      for (let k = 0; k < b.count; k++) {
        const ex = this.examples[exBase + b.exampleOf[k]];
        this.exampleOf[o + k] = exBase + b.exampleOf[k];
        if (ex.end === ex.start) ex.start = o + k;
        ex.end = o + k + 1;
      }
      this.xy.set(b.xy, o * 2);
      this.sa.set(b.sa, o * 2);
      bytes.set(b.desc, o * 32);
      o += b.count;
    });
    this.bestOf = new Int32Array(brands.length);
    this.brandStamp = new Int32Array(brands.length);
    this.brandSlot = new Int32Array(brands.length);
    // Sample key bits among the best balanced ones: ORB bits are not all 50/50 on logos, and
    // lopsided bits pile many descriptors into a few buckets.
    const ones = new Float64Array(256);
    for (let i = 0; i < n; i++)
      for (let b = 0; b < 256; b++) ones[b] += (this.words[i * 8 + (b >>> 5)] >>> (b & 31)) & 1;
    const balanced = [...Array(256).keys()]
      .sort((a, b) => Math.abs(ones[a] / n - 0.5) - Math.abs(ones[b] / n - 0.5))
      .slice(0, 160);
    const rnd = mulberry32(0x10605);
    for (let t = 0; t < TABLES; t++) {
      const pool = balanced.slice();
      for (let j = 0; j < this.keyBits; j++) {
        const k = Math.floor(rnd() * pool.length);
        this.bits[t * this.keyBits + j] = pool[k];
        pool.splice(k, 1);
      }
    }
    for (let t = 0; t < TABLES; t++) {
      const keys = new Int32Array(n);
      const off = new Int32Array(heap, this.at.offsets + t * this.size1 * 4, this.size1);
      for (let i = 0; i < n; i++) {
        const k = this.key(this.words, i * 8, t);
        keys[i] = k;
        off[k + 1]++;
      }
      for (let k = 0; k < size; k++) off[k + 1] += off[k];
      const fill = off.slice(0, size);
      const ids = new Int32Array(heap, this.at.ids + t * n * 4, n);
      for (let i = 0; i < n; i++) ids[fill[keys[i]]++] = i;
    }
  }

  private key(words: Uint32Array, base: number, table: number): number {
    let k = 0;
    const b0 = table * this.keyBits;
    for (let j = 0; j < this.keyBits; j++) {
      const bit = this.bits[b0 + j];
      k = (k << 1) | ((words[base + (bit >>> 5)] >>> (bit & 31)) & 1);
    }
    return k;
  }

  /** Hamming distance between frame descriptor `q` and index keypoint `t`. */
  distance(frameWords: Uint32Array, q: number, t: number): number {
    return hamming(frameWords, q * 8, this.words, t * 8);
  }

  /**
   * Approximate nearest neighbours, one per brand: each frame keypoint is paired with the nearest
   * keypoint of each of the `brands` nearest brands whose distance is within `slack` of the
   * overall nearest (and at most `maxDist`).
   *
   * No ratio test across brands: the corners and stroke ends that make up flat logos and
   * wordmarks look alike in every logo (diagnosis on the generated set: for 95 % of the true
   * correspondences of logos lost in matching, another brand's keypoint was nearer). Which brand
   * a keypoint belongs to is decided by geometry: only the right brand's candidates agree on one
   * homography.
   */
  match(frame: FeatureSet, maxDist = 64, brands = 6, slack = 10): Match[] {
    const out: Match[] = [];
    if (this.count === 0 || frame.count === 0) return out;
    const q = new Uint32Array(frame.desc.buffer, frame.desc.byteOffset, frame.count * 8);
    const bestOf = this.bestOf;
    const { at, cands } = this;
    for (let i = 0; i < frame.count; i++) {
      const stamp = ++this.stampNo;
      this.query.set(q.subarray(i * 8, i * 8 + 8));
      // An over-full bucket holds generic descriptors (flat edges); `probe` skips it, which is
      // cheap and loses little since 15 other tables still look for the neighbour.
      const found = this.probe(
        at.query,
        TABLES,
        this.keyBits,
        at.bits,
        at.offsets,
        this.size1,
        at.ids,
        this.count,
        at.words,
        at.stamp,
        stamp,
        maxDist,
        MAX_BUCKET,
        at.cands,
        CAND_CAP,
      );
      const d1 = found % 1024;
      const nc = (found - d1) / 1024;
      if (d1 > maxDist) continue;
      // nearest candidate per brand (slot in `cands`), brands in order of first appearance
      let nb = 0;
      for (let c = 0; c < nc; c += 2) {
        if (cands[c + 1] > d1 + slack) continue;
        const b = this.brandOf[cands[c]];
        if (this.brandStamp[b] !== stamp) {
          this.brandStamp[b] = stamp;
          this.brandSlot[b] = c;
          bestOf[nb++] = b;
        } else if (cands[c + 1] < cands[this.brandSlot[b] + 1]) this.brandSlot[b] = c;
      }
      // the `brands` nearest brands (stable selection, ties in order of appearance; nb is small)
      for (let j = 0; j < Math.min(brands, nb); j++) {
        let m = j;
        for (let k = j + 1; k < nb; k++)
          if (cands[this.brandSlot[bestOf[k]] + 1] < cands[this.brandSlot[bestOf[m]] + 1]) m = k;
        const b = bestOf[m];
        bestOf.copyWithin(j + 1, j, m);
        bestOf[j] = b;
        const c = this.brandSlot[b];
        out.push({ q: i, t: cands[c], dist: cands[c + 1] });
      }
    }
    if (this.stampNo > 2e9) {
      this.stamp.fill(0);
      this.brandStamp.fill(0);
      this.stampNo = 0;
    }
    return out;
  }
}
