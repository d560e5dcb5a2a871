/**
 * The per-frame detector on a set that `run.ts` generated (it reads that run's clips and brand
 * indexes, so it needs no generation of its own): for each logo >= 48 px missed in some frame,
 * per sampled frame, whether it was found (F or -), what the appearance checks say at its true
 * quad (correlation, see correlate / colour residual, see chromaResidual), and for a miss the
 * stage that dropped the brand's candidate nearest the truth ([stage value iou ...], nothing when
 * no candidate came near). Separates logos whose pixels fail a check at the right place from
 * logos whose right place is never proposed. Then every false hit, and the per-frame totals.
 *
 * `ENGINE_BENCH_OUT=<dir of a run> node --import tsx bench/engine/probe-truth.ts [--seed N]`
 * (`--seed` as that run's; `PROBE_CLIPS=clip-012.mp4,clip-023.mp4` looks at those clips only)
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { deserializeBrandIndex, type BrandIndex } from '../../packages/engine/src/brand-index.ts';
import { DescriptorIndex } from '../../packages/engine/src/descriptor-index.ts';
import { chromaResidual, correlate } from '../../packages/engine/src/appearance.ts';
import { DEFAULT_DETECTOR, trace } from '../../packages/engine/src/hits.ts';
import { detectInFrame } from '../../packages/engine/src/pipeline.ts';
import { exampleToFrame, quadIoU } from '../../packages/engine/src/geometry.ts';
import { getCv } from '../../packages/engine/src/opencv.ts';
import { streamFrames } from '../../packages/engine/src/video.ts';
import { buildCatalog } from './catalog.ts';
import { CLIP_H, CLIP_W, scored, type Clip } from './generate.ts';

const { values: args } = parseArgs({ options: { seed: { type: 'string', default: '1' } } });
const OUT = process.env.ENGINE_BENCH_OUT ?? join(import.meta.dirname, '../../.bench-out/engine');
const catalog = await buildCatalog(join(OUT, 'logos'), Number(args.seed), {
  textured: 12,
  wordmarks: 10,
  icons: 180,
});
const names = catalog.slice(0, 50).map((l) => l.name);
const have = new Set(await readdir(join(OUT, 'indexes')));
const indexes: BrandIndex[] = [];
for (const n of names) {
  if (!have.has(`${n}.bin`)) throw new Error(`no index for ${n}`);
  indexes.push(deserializeBrandIndex(await readFile(join(OUT, 'indexes', `${n}.bin`))));
}
const index = new DescriptorIndex(indexes);
const clips = JSON.parse(await readFile(join(OUT, 'clips', 'truth.json'), 'utf8')) as Clip[];
const cv = await getCv();
const brandNo = new Map(names.map((n, i) => [n, i]));

const clipFilter = process.env.PROBE_CLIPS?.split(',');
// per-frame totals: logo-frames found of those scored (>= 48 px, all), hits on no logo of theirs
const total = { big: 0, bigFound: 0, all: 0, allFound: 0, falseHits: 0, falseBig: 0 };
for (const clip of clips) {
  if (clipFilter && !clipFilter.some((c) => clip.file.endsWith(c))) continue;
  const big = clip.instances;
  const rows = new Map<string, string[]>();
  for await (const frame of streamFrames(clip.file, { sampleFps: 4, width: CLIP_W, height: CLIP_H })) {
    const f = Math.round((frame.timeMs * clip.fps) / 1000);
    const todo = big.filter((i) => scored(i, f));
    const drops: { example: number; stage: string; value: number; quad?: number[] }[] = [];
    trace.lost = (example, stage, value, quad) => drops.push({ example, stage, value, quad });
    const hits = await detectInFrame(cv, frame, index, DEFAULT_DETECTOR);
    trace.lost = undefined;
    for (const h of hits) {
      const right = clip.instances.some(
        (i) =>
          f >= i.from && f < i.to && brandNo.get(i.brand) === h.brand && quadIoU(h.quad, i.quads[f]) >= 0.5,
      );
      if (right) continue;
      total.falseHits++;
      if (
        Math.min(
          ...[0, 2].map((o) => Math.hypot(h.quad[o + 2] - h.quad[o], h.quad[o + 3] - h.quad[o + 1])),
        ) >= 48
      )
        total.falseBig++;
      process.stdout.write(
        `false hit ${clip.file.split('/').pop()} f${f} ${names[h.brand]} ${h.quad.map((v) => v.toFixed(0))}\n`,
      );
    }
    for (const inst of todo) {
      const b = brandNo.get(inst.brand)!;
      const truth = inst.quads[f];
      const found = hits.some((h) => h.brand === b && quadIoU(h.quad, truth) >= 0.5);
      total.all++;
      if (found) total.allFound++;
      if (inst.size >= 48) {
        total.big++;
        if (found) total.bigFound++;
      }
      if (inst.size < 48) continue;
      const exs = index.examples.filter((e) => e.brand === b);
      const ncc = Math.max(...exs.map((e) => correlate(frame, exampleToFrame(truth, e.width, e.height), e)));
      const col = chromaResidual(frame, exampleToFrame(truth, exs[0].width, exs[0].height), exs[0]);
      const key = `${clip.file.split('/').pop()} ${inst.brand} ${inst.kind} ${inst.size.toFixed(0)}px`;
      const list = rows.get(key) ?? [];
      // for a miss: the stage that dropped this brand's candidate nearest the truth (see trace)
      const near = found
        ? undefined
        : drops
            .filter((d) => index.examples[d.example].brand === b && d.quad)
            .map((d) => ({ d, iou: quadIoU(d.quad!, truth) }))
            .sort((x, y) => y.iou - x.iou)[0];
      const why =
        near && near.iou > 0.1
          ? `[${near.d.stage} ${near.d.value.toFixed(2)} iou ${near.iou.toFixed(2)}]`
          : '';
      list.push(`${found ? 'F' : '-'}${ncc.toFixed(2)}/${col === null ? 'na' : col.toFixed(0)}${why}`);
      rows.set(key, list);
    }
  }
  for (const [k, v] of rows)
    if (v.some((s) => s.startsWith('-'))) process.stdout.write(`${k}: ${v.join(' ')}\n`);
}
process.stdout.write(`TOTAL ${JSON.stringify(total)}\n`);
