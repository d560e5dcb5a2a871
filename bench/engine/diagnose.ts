/**
 * Per-frame diagnosis of the detector on the generated set: for every sampled frame and every
 * logo in it, whether the single-frame detector finds it, and if not, at which stage it is lost:
 *
 * - `features`: fewer than 8 frame keypoints inside the logo have a brand keypoint at the true
 *   place (through the true homography, within 6 px) with a descriptor within Hamming 64;
 * - `matching`: such correspondences exist but fewer than 8 survive the shared matcher;
 * - `geometry`: enough true matches survive but no verified hit of the brand overlaps the truth.
 *
 * `node --import tsx bench/engine/diagnose.ts [--clips N] [--seed N] [--icons N]`. Tracking is not involved;
 * this is the per-frame floor that tracks fill between.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBrandIndex, type BrandIndex } from '../../packages/engine/src/brand-index.ts';
import { DescriptorIndex } from '../../packages/engine/src/descriptor-index.ts';
import { DEFAULT_DETECTOR, trace } from '../../packages/engine/src/hits.ts';
import { detectInFrame } from '../../packages/engine/src/pipeline.ts';
import { frameFeatures } from '../../packages/engine/src/routes/keypoint-route.ts';
import { applyH, exampleToFrame, quadIoU } from '../../packages/engine/src/geometry.ts';
import { getCv } from '../../packages/engine/src/opencv.ts';
import { streamFrames } from '../../packages/engine/src/video.ts';
import { buildCatalog } from './catalog.ts';
import { BUCKETS } from './evaluate.ts';
import { CLIP_H, CLIP_W, generateClips, scored } from './generate.ts';

const { values: args } = parseArgs({
  options: {
    clips: { type: 'string', default: '12' },
    seed: { type: 'string', default: '1' },
    // 180 gives the catalogue of the full benchmark run (and so its clips with --clips 40)
    icons: { type: 'string', default: '40' },
    // detector options over the defaults, as JSON (for comparing settings)
    opts: { type: 'string', default: '{}' },
  },
});
const seed = Number(args.seed);
const detector = { ...DEFAULT_DETECTOR, ...(JSON.parse(args.opts!) as Partial<typeof DEFAULT_DETECTOR>) };
const OUT = process.env.DIAG_OUT ?? join(import.meta.dirname, '../../.bench-out/engine-diag');
const log = (s: string) => process.stderr.write(`${s}\n`);

const catalog = await buildCatalog(join(OUT, 'logos'), seed, {
  textured: 12,
  wordmarks: 10,
  icons: Number(args.icons),
});
const brands = catalog.slice(0, 50);
const indexes: BrandIndex[] = [];
for (const l of brands)
  indexes.push(await buildBrandIndex({ id: l.name, name: l.name, examples: [{ id: l.name, file: l.file }] }));
const clips = await generateClips(join(OUT, 'clips'), brands, Number(args.clips), seed);
const cv = await getCv();
const index = new DescriptorIndex(indexes);
const brandNo = new Map(brands.map((l, i) => [l.name, i]));

type Stage = 'found' | 'features' | 'matching' | 'geometry';
const tally = new Map<string, Record<Stage, number>>();
const add = (key: string, stage: Stage) => {
  if (!tally.has(key)) tally.set(key, { found: 0, features: 0, matching: 0, geometry: 0 });
  tally.get(key)![stage]++;
};
const why: Record<string, number> = {};
const geo: Record<string, number> = {};
type Feats = ReturnType<typeof frameFeatures>;

/**
 * True correspondences of brand `b` in a frame where its logo is at `truth`: for each frame
 * keypoint, the brand keypoint nearest in descriptor (Hamming <= 64) among those that the true
 * homography maps within 6 px of it.
 */
function trueCorrespondences(b: number, truth: number[], feats: Feats, words: Uint32Array) {
  const pairs = new Map<number, { t: number; d: number }>();
  const isTrue = new Set<string>();
  for (const e of index.examples.filter((x) => x.brand === b)) {
    const H = exampleToFrame(truth, e.width, e.height);
    for (let t = e.start; t < e.end; t++) {
      const [px, py] = applyH(H, index.xy[t * 2], index.xy[t * 2 + 1]);
      for (let q = 0; q < feats.count; q++) {
        if (Math.hypot(feats.xy[q * 2] - px, feats.xy[q * 2 + 1] - py) > 6) continue;
        isTrue.add(`${q}:${t}`);
        const d = index.distance(words, q, t);
        const cur = pairs.get(q);
        if (d <= 64 && (!cur || d < cur.d)) pairs.set(q, { t, d });
      }
    }
  }
  return { pairs, isTrue: (q: number, t: number) => isTrue.has(`${q}:${t}`) };
}

/** For a logo lost in matching: what the exact nearest neighbour of each truly matchable keypoint was. */
function explainMatching(b: number, pairs: Map<number, { t: number; d: number }>, words: Uint32Array) {
  for (const [q, { t: trueT, d: trueD }] of pairs) {
    let otherBrand = 999;
    let sameWrong = 999;
    const ex = index.examples[index.exampleOf[trueT]];
    for (let t = 0; t < index.count; t++) {
      const d = index.distance(words, q, t);
      if (index.brandOf[t] !== b) otherBrand = Math.min(otherBrand, d);
      else if (
        d < trueD &&
        index.exampleOf[t] === index.exampleOf[trueT] &&
        Math.hypot(index.xy[t * 2] - index.xy[trueT * 2], index.xy[t * 2 + 1] - index.xy[trueT * 2 + 1]) >
          0.06 * Math.max(ex.width, ex.height)
      )
        sameWrong = Math.min(sameWrong, d);
    }
    const k =
      otherBrand < trueD
        ? 'other brand nearer'
        : sameWrong < trueD
          ? 'same logo elsewhere nearer'
          : 'true pair nearest (lost to LSH or to the slack)';
    why[k] = (why[k] ?? 0) + 1;
    const band = `d ${Math.floor(trueD / 10) * 10}s`;
    why[band] = (why[band] ?? 0) + 1;
  }
}
let frames = 0;
let falseHits = 0;
// logo-frames of >= 48 px per instance, and how many of them the detector found
const perInstance = new Map<string, { frames: number; found: number }>();
// colour residual (see chromaResidual) of the hits that are right and of the false ones
const colourTrue: number[] = [];
const colourFalse: number[] = [];
let ms = 0;
for (const clip of clips) {
  for await (const frame of streamFrames(clip.file, { sampleFps: 4, width: CLIP_W, height: CLIP_H })) {
    const f = Math.round((frame.timeMs * clip.fps) / 1000);
    const t0 = performance.now();
    const drops: { example: number; stage: string; value: number; quad?: number[] }[] = [];
    trace.lost = (example, stage, value, quad) => drops.push({ example, stage, value, quad });
    const colourOf = new Map<string, number>();
    trace.colour = (_, residual, quad) => colourOf.set(quad.join(), residual);
    const hits = await detectInFrame(cv, frame, index, detector);
    trace.lost = undefined;
    trace.colour = undefined;
    ms += performance.now() - t0;
    frames++;
    const feats = frameFeatures(cv, frame, detector);
    const words = new Uint32Array(feats.desc.buffer, feats.desc.byteOffset, feats.count * 8);
    const matches = index.match(feats, 64, detector.brandsPerKeypoint);
    for (const h of hits) {
      const ok = clip.instances.some(
        (i) =>
          f >= i.from && f < i.to && brandNo.get(i.brand) === h.brand && quadIoU(h.quad, i.quads[f]) >= 0.5,
      );
      const residual = colourOf.get(h.quad.join()) ?? -1;
      (ok ? colourTrue : colourFalse).push(residual);
      if (ok && residual > 12 && process.env.DIAG_VERBOSE) {
        const inst = clip.instances.find((i) => f >= i.from && f < i.to && brandNo.get(i.brand) === h.brand)!;
        log(
          `right hit with colour ${residual.toFixed(1)}: ${clip.file} f${f} ${inst.brand} ${inst.kind} ${inst.size.toFixed(0)} px`,
        );
      }
      if (!ok) {
        falseHits++;
        const over = clip.instances.find((i) => f >= i.from && f < i.to && quadIoU(h.quad, i.quads[f]) > 0);
        if (process.env.DIAG_VERBOSE)
          log(
            `false hit f${f} ${brands[h.brand].name} colour ${residual.toFixed(1)} score ${h.score.toFixed(2)} inl ${h.inliers} over ${over?.brand ?? '-'} ${h.quad.map((v) => v.toFixed(0))}`,
          );
      }
    }
    for (const inst of clip.instances) {
      if (!scored(inst, f)) continue;
      const truth = inst.quads[f];
      const b = brandNo.get(inst.brand)!;
      const bucket = BUCKETS.find(([, lo, hi]) => inst.size >= lo && inst.size < hi)![0];
      const keys = [`size ${bucket}`, `kind ${inst.kind}`, inst.size >= 48 ? '>= 48 px' : '< 48 px'];
      const record = (s: Stage) => keys.forEach((k) => add(k, s));
      const inst48 = `${clip.file} ${inst.brand} ${inst.from}`;
      if (inst.size >= 48) {
        const r = perInstance.get(inst48) ?? { frames: 0, found: 0 };
        r.frames++;
        perInstance.set(inst48, r);
      }
      if (hits.some((h) => h.brand === b && quadIoU(h.quad, truth) >= 0.5)) {
        if (inst.size >= 48) perInstance.get(inst48)!.found++;
        record('found');
        continue;
      }
      // true correspondences available at all, and those that the matcher kept
      const truePairs = trueCorrespondences(b, truth, feats, words);
      const possible = truePairs.pairs.size;
      const kept = new Set(matches.filter((m) => truePairs.isTrue(m.q, m.t)).map((m) => m.q)).size;
      const stage = possible < 8 ? 'features' : kept < 8 ? 'matching' : 'geometry';
      record(stage);
      if (stage === 'matching' && process.env.DIAG_EXPLAIN !== '0')
        explainMatching(b, truePairs.pairs, words);
      if (stage === 'geometry') {
        const mine = drops.filter((d) => index.examples[d.example].brand === b);
        const near = mine.find((d) => d.quad && quadIoU(d.quad, truth) > 0.3);
        const k = near
          ? `${near.stage} near truth (${near.value.toFixed(2)})`
          : mine.length
            ? `${mine[0].stage} (${mine[0].value.toFixed(0)})`
            : 'no candidate';
        const key = `${inst.kind} ${bucket}: ${k}`;
        geo[key] = (geo[key] ?? 0) + 1;
        if (process.env.DIAG_VERBOSE)
          log(
            `${clip.file} f${f} ${inst.brand} ${key} truth ${truth.map((v) => v.toFixed(0))} got ${(near ?? mine[0])?.quad?.map((v) => v.toFixed(0))}`,
          );
      }
    }
  }
}
process.stdout.write(`geometry losses: ${JSON.stringify(geo, null, 1)}\n`);
const pct = (xs: number[]) => {
  const s = xs.filter((x) => x >= 0).sort((a, b) => a - b);
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1) : '-');
  return `n ${s.length}, p50 ${at(0.5)}, p90 ${at(0.9)}, p95 ${at(0.95)}, p99 ${at(0.99)}, max ${at(1)}; sorted: ${s.map((x) => x.toFixed(0)).join(' ')}`;
};
process.stdout.write(`colour residual of right hits: ${pct(colourTrue)}\n`);
process.stdout.write(`colour residual of false hits: ${pct(colourFalse)}\n`);
process.stdout.write(`matching losses, per true correspondence: ${JSON.stringify(why)}\n`);
{
  const v = [...perInstance.values()];
  const sum = (xs: typeof v, f: (r: (typeof v)[0]) => number) => xs.reduce((s, r) => s + f(r), 0);
  const none = v.filter((r) => r.found === 0);
  const some = v.filter((r) => r.found > 0);
  for (const [k, r] of perInstance)
    if (r.found === 0) process.stdout.write(`never found: ${k} (${r.frames} frames)\n`);
  process.stdout.write(
    `>= 48 px logo-frames by instance: ${sum(none, (r) => r.frames)} in ${none.length} instances never found, ` +
      `${sum(some, (r) => r.frames)} in ${some.length} instances found in ${sum(some, (r) => r.found)} of them\n`,
  );
}
const rows = [...tally].sort((a, b) => a[0].localeCompare(b[0]));
process.stdout.write(
  `Per-frame diagnosis, ${clips.length} clips (seed ${seed}), ${frames} frames, detector ${(ms / frames).toFixed(0)} ms/frame, false hits ${falseHits}\n\n` +
    '| logos | n | found | lost: features | lost: matching | lost: geometry/verify |\n|---|---|---|---|---|---|\n' +
    rows
      .map(([k, t]) => {
        const n = t.found + t.features + t.matching + t.geometry;
        const p = (x: number) => `${x} (${((100 * x) / n).toFixed(0)}%)`;
        return `| ${k} | ${n} | ${p(t.found)} | ${p(t.features)} | ${p(t.matching)} | ${p(t.geometry)} |`;
      })
      .join('\n') +
    '\n',
);
log('done');
