import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  correlate,
  descendCorners,
  exampleFromFrame,
  sampleGrid,
  type ThumbExample,
} from '../src/appearance.ts';
import { decodeThumbs } from '../src/brand-index.ts';
import { halve, type GrayImage } from '../src/features.ts';
import { applyH, exampleToFrame, type Quad } from '../src/geometry.ts';
import { loadGray } from '../src/image-io.ts';
import { buildBrandIndex } from '../src/index.ts';
import { background, rng, tempDir, texturedLogoSvg, writePng, writeSvg } from './fixtures.ts';

/**
 * sampleGrid and correlate are the engine's hottest code, written for speed. They must give what
 * the plain loops below give (the code they replaced, kept here as the reference) to the bit:
 * every threshold of the engine is compared with these values, and the real set's figures are
 * only comparable across versions when an optimisation changes nothing.
 */

function referenceBilinear(img: GrayImage, x: number, y: number): number {
  if (!(x >= 0 && y >= 0 && x <= img.width - 1 && y <= img.height - 1)) return -1;
  const x0 = Math.min(img.width - 2, Math.floor(x));
  const y0 = Math.min(img.height - 2, Math.floor(y));
  const ax = x - x0;
  const ay = y - y0;
  const i = y0 * img.width + x0;
  const d = img.data;
  return (
    (d[i] * (1 - ax) + d[i + 1] * ax) * (1 - ay) +
    (d[i + img.width] * (1 - ax) + d[i + img.width + 1] * ax) * ay
  );
}

function referenceSampleGrid(frame: GrayImage, H: ArrayLike<number>, ex: ThumbExample, region?: Uint8Array) {
  const { tw, th } = ex;
  const n = tw * th;
  const sample = new Float32Array(n);
  const valid = new Uint8Array(n);
  let inside = 0;
  let cells = 0;
  const fx = ex.width / tw;
  const fy = ex.height / th;
  const [cx, cy] = applyH(H, (tw / 2) * fx - 0.5, (th / 2) * fy - 0.5);
  const [ux, uy] = applyH(H, (tw / 2 + 1) * fx - 0.5, (th / 2) * fy - 0.5);
  const [vx, vy] = applyH(H, (tw / 2) * fx - 0.5, (th / 2 + 1) * fy - 0.5);
  const span = Math.min(Math.hypot(ux - cx, uy - cy), Math.hypot(vx - cx, vy - cy));
  const level = Number.isFinite(span) ? Math.max(0, Math.min(4, Math.floor(Math.log2(span / 2)))) : 0;
  let img = frame;
  for (let l = 0; l < level && img.width >= 4 && img.height >= 4; l++) img = halve(img);
  const k = 1 / (1 << level);
  const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = Array.from(H);
  for (let v = 0; v < th; v++) {
    for (let u = 0; u < tw; u++) {
      if (region && !region[v * tw + u]) continue;
      cells++;
      let acc = 0;
      let cnt = 0;
      for (let s = 0; s < 4; s++) {
        const x = (u + (s & 1 ? 0.75 : 0.25)) * fx - 0.5;
        const y = (v + (s & 2 ? 0.75 : 0.25)) * fy - 0.5;
        const w = h6 * x + h7 * y + h8;
        const px = (h0 * x + h1 * y + h2) / w;
        const py = (h3 * x + h4 * y + h5) / w;
        const val = referenceBilinear(img, (px + 0.5) * k - 0.5, (py + 0.5) * k - 0.5);
        if (val >= 0) {
          acc += val;
          cnt++;
        }
      }
      if (cnt === 4) {
        sample[v * tw + u] = acc / cnt;
        valid[v * tw + u] = 1;
        inside++;
      }
    }
  }
  return { sample, valid, inside, cells };
}

function referencePearson(s: Float64Array): number {
  const [cnt, sa, sb, saa, sbb, sab] = s;
  const caa = saa - (sa * sa) / cnt;
  const cbb = sbb - (sb * sb) / cnt;
  const cab = sab - (sa * sb) / cnt;
  return caa > 1e-6 && cbb > 1e-6 ? cab / Math.sqrt(caa * cbb) : 0;
}

/** correlate as it was, for an example without a mask (the masked fit did not change). */
function referenceCorrelate(frame: GrayImage, H: ArrayLike<number>, ex: ThumbExample): number {
  const BANDS = 5;
  const { tw, th } = ex;
  const { sample, valid, inside, cells } = referenceSampleGrid(frame, H, ex, ex.region);
  if (inside < cells * 0.5) return 0;
  let best = -1;
  const st = new Float64Array(BANDS * 6);
  const sums = new Float64Array(6);
  for (const t of ex.thumbs) {
    st.fill(0);
    for (let v = 0; v < th; v++) {
      for (let u = 0; u < tw; u++) {
        const i = v * tw + u;
        if (!valid[i]) continue;
        const o = Math.min(BANDS - 1, Math.floor((u * BANDS) / tw)) * 6;
        const a = sample[i];
        const b = t[i];
        st[o] += 1;
        st[o + 1] += a;
        st[o + 2] += b;
        st[o + 3] += a * a;
        st[o + 4] += b * b;
        st[o + 5] += a * b;
      }
    }
    for (let skip = 0; skip <= 2; skip++) {
      for (let first = 0; first + skip <= (skip ? BANDS : 0); first++) {
        sums.fill(0);
        for (let k = 0; k < BANDS; k++) {
          if (k >= first && k < first + skip) continue;
          for (let m = 0; m < 6; m++) sums[m] += st[k * 6 + m];
        }
        if (sums[0] < inside * 0.5) continue;
        const ncc = referencePearson(sums) - 0.06 * skip;
        if (ncc > best) best = ncc;
      }
    }
  }
  return best;
}

let frame: GrayImage;
let logo: ThumbExample;

beforeAll(async () => {
  const dir = await tempDir();
  frame = await loadGray(await writePng(join(dir, 'bg.png'), await background(3, 1280, 720)), 1280);
  const file = await writeSvg(dir, 'acme.svg', texturedLogoSvg(2));
  logo = decodeThumbs(
    (await buildBrandIndex({ id: 'a', name: 'Acme', examples: [{ id: 1, file }] })).examples[0],
  );
});

/** Seeded quads of every size (every pyramid level the grid samples at), some partly or wholly outside the frame, some in perspective. */
function quads(seed: number, count: number): number[][] {
  const r = rng(seed);
  const out: number[][] = [];
  for (let i = 0; i < count; i++) {
    const w = 8 * 2 ** (r() * 6.5);
    const h = w * (0.15 + r() * 0.9);
    const x = r() * (1280 + w) - w * 0.7;
    const y = r() * (720 + h) - h * 0.7;
    const j = () => (r() - 0.5) * w * 0.2;
    out.push([x + j(), y + j(), x + w + j(), y + j(), x + w + j(), y + h + j(), x + j(), y + h + j()]);
  }
  return out;
}

describe('sampleGrid', () => {
  it('gives what the plain loop gives, to the bit, on every grid size and pyramid level, inside and across the frame edge', () => {
    // examples of several grid shapes, interleaved so that each call reuses the last one's buffers
    const cut = exampleFromFrame(frame, [400, 300, 560, 310, 558, 350, 398, 342])!;
    const tall = exampleFromFrame(frame, [100, 100, 130, 100, 130, 220, 100, 220])!;
    const region = Uint8Array.from({ length: logo.tw * logo.th }, (_, i) => (i % 7 < 5 ? 1 : 0));
    const shapes = [logo, cut, tall, { ...logo, region }];
    const levels = new Set<number>();
    let partly = 0;
    let compared = 0;
    for (const [n, q] of quads(11, 600).entries()) {
      const ex = shapes[n % shapes.length];
      const H = exampleToFrame(q, ex.width, ex.height);
      const got = sampleGrid(frame, H, ex, ex.region);
      const want = referenceSampleGrid(frame, H, ex, ex.region);
      expect(got.cells).toBe(want.cells);
      expect(got.inside).toBe(want.inside);
      expect(got.valid.length).toBe(ex.tw * ex.th);
      expect(Array.from(got.valid)).toEqual(Array.from(want.valid));
      const on = (a: Float32Array) => Array.from(a).filter((_, i) => want.valid[i]);
      expect(on(got.sample)).toEqual(on(want.sample));
      levels.add(Math.round(Math.log2(Math.max(1, (q[2] - q[0]) / ex.tw / 2))));
      if (want.inside > 0 && want.inside < want.cells) partly++;
      compared += want.inside;
    }
    // the quads reach every level the grid samples at, and the frame's edges
    expect(levels.size).toBeGreaterThanOrEqual(5);
    expect(partly).toBeGreaterThan(50);
    expect(compared).toBeGreaterThan(100_000);
  });
});

describe('correlate', () => {
  it('gives the plain loop’s correlation to the bit, for examples of one and of two thumbnails', () => {
    const cut = exampleFromFrame(frame, [700, 200, 900, 210, 896, 260, 702, 252])!;
    expect(logo.thumbs.length).toBeGreaterThanOrEqual(1);
    const two: ThumbExample = { ...cut, thumbs: [cut.thumbs[0], cut.thumbs[0].map((v) => 255 - v)] };
    const examples = [{ ...logo, mask: undefined }, cut, two];
    for (const [n, q] of quads(12, 300).entries()) {
      const ex = examples[n % examples.length];
      const H = exampleToFrame(q, ex.width, ex.height);
      expect(correlate(frame, H, ex)).toBe(referenceCorrelate(frame, H, ex));
    }
    // and where the example stands, the correlation is the same and high
    const H = exampleToFrame([700, 200, 900, 210, 896, 260, 702, 252], cut.width, cut.height);
    expect(correlate(frame, H, cut)).toBe(referenceCorrelate(frame, H, cut));
    expect(correlate(frame, H, cut)).toBeGreaterThan(0.95);
  });
});

describe('descendCorners with an objective that stops at the bar', () => {
  it('takes the same path as with the exact objective', () => {
    // a bumpy objective over the 8 corner coordinates (a peak near a target quad, with ripples)
    const target = [103, 48, 260, 55, 255, 140, 98, 131];
    const exact = (q: Quad) =>
      1 / (1 + q.reduce((s, v, k) => s + ((v - target[k]) / 20) ** 2, 0)) +
      0.01 * Math.sin(q.join().length * 7);
    let stopped = 0;
    // what an objective may give once it knows its value is at most the bar: any value up to the bar
    const early = (q: Quad, bar: number) => {
      const v = exact(q);
      if (v > bar) return v;
      stopped++;
      return (v + bar) / 2;
    };
    const start: Quad = [80, 30, 300, 30, 300, 170, 80, 170];
    const steps = { from: 16, to: 0.5, sweeps: 6 };
    const a = descendCorners(start, exact(start), exact, steps);
    const b = descendCorners(start, exact(start), early, steps);
    expect(stopped).toBeGreaterThan(50);
    expect(b.quad).toEqual(a.quad);
    expect(b.value).toBe(a.value);
    expect(a.value).toBeGreaterThan(0.5);
  });
});
