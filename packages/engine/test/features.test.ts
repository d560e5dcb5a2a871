import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { halve, orbOn, PATCH_SIZE, type FeatureSet, type GrayImage } from '../src/features.ts';
import { loadGray } from '../src/image-io.ts';
import { getCv, orbRuntime, type Cv } from '../src/opencv.ts';
import { exists, framePng, SERIEA_CLIP, tempDir } from './fixtures.ts';

const CROPS = join(import.meta.dirname, 'real-crops');
const orb = { maxFeatures: 4000, nLevels: 6, scaleFactor: 1.25, patchSize: PATCH_SIZE };

let cv: Cv;
const haveClip = await exists(SERIEA_CLIP);
beforeAll(async () => {
  cv = await getCv();
});

/** ORB of one image by OpenCV 4.5.2 and by the 5.0 runtime that the engine computes it with. */
function both(img: GrayImage, opts = orb): [FeatureSet, FeatureSet] {
  return [orbOn(cv, img, opts), orbOn(orbRuntime(cv), img, opts)];
}

function expectSame([a, b]: [FeatureSet, FeatureSet], least: number) {
  expect(a.count).toBeGreaterThanOrEqual(least);
  expect(b.count).toBe(a.count);
  expect(Buffer.from(b.desc).equals(Buffer.from(a.desc))).toBe(true);
  expect(Array.from(b.xy)).toEqual(Array.from(a.xy));
  expect(Array.from(b.size)).toEqual(Array.from(a.size));
  expect(Array.from(b.angle)).toEqual(Array.from(a.angle));
}

describe('ORB on the OpenCV 5 runtime', () => {
  it('is a runtime of its own beside 4.5.2', () => {
    expect(orbRuntime(cv)).not.toBe(cv);
    expect(orbRuntime(cv).ORB).toBeTypeOf('function');
  });

  it("gives 4.5.2's keypoints and descriptors to the bit on small real crops (as a brand's examples)", async () => {
    for (const name of ['adidas-shorts.jpg', 'adidas-stretched.jpg', 'puma-shorts.jpg'])
      expectSame(both(await loadGray(join(CROPS, name), 640)), 15);
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
