/**
 * Engine benchmark: accuracy on a generated labelled set and on real labelled photos, throughput
 * at 720p/1080p with 10/50/200 brands next to ffmpeg's own decode time, peak memory, and PNG
 * renders for checking by eye. `node --import tsx bench/engine/run.ts [--quick] [--seed N]`
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import {
  analyzeImage,
  analyzeVideo,
  buildBrandIndex,
  DEFAULT_ANALYSIS_HEIGHT,
  DEFAULT_SAMPLE_FPS,
  ENGINE_VERSION,
  quadIoU,
  serializeBrandIndex,
  type BrandIndex,
} from '../../packages/engine/src/index.ts';
import { buildCatalog, SHARED } from './catalog.ts';
import { BUCKETS, pr, scoreClip, Scores, type Tally } from './evaluate.ts';
import { CLIP_FPS, CLIP_H, CLIP_W, generateClips } from './generate.ts';
import { broadcastVideo, realFootage } from './real-footage.ts';
import { renderFrame } from './render.ts';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    'sample-fps': { type: 'string' },
    'analysis-height': { type: 'string' },
    'skip-throughput': { type: 'boolean', default: false },
    sweep: { type: 'boolean', default: false },
  },
});
const quick = args.quick!;
const seed = Number(args.seed);
const sampleFps = Number(args['sample-fps'] ?? DEFAULT_SAMPLE_FPS);
const analysisHeight = Number(args['analysis-height'] ?? DEFAULT_ANALYSIS_HEIGHT);
const ROOT = join(import.meta.dirname, '../..');
const OUT = process.env.ENGINE_BENCH_OUT ?? join(ROOT, '.bench-out/engine');
const log = (s: string) => process.stderr.write(`${s}\n`);
const t00 = performance.now();

await mkdir(join(OUT, 'indexes'), { recursive: true });

// 1. catalogue and brand indexes (activation)
const catalog = await buildCatalog(join(OUT, 'logos'), seed, {
  textured: 12,
  wordmarks: 10,
  icons: quick ? 40 : 180,
});
const all = catalog.slice(0, quick ? 60 : 200);
const accuracyBrands = all.slice(0, 50);
const kindOf = new Map(all.map((l) => [l.name, l.kind]));
log(
  `catalogue: ${all.length} logos (${['textured', 'flat icon', 'wordmark'].map((k) => `${all.filter((l) => l.kind === k).length} ${k}`).join(', ')})`,
);
const indexes = new Map<string, BrandIndex>();
const indexFiles = new Map<string, string>();
const tIndex = performance.now();
for (const [i, l] of all.entries()) {
  const b = await buildBrandIndex({ id: l.name, name: l.name, examples: [{ id: l.name, file: l.file }] });
  indexes.set(l.name, b);
  const f = join(OUT, 'indexes', `${l.name}.bin`);
  await writeFile(f, serializeBrandIndex(b));
  indexFiles.set(l.name, f);
  if ((i + 1) % 50 === 0) log(`  indexed ${i + 1}/${all.length}`);
}
const msPerBrand = (performance.now() - tIndex) / all.length;
const keypointsPerBrand = [...indexes.values()].reduce((s, b) => s + b.count, 0) / indexes.size;

// 2. generated labelled set
const nClips = quick ? 10 : 40;
log(`generating ${nClips} clips (seed ${seed})`);
const clips = await generateClips(
  join(OUT, 'clips'),
  accuracyBrands,
  nClips,
  seed,
  (i) => i % 10 === 0 && log(`  ${i}/${nClips}`),
);
const brands50 = accuracyBrands.map((l) => indexes.get(l.name)!);

// --sweep: accuracy and cost of the generated set under several sampling settings, then stop.
if (args.sweep) {
  const rows: string[] = [
    '| sampleFps | analysisHeight | prec. >= 48 | recall >= 48 | recall all | CPU s per video s |',
    '|---|---|---|---|---|---|',
  ];
  for (const [fps, height] of [
    [2, 720],
    [4, 720],
    [4, 540],
    [6, 720],
  ]) {
    const sc = new Scores();
    const c0 = process.cpuUsage();
    let secs = 0;
    for (const clip of clips) {
      // main thread only: per-clip worker start-up would dominate the CPU of 3 s clips
      const res = await analyzeVideo(clip.file, brands50, {
        sampleFps: fps,
        analysisHeight: height,
        workers: 0,
      });
      secs += clip.frames / clip.fps;
      scoreClip(clip, res, fps, (b) => kindOf.get(b) ?? 'textured', sc);
    }
    const c = process.cpuUsage(c0);
    const l = pr(sc.large);
    rows.push(
      `| ${fps} | ${height} | ${l.p} | ${l.r} | ${pr(sc.all).r} | ${((c.user + c.system) / 1e6 / secs).toFixed(2)} |`,
    );
    log(rows[rows.length - 1]);
  }
  process.stdout.write(`${rows.join('\n')}\n(detection on the main thread; CPU excludes ffmpeg)\n`);
  process.exit(0);
}
const scores = new Scores();
let analysedSeconds = 0;
const tAcc = performance.now();
for (const [ci, clip] of clips.entries()) {
  const res = await analyzeVideo(clip.file, brands50, { sampleFps, analysisHeight });
  analysedSeconds += clip.frames / clip.fps;
  scoreClip(clip, res, sampleFps, (b) => kindOf.get(b) ?? 'textured', scores);
  if (ci < 4) await renderClip(clip, res, ci);
}
const accWall = (performance.now() - tAcc) / 1000;

async function renderClip(
  clip: (typeof clips)[number],
  res: Awaited<ReturnType<typeof analyzeVideo>>,
  ci: number,
) {
  const t = 1500;
  const f = Math.round((t * clip.fps) / 1000);
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      clip.file,
      '-vf',
      `select=eq(n\\,${f})`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 26 },
  );
  const items = [
    ...clip.instances
      .filter((i) => f >= i.from && f < i.to)
      .map((i) => ({ q: i.quads[f], label: `truth ${i.brand}`, color: '#30ff30' })),
    ...res.detections.flatMap((d) => {
      const s = d.coordinates.find((c) => c.start_time <= t && t < c.end_time);
      return s ? [{ q: s.points, label: `${d.brandId} ${d.confidence.toFixed(2)}`, color: '#ff3030' }] : [];
    }),
  ];
  await renderFrame(new Uint8Array(stdout), CLIP_W, CLIP_H, items, join(OUT, `generated-${ci}.png`));
}

// 3. real labelled photos (adidas / puma, YOLO boxes)
const ap = await adidasPuma();

async function adidasPuma(): Promise<{ tally: Tally; images: number }> {
  const icons = join(ROOT, 'node_modules/simple-icons/icons');
  const hunter = join(SHARED, 'logos/logohunter/test_brands');
  const [adidas, puma] = await Promise.all([
    buildBrandIndex({
      id: 0,
      name: 'Adidas',
      examples: [
        { id: 'si', file: join(icons, 'adidas.svg') },
        { id: 'lh', file: join(hunter, 'test_adidas1.png') },
      ],
    }),
    buildBrandIndex({
      id: 1,
      name: 'Puma',
      examples: [
        { id: 'si', file: join(icons, 'puma.svg') },
        { id: 'lh', file: join(hunter, 'test_puma.png') },
        { id: 'lh1', file: join(hunter, 'test_puma1.png') },
      ],
    }),
  ]);
  const tally: Tally = { tp: 0, fp: 0, fn: 0 };
  let images = 0;
  for (const split of ['test', 'valid']) {
    const dir = join(SHARED, 'logos/adidas-puma', split);
    for (const img of (await readdir(join(dir, 'images'))).sort()) {
      images++;
      const res = await analyzeImage(join(dir, 'images', img), [adidas, puma]);
      const label = await readFile(join(dir, 'labels', img.replace(/\.jpg$/, '.txt')), 'utf8').catch(
        () => '',
      );
      const truths = label
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [c, cx, cy, w, h] = l.trim().split(/\s+/).map(Number);
          const [x0, y0, x1, y1] = [
            (cx - w / 2) * res.width,
            (cy - h / 2) * res.height,
            (cx + w / 2) * res.width,
            (cy + h / 2) * res.height,
          ];
          return { c, q: [x0, y0, x1, y0, x1, y1, x0, y1], used: false };
        });
      for (const d of res.detections) {
        const g = truths.find(
          (t) => !t.used && t.c === d.brandId && quadIoU(t.q, d.coordinates[0].points) >= 0.5,
        );
        if (g) {
          g.used = true;
          tally.tp++;
        } else tally.fp++;
      }
      tally.fn += truths.filter((t) => !t.used).length;
    }
  }
  return { tally, images };
}

// 4. real footage, by eye
log('real footage renders');
const realLines = await realFootage(OUT);

// 5. throughput
interface Tp {
  res: string;
  brands: number;
  wall: number;
  cpu: number;
  duration: number;
  maxRssMb: number;
  decode: number;
}
const tps: Tp[] = [];
const loadAtThroughput = loadavg()
  .map((v) => v.toFixed(1))
  .join(' ');
if (!args['skip-throughput']) {
  // A minute: analyses of real footage (matches) are long, and the detector threads' start-up
  // (about a second: OpenCV's WASM, the index) is part of every analysis; on a few seconds of
  // video it would be most of the time.
  const seconds = quick ? 6 : 60;
  for (const [res, w, h] of [
    ['720p', 1280, 720],
    ['1080p', 1920, 1080],
  ] as const) {
    const video = join(OUT, `throughput-${res}.mp4`);
    await broadcastVideo(video, seconds, w, h);
    const ah = Math.min(analysisHeight, h);
    const aw = Math.round((w * ah) / h / 2) * 2;
    const t0 = performance.now();
    await run('ffmpeg', [
      '-v',
      'error',
      '-nostdin',
      '-i',
      video,
      '-map',
      '0:v:0',
      '-vf',
      // the engine's own decode (streamFrames): sampled, scaled, full-range yuv420p
      `fps=${sampleFps}:round=up,scale=${aw}:${ah}:flags=area:out_range=full`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-y',
      '/dev/null',
    ]);
    const decode = (performance.now() - t0) / 1000;
    for (const n of [10, 50, 200]) {
      if (n > all.length) continue;
      const list = join(OUT, `brands-${n}.json`);
      await writeFile(list, JSON.stringify(all.slice(0, n).map((l) => indexFiles.get(l.name))));
      const out = await worker([video, list, String(sampleFps), String(analysisHeight)]);
      tps.push({ res, brands: n, decode, ...out });
      log(`  ${res} ${n} brands: ${(out.duration / out.wall).toFixed(2)}x real time`);
    }
  }
}

function worker(argv: string[]): Promise<{ wall: number; cpu: number; duration: number; maxRssMb: number }> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'throughput-worker.ts'), ...argv],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (c) => (c === 0 ? resolve(JSON.parse(out)) : reject(new Error(`worker exit ${c}`))));
  });
}

// 6. report
const lines: string[] = [];
const say = (s = '') => lines.push(s);
const row = (name: string, t: Tally) => {
  const { p, r } = pr(t);
  say(
    `| ${name.padEnd(14)} | ${String(t.tp + t.fn).padStart(6)} | ${String(t.tp).padStart(5)} | ${String(t.fp).padStart(5)} | ${String(t.fn).padStart(5)} | ${p} | ${r} |`,
  );
};
say(
  `Engine ${ENGINE_VERSION} benchmark (${quick ? 'quick' : 'full'}, seed ${seed}); sampleFps ${sampleFps}, analysisHeight ${analysisHeight}`,
);
say();
say(
  `Generated set: ${clips.length} clips x 3 s at ${CLIP_W}x${CLIP_H} from real footage, ${clips.reduce((s, c) => s + c.instances.length, 0)} logo instances, 50 brands indexed;`,
);
say(`scored at each sampled frame (${sampleFps} fps), polygon IoU >= 0.5; size = logo's short side in px;`);
say(
  `${clips.reduce((s, c) => s + c.instances.reduce((t, i) => t + (i.hidden?.length ?? 0), 0), 0)} of ${clips.reduce((s, c) => s + c.instances.reduce((t, i) => t + i.to - i.from, 0), 0)} logo-frames (at ${CLIP_FPS} fps) not scored: drawn but not visible (see generate.ts)`,
);
say();
say('| size / kind    | truths |    TP |    FP |    FN | prec. | recall |');
say('|----------------|--------|-------|-------|-------|-------|--------|');
for (const [b] of BUCKETS) if (scores.byBucket.has(b)) row(`${b} px`, scores.byBucket.get(b)!);
for (const k of ['textured', 'flat icon', 'wordmark'])
  if (scores.byKind.has(k)) row(k, scores.byKind.get(k)!);
row('>= 48 px', scores.large);
row('all', scores.all);
say();
const apr = pr(ap.tally);
say(
  `Real photos logos/adidas-puma (${ap.images} images, YOLO boxes, IoU >= 0.5): TP ${ap.tally.tp}, FP ${ap.tally.fp}, FN ${ap.tally.fn}, precision ${apr.p}, recall ${apr.r}`,
);
say();
if (tps.length) {
  say(
    'Throughput (seriea-broadcast upscaled, h264; x = seconds of video per wall second; ffmpeg = decode+sample+scale alone)',
  );
  say();
  say(`(load average at start of throughput: ${loadAtThroughput}; other processes share the 2 cores)`);
  say();
  say('| input | brands | engine x real time | engine CPU s per video s | ffmpeg alone x | peak RSS MB |');
  say('|-------|--------|--------------------|--------------------------|----------------|-------------|');
  for (const t of tps)
    say(
      `| ${t.res.padEnd(5)} | ${String(t.brands).padStart(6)} | ${(t.duration / t.wall).toFixed(2).padStart(18)} | ${(t.cpu / t.duration).toFixed(2).padStart(24)} | ${(t.duration / t.decode).toFixed(1).padStart(14)} | ${t.maxRssMb.toFixed(0).padStart(11)} |`,
    );
  for (const r of ['720p', '1080p']) {
    const a = tps.find((t) => t.res === r && t.brands === 10);
    const b = tps.find((t) => t.res === r && t.brands === 200);
    if (a && b) say(`cost 200 brands / 10 brands at ${r}: ${(b.wall / a.wall).toFixed(2)}x`);
  }
  say();
}
say(
  `Activation: ${msPerBrand.toFixed(0)} ms per brand (one example), ${keypointsPerBrand.toFixed(0)} keypoints per brand`,
);
say(`Accuracy pass: ${analysedSeconds.toFixed(0)} s of 720p video in ${accWall.toFixed(0)} s`);
say();
say('Real footage (examples cropped from one frame; renders in .bench-out/engine/real-*.png):');
for (const l of realLines) say(`  ${l}`);
say();
say(`total ${((performance.now() - t00) / 1000).toFixed(0)} s`);
process.stdout.write(`${lines.join('\n')}\n`);
await writeFile(join(OUT, 'report.md'), `${lines.join('\n')}\n`);
