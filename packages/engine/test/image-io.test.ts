import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadGray } from '../src/image-io.ts';
import { tempDir } from './fixtures.ts';

describe('loadGray', () => {
  it('downscales a large still to the largest side and enlarges a small one, at most by the given factor', async () => {
    const dir = await tempDir();
    const sized = async (w: number, h: number) => {
      const file = join(dir, `${w}x${h}.png`);
      await sharp({ create: { width: w, height: h, channels: 3, background: '#5080c0' } })
        .png()
        .toFile(file);
      const img = await loadGray(file, 1920, { minSide: 1024, maxScale: 2 });
      // the grey plane and the half-size chroma planes agree with the size reported
      expect(img.data.length).toBe(img.width * img.height);
      expect(img.uv?.length).toBe(2 * Math.ceil(img.width / 2) * Math.ceil(img.height / 2));
      return [img.width, img.height, img.originalWidth, img.originalHeight];
    };
    // a 512 px product photo is analysed at 1024
    expect(await sized(512, 512)).toEqual([1024, 1024, 512, 512]);
    // enlarged towards 1024 on its long side
    expect(await sized(700, 500)).toEqual([1024, 731, 700, 500]);
    // but never more than twice
    expect(await sized(300, 200)).toEqual([600, 400, 300, 200]);
    // as it is between the two sides
    expect(await sized(1280, 720)).toEqual([1280, 720, 1280, 720]);
    expect(await sized(3000, 1500)).toEqual([1920, 960, 3000, 1500]);
    // without the option nothing is enlarged
    const small = join(dir, '512x512.png');
    const plain = await loadGray(small, 1920);
    expect([plain.width, plain.height]).toEqual([512, 512]);
  });
});
