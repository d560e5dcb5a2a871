import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { readText, useRewrittenModels, type RgbImage, type TextLine } from '../src/ocr.ts';
import { exists, framePng, SERIEA_CLIP } from './fixtures.ts';

const have = await exists(SERIEA_CLIP);

/** A frame of the Serie A clip (848x478), as RGB. */
async function frame(seconds: number): Promise<RgbImage> {
  const { data, info } = await sharp(await framePng(SERIEA_CLIP, seconds))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

async function read(img: RgbImage, rewritten: boolean): Promise<TextLine[]> {
  useRewrittenModels(rewritten);
  return readText(img, { maxSide: 640, edges: true, maxLines: 20 });
}

afterAll(() => useRewrittenModels(true));

describe.skipIf(!have)(
  'the PP-OCRv4 models as onnx-fuse.ts rewrites them, on the Serie A clip of ../shared',
  () => {
    it('read the lines of real broadcast frames as the package models do', async () => {
      let lines = 0;
      for (const seconds of [3, 6, 10]) {
        const img = await frame(seconds);
        const ours = await read(img, true);
        const original = await read(img, false);
        // the Serie A clip's boards: several lines on every frame
        expect(ours.length).toBeGreaterThanOrEqual(3);
        expect(ours.map((l) => l.text)).toEqual(original.map((l) => l.text));
        for (let i = 0; i < ours.length; i++) {
          for (let k = 0; k < 8; k++)
            expect(Math.abs(ours[i].quad[k] - original[i].quad[k])).toBeLessThan(0.5);
          expect(Math.abs(ours[i].confidence - original[i].confidence)).toBeLessThan(1e-3);
        }
        lines += ours.length;
      }
      expect(lines).toBeGreaterThanOrEqual(12);
    }, 120_000);
  },
);
