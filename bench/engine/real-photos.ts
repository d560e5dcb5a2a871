/**
 * The real set's photos scored as the held-out photo set of issue 16 is scored: each brand's
 * examples are 3 crops of its logo cut from other photos, not clean logo files.
 *
 * `node --import tsx bench/engine/real-photos.ts [--brands 50] [--out .bench-out/engine/real-photos]
 *  [--engine <tree>] [--detector '{...}'] [--margin 0.15]`
 *
 * `real.ts` gives each photo brand a clean example (a logohunter template, a simple-icons SVG),
 * while the held-out set gives 3 crops per brand from other photos: a worn, lit, foreshortened
 * mark with some of its ground around it. Here every brand whose logo is labelled clearly in at
 * least 4 photos (Adidas and Puma, in the adidas-puma export) is scored that way, leave one out:
 * for each photo, the brand's examples are the 3 largest clear labelled instances of other photos,
 * cut as a user cuts an example (the quad's box with a 15 % margin). The other photo brands keep
 * their files, and distractors of the generated catalogue fill the index up to `--brands` (the
 * footage brands are left out: their examples are cut from encodes that real.ts makes). Every
 * photo of the set is analysed, so the crop brands' detections in the photos that do not show them
 * count as false. The same photos are also scored with the brands' own files, in the same run, for
 * the side-by-side figure. A detection matches a label of its brand at polygon IoU >= 0.5; a
 * difficult label is neither a miss nor makes a detection false.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { SHARED } from './catalog.ts';
import { distractorLogos, squash } from './real-set/distractors.ts';
import type { Frame, Quad, Truth } from './real-set/truth.ts';

const { values: args } = parseArgs({
  options: {
    brands: { type: 'string', default: '50' },
    out: { type: 'string', default: '.bench-out/engine/real-photos' },
    engine: { type: 'string' },
    detector: { type: 'string' },
    margin: { type: 'string', default: '0.15' },
  },
});
const ROOT = resolve(import.meta.dirname, '../..');
type Engine = typeof import('../../packages/engine/src/index.ts');
const engine = (await import(join(resolve(args.engine ?? ROOT), 'packages/engine/src/index.ts'))) as Engine;
type BrandIndex = Awaited<ReturnType<Engine['buildBrandIndex']>>;
const detector = args.detector ? (JSON.parse(args.detector) as Record<string, unknown>) : undefined;
const OUT = resolve(args.out);
await mkdir(OUT, { recursive: true });

/** Examples per brand, as the held-out set gives them. */
const CROPS = 3;
/** Margin round the labelled quad's box, as a share of its long side (`--margin`). */
const MARGIN = Number(args.margin);

const truth = JSON.parse(await readFile(join(import.meta.dirname, 'real-set/truth.json'), 'utf8')) as Truth;
const photos = truth.frames.filter((f) => f.file);
const clear = (brand: string) =>
  photos.flatMap((f) => f.instances.filter((i) => i.brand === brand && !i.difficult).map((i) => ({ f, i })));
const side = (q: Quad) =>
  Math.min(Math.hypot(q[2] - q[0], q[3] - q[1]), Math.hypot(q[6] - q[0], q[7] - q[1]));
const cropBrands = truth.brands
  .map((b) => b.name)
  .filter((name) => new Set(clear(name).map((x) => x.f)).size >= CROPS + 1);
const photoBrands = new Set(photos.flatMap((f) => f.instances.map((i) => i.brand)));

// the photo brands that keep their files, then distractors (as real.ts picks them)
const fileIndexes = new Map<string, BrandIndex>();
for (const b of truth.brands.filter((x) => photoBrands.has(x.name))) {
  const files = b.examples.map((e) =>
    e.package ? join(ROOT, 'node_modules', e.package, e.file!) : join(SHARED, e.file!),
  );
  fileIndexes.set(
    b.name,
    await engine.buildBrandIndex({
      id: b.name,
      name: b.name,
      examples: files.map((file, k) => ({ id: `${b.name}-${k}`, file })),
    }),
  );
}
const setFiles = new Set(
  truth.brands.flatMap((b) =>
    b.examples.filter((e) => e.file && !e.package).map((e) => join(SHARED, e.file!)),
  ),
);
const distractors: BrandIndex[] = [];
for (const l of await distractorLogos(truth, setFiles, join(OUT, 'logos'))) {
  if (fileIndexes.size + distractors.length >= Number(args.brands)) break;
  distractors.push(
    await engine.buildBrandIndex({ id: l.name, name: l.name, examples: [{ id: l.name, file: l.file }] }),
  );
}

/** A crop brand's index from its 3 largest clear labels outside `photo`, built once per set of crops. */
const cropIndexes = new Map<string, BrandIndex>();
const cropsUsed = new Map<string, string[]>();
async function cropIndex(brand: string, photo: Frame): Promise<BrandIndex> {
  const picks = clear(brand)
    .filter((x) => x.f !== photo)
    .sort((a, b) => side(b.i.quad) - side(a.i.quad) || a.f.file!.localeCompare(b.f.file!))
    .slice(0, CROPS);
  const key = `${brand}|${picks.map((p) => `${p.f.file}@${p.i.quad.join(',')}`).join('|')}`;
  let index = cropIndexes.get(key);
  if (!index) {
    const examples = [];
    for (const [k, { f, i }] of picks.entries()) {
      const xs = i.quad.filter((_, j) => j % 2 === 0);
      const ys = i.quad.filter((_, j) => j % 2 === 1);
      const m = MARGIN * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
      const left = Math.max(0, Math.floor(Math.min(...xs) - m));
      const top = Math.max(0, Math.floor(Math.min(...ys) - m));
      const right = Math.min(f.width, Math.ceil(Math.max(...xs) + m));
      const bottom = Math.min(f.height, Math.ceil(Math.max(...ys) + m));
      const file = join(OUT, `${squash(brand)}-${cropIndexes.size}-${k}.png`);
      await sharp(join(SHARED, f.file!))
        .rotate()
        .extract({ left, top, width: right - left, height: bottom - top })
        .png()
        .toFile(file);
      examples.push({ id: `${brand}-crop-${k}`, file });
    }
    index = await engine.buildBrandIndex({ id: brand, name: brand, examples });
    cropIndexes.set(key, index);
    cropsUsed.set(
      key,
      picks.map((p) => `${p.f.file!.split('/').pop()!.slice(0, 9)} (${Math.round(side(p.i.quad))} px)`),
    );
  }
  return index;
}

interface Tally {
  tp: number;
  fp: number;
  fn: number;
}
const tallies = { crops: new Map<string, Tally>(), files: new Map<string, Tally>() };
const tally = (m: Map<string, Tally>, k: string) => {
  let t = m.get(k);
  if (!t) m.set(k, (t = { tp: 0, fp: 0, fn: 0 }));
  return t;
};
const misses: string[] = [];
const falses: string[] = [];
for (const f of photos) {
  for (const way of ['crops', 'files'] as const) {
    const indexes = [
      ...(await Promise.all(
        [...fileIndexes].map(([name, index]) =>
          way === 'crops' && cropBrands.includes(name) ? cropIndex(name, f) : index,
        ),
      )),
      ...distractors,
    ];
    const res = await engine.analyzeImage(join(SHARED, f.file!), indexes, detector ? { detector } : {});
    const dets = res.detections.map((d) => ({ brand: String(d.brandId), quad: d.coordinates[0].points }));
    const used = new Set<number>();
    for (const inst of f.instances.filter((i) => cropBrands.includes(i.brand))) {
      let best = -1;
      let bestIoU = 0.5;
      dets.forEach((d, k) => {
        if (used.has(k) || d.brand !== inst.brand) return;
        const iou = engine.quadIoU(d.quad, inst.quad);
        if (iou >= bestIoU) [best, bestIoU] = [k, iou];
      });
      if (best >= 0) used.add(best);
      if (inst.difficult) continue;
      for (const k of [inst.brand, 'all']) tally(tallies[way], k)[best >= 0 ? 'tp' : 'fn']++;
      if (best < 0 && way === 'crops')
        misses.push(
          `${f.file!.split('/').pop()!.slice(0, 9)}: ${inst.brand} (${Math.round(side(inst.quad))} px)`,
        );
    }
    dets.forEach((d, k) => {
      if (used.has(k) || !cropBrands.includes(d.brand)) return;
      for (const b of [d.brand, 'all']) tally(tallies[way], b).fp++;
      if (way === 'crops') falses.push(`${f.file!.split('/').pop()!.slice(0, 9)}: ${d.brand}`);
    });
  }
}

const prf = (t: Tally) => {
  const p = t.tp / Math.max(1, t.tp + t.fp);
  const r = t.tp / Math.max(1, t.tp + t.fn);
  return `${t.tp} / ${t.fp} / ${t.fn} | ${p.toFixed(3)} | ${r.toFixed(3)} | ${(p + r > 0 ? (2 * p * r) / (p + r) : 0).toFixed(3)}`;
};
console.log(
  `Real photos, examples cut from other photos (leave one out, ${CROPS} crops a brand): ${cropBrands.join(', ')}; ${photos.length} photos, ${fileIndexes.size + distractors.length} brands`,
);
console.log();
console.log('| brand | examples | TP / FP / FN | precision | recall | F1 |');
console.log('|---|---|---|---|---|---|');
for (const k of [...cropBrands, 'all'])
  for (const way of ['crops', 'files'] as const)
    console.log(
      `| ${k} | ${way === 'crops' ? '3 crops of other photos' : 'its files'} | ${prf(tally(tallies[way], k))} |`,
    );
console.log();
console.log(
  `Crops used: ${[...cropsUsed.entries()].map(([k, v]) => `${k.split('|')[0]}: ${v.join(', ')}`).join('; ')}`,
);
console.log(`Missed with crops: ${misses.join('; ') || 'none'}`);
console.log(`False with crops: ${falses.join('; ') || 'none'}`);
