import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { quadIoU } from '../src/geometry.ts';
import { DEFAULT_DETECTOR } from '../src/hits.ts';
import { analyzeImage, buildBrandIndex, type BrandIndex } from '../src/index.ts';
import { correlate, embed, resize, template } from '../src/learned.ts';
import { exists, SHARED_DATA, tempDir } from './fixtures.ts';

// Real images from the team's shared development data, read in place: the logohunter templates
// (MIT project test data) and a photo of OpenCV's samples (Apache-2.0 repository) as the scene.
const SHARED = SHARED_DATA;
const BRANDS = join(SHARED, 'logos/logohunter/test_brands');
const have = await exists(BRANDS);
/** Where the Duff label is pasted into the scene (px), and its size. */
const AT = { left: 300, top: 140, width: 150, height: 150 };
const TRUTH = [300, 140, 450, 140, 450, 290, 300, 290];

const learnedOnly = {
  detector: { keypointRoute: false, colourRoute: false, textRoute: false, learnedRoute: true },
};
let dir: string;
let duff: BrandIndex;
let champion: BrandIndex;
let scene: string;

beforeAll(async () => {
  if (!have) return;
  dir = await tempDir();
  duff = await buildBrandIndex({
    id: 'duff',
    name: 'Duff',
    examples: [{ id: 1, file: join(BRANDS, 'test_duff.jpg') }],
  });
  champion = await buildBrandIndex({
    id: 'champion',
    name: 'Champion',
    examples: [{ id: 2, file: join(BRANDS, 'test_champions.jpg') }],
  });
  // The label at 150 px in a busy real scene, blurred and compressed as a web photo is.
  const label = await sharp(join(BRANDS, 'test_duff.jpg'))
    .resize(AT.width, AT.height, { fit: 'fill' })
    .png()
    .toBuffer();
  scene = join(dir, 'scene.jpg');
  await sharp(join(SHARED, 'planar/box_in_scene.png'))
    .resize(640, 480, { fit: 'fill' })
    .composite([{ input: label, left: AT.left, top: AT.top }])
    .blur(1.0)
    .jpeg({ quality: 75 })
    .toFile(scene);
}, 120_000);

describe('the learned route', () => {
  it('is off by default: it costs nothing until it is asked for', () => {
    expect(DEFAULT_DETECTOR.learnedRoute).toBe(false);
  });

  it('resizes without aliasing or shifting the image', () => {
    const data = new Uint8Array(64 * 32);
    for (let y = 0; y < 32; y++) for (let x = 0; x < 64; x++) data[y * 64 + x] = x < 32 ? 0 : 200;
    const half = resize({ width: 64, height: 32, data }, 16, 8);
    expect([half.width, half.height]).toEqual([16, 8]);
    expect(half.data[3]).toBe(0);
    expect(half.data[12]).toBe(200);
  });
});

describe.skipIf(!have)('the learned model on a real scene', () => {
  it('places the example where its blurred copy stands in a busy scene (best place over the frame)', async () => {
    const gray = async (file: string, side?: number) => {
      let img = sharp(file).greyscale();
      if (side) img = img.resize(side, side, { fit: 'inside' });
      const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, data: new Uint8Array(data) };
    };
    const tpl = await template(await gray(join(BRANDS, 'test_duff.jpg'), 64));
    const frame = await gray(scene);
    const f = 64 / AT.width;
    const s = await correlate(
      await embed(resize(frame, Math.round(frame.width * f), Math.round(frame.height * f))),
      tpl.data,
      1,
    );
    const best = s.data.indexOf(Math.max(...s.data));
    const [i, j] = [Math.floor(best / s.cols), best % s.cols];
    const x0 = (j * 8 + tpl.box.x) / f;
    const y0 = (i * 8 + tpl.box.y) / f;
    const [x1, y1] = [x0 + tpl.box.w / f, y0 + tpl.box.h / f];
    expect(quadIoU([x0, y0, x1, y0, x1, y1, x0, y1], TRUTH)).toBeGreaterThanOrEqual(0.5);
  });

  // What the route does not do yet (measured in bench/engine/RESULTS.md): the same copy stands only
  // about 2.5 spreads above the model's level over this scene, under the route's threshold of 5,
  // so the route, which is off by default, reports nothing here.
  it('reports nothing on a scene without the brand', async () => {
    const res = await analyzeImage(scene, [champion, duff], {
      detector: { ...learnedOnly.detector },
    });
    expect(res.detections.filter((d) => d.brandId === 'champion')).toEqual([]);
  });
});
