import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { halve, orbOn, orbOpenCv, PATCH_SIZE, type FeatureSet, type GrayImage } from '../src/features.ts';
import { loadGray } from '../src/image-io.ts';
import { DEFAULT_DETECTOR } from '../src/hits.ts';
import { getCv, orbRuntime, type Cv } from '../src/opencv.ts';
import { retainBest } from '../src/orb.ts';
import { coarseSample, frameFeatures } from '../src/routes/keypoint-route.ts';
import { committedWasmDiffers, exists, framePng, SERIEA_CLIP, tempDir } from './fixtures.ts';

const CROPS = join(import.meta.dirname, 'real-crops');
const orb = { maxFeatures: 4000, nLevels: 6, scaleFactor: 1.25, patchSize: PATCH_SIZE };

let cv: Cv;
const haveClip = await exists(SERIEA_CLIP);
beforeAll(async () => {
  cv = await getCv();
});

/**
 * ORB of one image by OpenCV 4.5.2's own `detectAndCompute`, and as the engine computes it: in
 * orb.wasm, the 5.0 runtime resizing the levels.
 */
function both(img: GrayImage, opts = orb): [FeatureSet, FeatureSet] {
  return [orbOpenCv(cv, img, opts), orbOn(orbRuntime(cv), img, opts)];
}

function expectSame([a, b]: [FeatureSet, FeatureSet], least: number) {
  expect(a.count).toBeGreaterThanOrEqual(least);
  expect(b.count).toBe(a.count);
  expect(Buffer.from(b.desc).equals(Buffer.from(a.desc))).toBe(true);
  expect(Array.from(b.xy)).toEqual(Array.from(a.xy));
  expect(Array.from(b.size)).toEqual(Array.from(a.size));
  expect(Array.from(b.angle)).toEqual(Array.from(a.angle));
}

describe('ORB in orb.wasm', () => {
  it('runs the committed orb.wasm, which is what `npm run build:wasm` makes of assembly/orb.ts', async () => {
    expect(await committedWasmDiffers('orb')).toBeNull();
  });

  it('is a runtime of its own beside 4.5.2', () => {
    expect(orbRuntime(cv)).not.toBe(cv);
    expect(orbRuntime(cv).ORB).toBeTypeOf('function');
  });

  it("gives 4.5.2's keypoints, in its order, and descriptors to the bit on small real crops (as a brand's examples)", async () => {
    for (const name of ['adidas-shorts.jpg', 'adidas-stretched.jpg', 'puma-shorts.jpg']) {
      const img = await loadGray(join(CROPS, name), 640);
      expectSame(both(img), 15);
      // as the brand index computes an example's keypoints
      expectSame(both(img, { maxFeatures: 1500, nLevels: 3, scaleFactor: 1.2, patchSize: PATCH_SIZE }), 15);
    }
  });

  it('and on odd sizes, where the levels round their sides, and on an image without a keypoint', async () => {
    const img = await loadGray(join(CROPS, 'adidas-stretched.jpg'), 640);
    // crop to odd sides: the top-left (w - 7) x (h - 3)
    const w = img.width - 7;
    const h = img.height - 3;
    const data = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) data.set(img.data.subarray(y * img.width, y * img.width + w), y * w);
    expectSame(both({ width: w, height: h, data }, { ...orb, nLevels: 8 }), 15);
    const flat = both({ width: 101, height: 77, data: new Uint8Array(101 * 77).fill(90) });
    expect(flat[1].count).toBe(0);
    expectSame(flat, 0);
  });

  // skipped where ../shared's footage is not beside the checkout
  it.skipIf(!haveClip)('and on a broadcast frame', async () => {
    const file = join(await tempDir(), 'frame.png');
    await writeFile(file, await framePng(SERIEA_CLIP, 8));
    const img = await loadGray(file, 1280);
    expectSame(both(img), 2000);
    // the half-size pass for large logos
    expectSame(both(halve(img), { ...orb, nLevels: 4, maxFeatures: 2000 }), 300);
  });
});

describe("a frame's keypoints", () => {
  it.skipIf(!haveClip)(
    'are the full-size pyramid, and with the half-size pass its keypoints after them at twice the scale',
    async () => {
      const file = join(await tempDir(), 'frame.png');
      await writeFile(file, await framePng(SERIEA_CLIP, 8));
      const img = await loadGray(file, 1280);
      const fine = frameFeatures(cv, img, DEFAULT_DETECTOR, false);
      const both = frameFeatures(cv, img, DEFAULT_DETECTOR, true);
      expect(fine.count).toBeGreaterThan(1000);
      expect(fine.count).toBeLessThanOrEqual(
        Math.round((DEFAULT_DETECTOR.featuresPerMp * img.width * img.height) / 1e6),
      );
      expect(both.count).toBeGreaterThan(fine.count + 300);
      expect(Buffer.from(both.desc.subarray(0, fine.count * 32)).equals(Buffer.from(fine.desc))).toBe(true);
      expect(Array.from(both.xy.subarray(0, fine.count * 2))).toEqual(Array.from(fine.xy));
      // the full pyramid's largest keypoints are PATCH_SIZE * 1.25^5; the half pass starts at twice PATCH_SIZE
      const largest = Math.max(...fine.size);
      expect(largest).toBeLessThan(PATCH_SIZE * 1.25 ** 5 + 0.01);
      expect(Math.min(...both.size.subarray(fine.count))).toBeCloseTo(2 * PATCH_SIZE, 3);
    },
  );

  it('take the half-size pass on the samples that coarseEvery names (the even ones at 2), the last one and a still', () => {
    const at2 = { ...DEFAULT_DETECTOR, coarseEvery: 2 };
    expect([0, 1, 2, 3, 4, 5].map((seq) => coarseSample(at2, seq))).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(coarseSample(at2, 5, true)).toBe(true);
    expect(coarseSample(at2, 5, false, true)).toBe(true);
    const every = { ...DEFAULT_DETECTOR, coarseEvery: 1 };
    expect([0, 1, 2, 3].every((seq) => coarseSample(every, seq))).toBe(true);
  });
});

describe("ORB's retainBest", () => {
  it('keeps the n largest responses and every tie of the n-th, the rest after them', () => {
    const response = Float32Array.from([5, 9, 1, 7, 7, 3, 7, 8, 2, 7, 6, 4]);
    const keep = Int32Array.from(response, (_, i) => i);
    const n = retainBest(keep, response, 4);
    // 9, 8 and the four 7s: the 4th largest is a 7, and every 7 stays
    expect(n).toBe(6);
    expect(Array.from(keep.subarray(0, n), (i) => response[i]).sort((a, b) => b - a)).toEqual([
      9, 8, 7, 7, 7, 7,
    ]);
    expect(new Set(keep).size).toBe(response.length);
    expect(Math.max(...Array.from(keep.subarray(n), (i) => response[i]))).toBeLessThan(7);
    // fewer than n: all, untouched
    const few = Int32Array.from([2, 0, 1]);
    expect(retainBest(few, response, 5)).toBe(3);
    expect(Array.from(few)).toEqual([2, 0, 1]);
    expect(retainBest(Int32Array.from([0, 1]), response, 0)).toBe(0);
  });
});
