import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { colourModels, detectByColour } from '../src/colour-route.ts';
import { DescriptorIndex } from '../src/descriptor-index.ts';
import { DEFAULT_DETECTOR } from '../src/frame-detector.ts';
import { buildBrandIndex, type BrandIndex } from '../src/index.ts';
import { loadGray, loadLogo } from '../src/image-io.ts';
import { compositeLogo, type RgbImage } from '../src/synth.ts';
import { background, maxCornerError, tempDir, texturedLogoSvg, writePng, writeSvg } from './fixtures.ts';

// A flat one-colour silhouette with curves and a hole, as brand icons are.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="240" viewBox="0 0 300 240">
  <path fill="#d2461e" fill-rule="evenodd" d="M20 200 C 10 120, 60 40, 140 30 C 200 20, 270 50, 285 110
    L 240 120 C 230 80, 190 70, 160 80 L 200 150 C 230 170, 260 190, 270 230 L 170 225 C 150 200, 120 190,
    100 205 Z M 110 110 C 90 120, 85 150, 110 160 C 135 165, 145 140, 130 115 Z"/></svg>`;
// An ellipse of the same colour and about the same box and fill: a blob, not the icon.
const BLOB = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="240">
  <ellipse cx="150" cy="120" rx="148" ry="118" fill="#d2461e"/></svg>`;

let dir: string;
let icon: string;
let blob: string;
let brands: BrandIndex[];

beforeAll(async () => {
  dir = await tempDir();
  icon = await writeSvg(dir, 'icon.svg', ICON);
  blob = await writeSvg(dir, 'blob.svg', BLOB);
  const textured = await writeSvg(dir, 'textured.svg', texturedLogoSvg(3));
  brands = [
    await buildBrandIndex({ id: 'icon', name: 'icon', examples: [{ id: 'icon', file: icon }] }),
    await buildBrandIndex({
      id: 'textured',
      name: 'textured',
      examples: [{ id: 'textured', file: textured }],
    }),
    await buildBrandIndex({ id: 'disc', name: 'disc', examples: [{ id: 'disc', file: blob }] }),
  ];
});

async function frameWith(name: string, logo: string, quad: number[]) {
  const img: RgbImage = await background(9, 960, 540);
  await compositeLogo(img, await loadLogo(logo, 480), quad);
  return loadGray(await writePng(join(dir, name), img), 960);
}

describe('colour route', () => {
  it('looks for flat one-colour icons only, not for multicoloured logos or solid blobs', () => {
    const index = new DescriptorIndex(brands);
    const models = colourModels(index);
    expect(models.map((m) => index.examples[m.example].brand)).toEqual([0]);
  });

  it('finds a flat icon by its colour and outline, every corner within 3 px', async () => {
    const quad = [400, 150, 560, 160, 556, 290, 398, 282];
    const frame = await frameWith('icon-scene.png', icon, quad);
    const index = new DescriptorIndex(brands);
    const hits = detectByColour(frame, index, colourModels(index), DEFAULT_DETECTOR, () => false);
    expect(hits.map((h) => h.brand)).toEqual([0]);
    expect(maxCornerError(hits[0].quad, quad)).toBeLessThanOrEqual(3);
  });

  it('does not take a blob of the same colour and proportions for the icon', async () => {
    const frame = await frameWith('blob-scene.png', blob, [400, 150, 560, 160, 556, 290, 398, 282]);
    const index = new DescriptorIndex(brands);
    expect(detectByColour(frame, index, colourModels(index), DEFAULT_DETECTOR, () => false)).toEqual([]);
  });
});
