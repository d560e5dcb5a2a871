import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DescriptorIndex } from '../src/descriptor-index.ts';
import { quadIoU } from '../src/geometry.ts';
import { DEFAULT_DETECTOR } from '../src/hits.ts';
import { analyzeImage, buildBrandIndex, type BrandIndex } from '../src/index.ts';
import { shapeModels } from '../src/routes/shape-route.ts';
import { tempDir, writeSvg } from './fixtures.ts';

const ROOT = join(import.meta.dirname, '../../..');
const CROPS = join(import.meta.dirname, 'real-crops');
const icon = (name: string) => join(ROOT, 'node_modules/simple-icons/icons', `${name}.svg`);
// the shape route alone: what it finds, it finds by outline
const shapeOnly = {
  detector: {
    ...DEFAULT_DETECTOR,
    keypointRoute: false,
    colourRoute: false,
    textRoute: false,
    learnedRoute: false,
    shapeRoute: true,
  },
};
// tight boxes of the marks in the crops (real-crops/README.md)
const ADIDAS = [57, 63, 101, 63, 101, 100, 57, 100];
const PUMA = [53, 57, 101, 57, 101, 94, 53, 94];
const ADIDAS_STRETCHED = [56, 47, 107, 47, 107, 109, 56, 109];

let adidas: BrandIndex;
let puma: BrandIndex;
let disc: BrandIndex;
let dir: string;

beforeAll(async () => {
  dir = await tempDir();
  adidas = await buildBrandIndex({
    id: 'adidas',
    name: 'Adidas',
    examples: [{ id: 1, file: icon('adidas') }],
  });
  puma = await buildBrandIndex({ id: 'puma', name: 'Puma', examples: [{ id: 2, file: icon('puma') }] });
  const discSvg = await writeSvg(
    dir,
    'disc.svg',
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><circle cx="100" cy="100" r="90" fill="#111"/></svg>`,
  );
  disc = await buildBrandIndex({ id: 'disc', name: 'Disc', examples: [{ id: 3, file: discSvg }] });
}, 120_000);

describe('shape models', () => {
  it('takes a silhouette of parts (three bars) and leaves out a plain blob, which would fit any blob of its tone', () => {
    const bars = shapeModels(new DescriptorIndex([adidas]));
    expect(bars.length).toBeGreaterThan(0);
    expect(bars[0].parts).toBe(3);
    expect(shapeModels(new DescriptorIndex([disc]))).toEqual([]);
  });
});

describe('the shape route on real photos', () => {
  it('finds the Adidas bars printed white on black shorts, where its example is a black icon', async () => {
    const res = await analyzeImage(join(CROPS, 'adidas-shorts.jpg'), [adidas, puma], shapeOnly);
    expect(res.detections.map((d) => d.brandId)).toEqual(['adidas']);
    expect(quadIoU(res.detections[0].coordinates[0].points, ADIDAS)).toBeGreaterThanOrEqual(0.6);
  });

  it('finds the Puma cat, turned, on other shorts, and no Adidas there', async () => {
    const res = await analyzeImage(join(CROPS, 'puma-shorts.jpg'), [adidas, puma], shapeOnly);
    expect(res.detections.map((d) => d.brandId)).toEqual(['puma']);
    expect(quadIoU(res.detections[0].coordinates[0].points, PUMA)).toBeGreaterThanOrEqual(0.5);
  });

  it('finds the bars stretched to a box taller than wide (a photo resized to a square), and no Puma there', async () => {
    // the example is 1.6 times as wide as tall; in this photo the mark is 0.8 times: a stretch of 2
    const res = await analyzeImage(join(CROPS, 'adidas-stretched.jpg'), [adidas, puma], shapeOnly);
    expect(res.detections.map((d) => d.brandId)).toEqual(['adidas']);
    expect(quadIoU(res.detections[0].coordinates[0].points, ADIDAS_STRETCHED)).toBeGreaterThanOrEqual(0.6);
  });

  it('finds the mark small and blurred (0.6x, blur sigma 0.8: bars of 26 px)', async () => {
    const small = join(dir, 'small.jpg');
    await sharp(join(CROPS, 'adidas-shorts.jpg')).resize(96).blur(0.8).jpeg({ quality: 80 }).toFile(small);
    const res = await analyzeImage(small, [adidas, puma], shapeOnly);
    expect(res.detections.map((d) => d.brandId)).toEqual(['adidas']);
    expect(
      quadIoU(
        res.detections[0].coordinates[0].points,
        ADIDAS.map((v) => v * 0.6),
      ),
    ).toBeGreaterThanOrEqual(0.5);
  });
});
