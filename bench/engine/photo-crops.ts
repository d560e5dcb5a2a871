/**
 * The shape route with examples cut from other photos, as the held-out photo set of issue 16 gives
 * them (3 crops per brand from other photos), not clean logo files: each example is a crop of one
 * adidas-puma photo round its (tightened) mark with a 15 % margin; the route alone then looks in
 * every other photo of the export. Prints, per example, the models it made, in how many other
 * photos of its brand it found something, and how many detections it made on the other brand's
 * photos (all false). `node --import tsx bench/engine/photo-crops.ts` (about 3 minutes).
 */
import sharp from 'sharp';
import { readdirSync } from 'node:fs';
import { buildBrandIndex, analyzeImage } from '../../packages/engine/src/index.ts';
import { DescriptorIndex } from '../../packages/engine/src/descriptor-index.ts';
import { shapeModels } from '../../packages/engine/src/routes/shape-route.ts';
import { DEFAULT_DETECTOR } from '../../packages/engine/src/hits.ts';
const only = {
  detector: {
    ...DEFAULT_DETECTOR,
    keypointRoute: false,
    colourRoute: false,
    textRoute: false,
    shapeRoute: true,
  },
};
// example crops from photos, as a user cuts them: the mark with ~15 % margin
const crops: [string, string, number[]][] = [
  ['adidas', 'img_a_24', [257, 263, 301, 300]],
  ['adidas', 'img_a_28', [300, 243, 375, 298]],
  ['puma', 'img_p_29', [145, 139, 440, 445]],
  ['puma', 'img_p_15', [293, 417, 341, 454]],
];
const files: Record<string, string> = {};
for (const d of ['train', 'valid', 'test']) {
  const dir = `/work/shared/data/logos/adidas-puma/${d}/images`;
  try {
    for (const n of readdirSync(dir)) if (n.endsWith('.jpg')) files[n.split('_jpg')[0]] = `${dir}/${n}`;
  } catch {
    /* none */
  }
}
for (const [brand, stem, [x0, y0, x1, y1]] of crops) {
  const m = Math.round(0.15 * Math.max(x1 - x0, y1 - y0));
  const out = `/tmp/ex-${stem}.png`;
  await sharp(files[stem])
    .extract({ left: x0 - m, top: y0 - m, width: x1 - x0 + 2 * m, height: y1 - y0 + 2 * m })
    .png()
    .toFile(out);
  const idx = await buildBrandIndex({ id: brand, name: brand, examples: [{ id: stem, file: out }] });
  const models = shapeModels(new DescriptorIndex([idx]));
  let found = 0,
    total = 0,
    fp = 0,
    others = 0;
  for (const [k, f] of Object.entries(files)) {
    if (k === stem) continue;
    const own = k.startsWith(brand === 'adidas' ? 'img_a' : 'img_p');
    const r = await analyzeImage(f, [idx], only);
    if (own) {
      total++;
      if (r.detections.length) found++;
    } else {
      others++;
      fp += r.detections.length;
    }
  }
  console.log(`  ${fp} detections on ${others} photos of the other brand`);
  console.log(
    brand,
    stem,
    'models',
    models.length,
    models.map((x) => `parts ${x.parts} blob ${x.blob.toFixed(2)}`).join('; '),
    `found in ${found}/${total} other photos of the brand`,
  );
}
