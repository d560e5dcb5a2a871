import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeImage,
  buildBrandIndex,
  deserializeBrandIndex,
  serializeBrandIndex,
  type BrandIndex,
} from '../src/index.ts';
import { loadLogo } from '../src/image-io.ts';
import { compositeLogo } from '../src/synth.ts';
import {
  background,
  maxCornerError,
  tempDir,
  texturedLogoSvg,
  writeMirroredPng,
  writePng,
  writeSvg,
} from './fixtures.ts';

let dir: string;
let acme: BrandIndex;
let other: BrandIndex;
let acmeFile: string;

beforeAll(async () => {
  dir = await tempDir();
  acmeFile = await writeSvg(dir, 'acme.svg', texturedLogoSvg(1));
  const otherFile = await writeSvg(dir, 'other.svg', texturedLogoSvg(2));
  acme = await buildBrandIndex({ id: 'acme', name: 'Acme', examples: [{ id: 11, file: acmeFile }] });
  other = await buildBrandIndex({ id: 'other', name: 'Other', examples: [{ id: 21, file: otherFile }] });
});

async function scene(name: string, logoFile: string | null, quad: number[], seed = 7): Promise<string> {
  const bg = await background(seed, 960, 540);
  if (logoFile) await compositeLogo(bg, await loadLogo(logoFile, 400), quad);
  return writePng(join(dir, name), bg);
}

describe('analyzeImage', () => {
  it('finds a logo placed at a known perspective quad with every corner within 3 px', async () => {
    const quad = [300, 180, 520, 205, 512, 330, 296, 310];
    const file = await scene('placed.png', acmeFile, quad);
    const res = await analyzeImage(file, [acme, other]);
    expect(res).toMatchObject({ width: 960, height: 540, fps: null, frames: 1 });
    expect(res.detections).toHaveLength(1);
    const d = res.detections[0];
    expect(d.brandId).toBe('acme');
    expect(d.exampleId).toBe(11);
    expect(d.confidence).toBeGreaterThan(0.5);
    expect(d.coordinates).toHaveLength(1);
    expect(maxCornerError(d.coordinates[0].points, quad)).toBeLessThanOrEqual(3);
  });

  it('finds a small rotated logo (about 60 px tall)', async () => {
    const quad = [600, 380, 716, 368, 722, 428, 606, 440];
    const file = await scene('small.png', acmeFile, quad, 9);
    const res = await analyzeImage(file, [acme, other]);
    expect(res.detections.map((d) => d.brandId)).toEqual(['acme']);
    expect(maxCornerError(res.detections[0].coordinates[0].points, quad)).toBeLessThanOrEqual(3);
  });

  it('reports nothing on a scene without logos', async () => {
    const file = await scene('empty.png', null, []);
    const res = await analyzeImage(file, [acme, other]);
    expect(res.detections).toEqual([]);
  });

  it('does not report a mirrored logo as the brand', async () => {
    const mirrored = await writeMirroredPng(dir, 'acme-mirrored.png', texturedLogoSvg(1));
    const file = await scene('mirrored.png', mirrored, [300, 180, 520, 205, 512, 330, 296, 310]);
    const res = await analyzeImage(file, [acme]);
    expect(res.detections).toEqual([]);
  });

  it('does not report a different logo as the brand', async () => {
    const third = await writeSvg(dir, 'third.svg', texturedLogoSvg(3));
    const file = await scene('different.png', third, [300, 180, 520, 205, 512, 330, 296, 310]);
    const res = await analyzeImage(file, [acme, other]);
    expect(res.detections).toEqual([]);
  });
});

describe('brand index', () => {
  it('survives serialisation unchanged', () => {
    const back = deserializeBrandIndex(serializeBrandIndex(acme));
    expect(back.brandId).toBe('acme');
    expect(back.version).toBe(acme.version);
    expect(back.examples).toEqual(acme.examples);
    expect(back.count).toBeGreaterThan(100);
    expect(Buffer.from(back.desc).equals(Buffer.from(acme.desc))).toBe(true);
    expect(Array.from(back.xy)).toEqual(Array.from(acme.xy));
  });

  it('rejects a buffer that is not an index', () => {
    expect(() => deserializeBrandIndex(Buffer.from('hello world'))).toThrow(/not a brand index/);
  });

  it('reports progress per example and changes version with the examples', async () => {
    const seen: [number, number][] = [];
    const b = await buildBrandIndex(
      {
        id: 'x',
        name: 'X',
        examples: [
          { id: 1, file: acmeFile },
          { id: 2, file: join(dir, 'other.svg') },
        ],
      },
      { onProgress: (d, t) => seen.push([d, t]) },
    );
    expect(seen).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(b.version).not.toBe(acme.version);
  });
});
