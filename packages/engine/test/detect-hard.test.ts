/**
 * Cases that the benchmark's diagnosis (bench/engine/diagnose.ts) showed to be lost before: a
 * one-colour cut-out logo whose background changes under it, a logo partly covered by a player,
 * two brands whose logos share a part, and a logo alike in grey but in other colours.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { trace } from '../src/hits.ts';
import { analyzeImage, buildBrandIndex, type BrandIndex } from '../src/index.ts';
import { loadLogo } from '../src/image-io.ts';
import { compositeLogo, type RgbImage } from '../src/synth.ts';
import { background, maxCornerError, rng, tempDir, texturedLogoSvg, writePng, writeSvg } from './fixtures.ts';

/** Letter-like strokes (bars, arcs as polygons, dots) in one colour on a transparent background. */
function glyphs(seed: number, x0: number, width: number, height: number): string {
  const r = rng(seed);
  let body = '';
  for (let x = x0; x < x0 + width - 20;) {
    const w = 24 + r() * 30;
    const kind = r();
    if (kind < 0.35)
      body += `<rect x="${x}" y="${height * 0.15}" width="${w * 0.35}" height="${height * 0.7}"/><rect x="${x}" y="${height * (0.15 + r() * 0.5)}" width="${w}" height="${height * 0.14}"/>`;
    else if (kind < 0.7)
      body += `<polygon points="${x},${height * 0.85} ${x + w / 2},${height * 0.15} ${x + w},${height * 0.85} ${x + w * 0.7},${height * 0.85} ${x + w / 2},${height * 0.45} ${x + w * 0.3},${height * 0.85}"/>`;
    else
      body += `<circle cx="${x + w / 2}" cy="${height / 2}" r="${w / 2}" fill="none" stroke-width="${w * 0.22}"/><rect x="${x + w * 0.8}" y="${height * 0.1}" width="${w * 0.2}" height="${height * 0.3}"/>`;
    x += w + 8;
  }
  return body;
}

function wordmarkSvg(parts: string[], colour: string, width = 480, height = 100): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><g fill="${colour}" stroke="${colour}">${parts.join('')}</g></svg>`;
}

let dir: string;
const brands: Record<string, BrandIndex> = {};
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = await tempDir();
  const shared = glyphs(101, 0, 240, 100);
  files.flat = await writeSvg(dir, 'flat.svg', wordmarkSvg([glyphs(7, 0, 480, 100)], '#7a7a7a'));
  files.textured = await writeSvg(dir, 'textured.svg', texturedLogoSvg(3));
  // two wordmarks of one typeface that share their first half, as "KAROVIN" and "KAROTEL" would
  files.karo1 = await writeSvg(
    dir,
    'karo1.svg',
    wordmarkSvg([shared, glyphs(202, 240, 240, 100)], '#1a3d8f'),
  );
  files.karo2 = await writeSvg(
    dir,
    'karo2.svg',
    wordmarkSvg([shared, glyphs(303, 240, 240, 100)], '#1a3d8f'),
  );
  for (const [name, file] of Object.entries(files))
    brands[name] = await buildBrandIndex({ id: name, name, examples: [{ id: name, file }] });
  // the textured logo in other colours at the same lightness: alike in grey, not in colour
  files.recoloured = join(dir, 'recoloured.png');
  await sharp(files.textured).modulate({ hue: 150 }).png().toFile(files.recoloured);
});

async function scene(
  name: string,
  logo: string,
  quad: number[],
  paint?: (img: RgbImage) => void,
  after?: (img: RgbImage) => void,
): Promise<string> {
  const img = await background(5, 960, 540);
  paint?.(img);
  await compositeLogo(img, await loadLogo(logo, 480), quad);
  after?.(img);
  return writePng(join(dir, name), img);
}

function fill(img: RgbImage, x0: number, x1: number, y0: number, y1: number, v: number) {
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) img.data.fill(v, (y * img.width + x) * 3, (y * img.width + x) * 3 + 3);
}

describe('analyzeImage on hard cases', () => {
  it('finds a one-colour cut-out logo over a background that is light on one side and dark on the other', async () => {
    const quad = [250, 220, 700, 236, 698, 330, 248, 318];
    const file = await scene('split.png', files.flat, quad, (img) => {
      fill(img, 0, 480, 0, 540, 225);
      fill(img, 480, 960, 0, 540, 25);
    });
    const res = await analyzeImage(file, [brands.flat, brands.textured]);
    expect(res.detections.map((d) => d.brandId)).toEqual(['flat']);
    expect(maxCornerError(res.detections[0].coordinates[0].points, quad)).toBeLessThanOrEqual(4);
  });

  it('finds a logo with a player standing in front of a third of it', async () => {
    const quad = [300, 180, 620, 200, 612, 350, 296, 330];
    const file = await scene('occluded.png', files.textured, quad, undefined, (img) =>
      fill(img, 500, 610, 120, 420, 30),
    );
    const res = await analyzeImage(file, [brands.flat, brands.textured]);
    expect(res.detections.map((d) => d.brandId)).toEqual(['textured']);
    expect(maxCornerError(res.detections[0].coordinates[0].points, quad)).toBeLessThanOrEqual(4);
  });

  it('reports a wordmark as itself, not as a rival that shares half of its letters', async () => {
    const quad = [200, 240, 680, 252, 678, 352, 198, 340];
    for (const [name, rival] of [
      ['karo1', 'karo2'],
      ['karo2', 'karo1'],
    ]) {
      const file = await scene(`${name}.png`, files[name], quad);
      const res = await analyzeImage(file, [brands[rival], brands[name], brands.textured]);
      expect(res.detections.map((d) => d.brandId)).toEqual([name]);
    }
  });

  it('does not report a logo of the same design in other colours, and finds the real one', async () => {
    const quad = [300, 180, 620, 200, 612, 350, 296, 330];
    const rejected: number[] = [];
    trace.lost = (_, stage, value) => {
      if (stage === 'colour') rejected.push(value);
    };
    try {
      const fake = await analyzeImage(await scene('recoloured-scene.png', files.recoloured, quad), [
        brands.textured,
      ]);
      expect(fake.detections).toEqual([]);
      // it is the colour check that refused it: the grey checks accepted it
      expect(rejected.length).toBeGreaterThan(0);
      rejected.length = 0;
      const real = await analyzeImage(await scene('coloured-scene.png', files.textured, quad), [
        brands.textured,
      ]);
      expect(real.detections.map((d) => d.brandId)).toEqual(['textured']);
      expect(maxCornerError(real.detections[0].coordinates[0].points, quad)).toBeLessThanOrEqual(4);
      expect(rejected).toEqual([]);
    } finally {
      trace.lost = undefined;
    }
  });
});
