/**
 * Step 1 of the learned route's recipe (see README.md): renders the simple-icons brand marks as
 * grey masks (white on black, 96 px on their long side) into the training cache. Brands that the
 * team's real set or the held-out real data may show are left out, so that the model never sees
 * the logos it is scored on.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import { EXCLUDED_BRANDS } from './excluded.ts';

const require = createRequire(import.meta.url);
const icons = require('simple-icons') as Record<string, { slug: string; title: string; svg: string }>;

const out = join(import.meta.dirname, '../../.cache/learned/icons');
await mkdir(out, { recursive: true });
let n = 0;
let skipped = 0;
for (const icon of Object.values(icons)) {
  if (typeof icon !== 'object' || !icon.svg) continue;
  if (EXCLUDED_BRANDS.test(icon.slug) || EXCLUDED_BRANDS.test(icon.title)) {
    skipped++;
    continue;
  }
  const svg = icon.svg.replace('<svg ', '<svg fill="#fff" width="96" height="96" ');
  const png = await sharp(Buffer.from(svg), { density: 300 })
    .resize(96, 96, { fit: 'inside' })
    .flatten({ background: '#000' })
    .greyscale()
    .png()
    .toBuffer();
  await writeFile(join(out, `${icon.slug}.png`), png);
  n++;
}
console.log(`rendered ${n} icons into ${out} (${skipped} excluded)`);
