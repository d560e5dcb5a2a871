/**
 * Throughput of the current engine side by side with an earlier version, in one run on the same
 * machine: `node --import tsx bench/engine/versus.ts [--base <git rev>] [--seconds 60]
 * [--brands 10,50,200] [--rounds 2]`.
 *
 * The earlier version is checked out as a git worktree under `.bench-out/versus/` (it resolves
 * the same node_modules). Each version builds its own indexes of the same catalogue logos (the
 * benchmark's seed 1 catalogue), then every measurement runs in its own process
 * (this tree's throughput-worker.ts, copied into the base's, so that both are measured alike),
 * alternating base and current so that a change of load on the machine hits both alike (base
 * first in even rounds, current first in odd ones). Prints x real time, CPU seconds per video
 * second (of the engine's process, and of ffmpeg's decoding beside it), the engine's CPU per CPU
 * second of ffmpeg in each run (ffmpeg's work is the same in every run, so this ratio cancels how
 * fast the machine was at that moment), peak RSS and the start-up time (until the first frame is through: the detector
 * threads load OpenCV, the ONNX models and the index) for each, the seconds the detector threads
 * spent without a frame between their first and last (a stall of the pipeline), and the ratios.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { buildCatalog } from './catalog.ts';
import { broadcastVideo } from './real-footage.ts';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: '7a4792f' },
    seconds: { type: 'string', default: '60' },
    brands: { type: 'string', default: '10,50,200' },
    rounds: { type: 'string', default: '1' },
  },
});
const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, '.bench-out/versus');
await mkdir(OUT, { recursive: true });
const baseTree = join(OUT, `tree-${args.base}`);
if (!existsSync(baseTree)) await run('git', ['-C', ROOT, 'worktree', 'add', '--detach', baseTree, args.base]);
const counts = args.brands.split(',').map(Number);
const most = Math.max(...counts);

// A customer's catalogue mixes kinds: every subset takes them in turn (textured, wordmark,
// icon, ...), so that 10 brands hold words to read as 200 do.
const full = await buildCatalog(join(OUT, 'logos'), 1, { textured: 12, wordmarks: 10, icons: 180 });
const byKind = ['textured', 'wordmark', 'flat icon'].map((k) => full.filter((l) => l.kind === k));
const mixed: typeof full = [];
for (let i = 0; mixed.length < full.length; i++)
  for (const list of byKind) if (i < list.length) mixed.push(list[i]);
const catalog = mixed.slice(0, most);
const logos = join(OUT, 'logos.json');
await writeFile(logos, JSON.stringify(catalog.map((l) => ({ name: l.name, file: l.file }))));

const video = join(OUT, `broadcast-${args.seconds}s-720p.mp4`);
if (!existsSync(video)) await broadcastVideo(video, Number(args.seconds), 1280, 720);

/** Runs a script of a version's tree in its own process; resolves with its last JSON line. */
function child(
  tree: string,
  script: string,
  argv: string[],
): Promise<Record<string, number> & { detectorWait?: number[] | null }> {
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, ['--import', 'tsx', join(tree, script), ...argv], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: tree,
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (c) =>
      c === 0 ? res(JSON.parse(out.trim().split('\n').pop()!)) : rej(new Error(`${script} exit ${c}`)),
    );
  });
}

const versions = [
  { name: `base ${args.base}`, tree: baseTree },
  { name: 'current', tree: ROOT },
];
// Indexes: each version builds its own from the same logo files (index-worker.ts is copied into
// the base tree, as the base may predate it).
for (const v of versions) {
  const dir = join(OUT, `indexes-${v === versions[0] ? 'base' : 'current'}`);
  const list = join(dir, 'list.json');
  const target = join(v.tree, 'bench/engine/index-worker.ts');
  if (v.tree !== ROOT) {
    await run('cp', [join(ROOT, 'bench/engine/index-worker.ts'), target]);
    // the same measurement in both (this one reports the start-up time too)
    await run('cp', [
      join(ROOT, 'bench/engine/throughput-worker.ts'),
      join(v.tree, 'bench/engine/throughput-worker.ts'),
    ]);
  }
  const r = await child(v.tree, 'bench/engine/index-worker.ts', [logos, dir]);
  console.error(`${v.name}: ${most} brands indexed, ${r.msPerBrand.toFixed(0)} ms per brand`);
  Object.assign(v, { list, msPerBrand: r.msPerBrand });
}

type Row = {
  version: string;
  brands: number;
  xrt: number;
  cpuPerS: number;
  /** ffmpeg's decoding, beside the engine's process */
  decodePerS: number;
  rss: number;
  startup: number;
  duration: number;
  /** seconds the detector threads (summed) waited for a frame mid-run; null for an engine that does not count them */
  wait: number | null;
};
const rows: Row[] = [];
for (let round = 0; round < Number(args.rounds); round++) {
  for (const n of counts) {
    // Odd rounds run the current tree first: on a machine whose speed drifts within a pair of runs
    // (session 58's VM ran the second run of each pair slower), a fixed order favours one side.
    for (const v of round % 2 === 0 ? versions : [...versions].reverse()) {
      const dir = join(OUT, `indexes-${v === versions[0] ? 'base' : 'current'}`);
      const list = join(OUT, `list-${v === versions[0] ? 'base' : 'current'}-${n}.json`);
      const names = catalog.slice(0, n).map((l) => join(dir, `${l.name}.bin`));
      await writeFile(list, JSON.stringify(names));
      const r = await child(v.tree, 'bench/engine/throughput-worker.ts', [video, list, '4', '720']);
      rows.push({
        version: v.name,
        brands: n,
        xrt: r.duration / r.wall,
        cpuPerS: r.cpu / r.duration,
        decodePerS: r.childCpu / r.duration,
        rss: r.maxRssMb,
        startup: r.startup,
        duration: r.duration,
        wait: r.detectorWait ? r.detectorWait.reduce((a, b) => a + b, 0) : null,
      });
      console.error(`  ${v.name}, ${n} brands: ${(r.duration / r.wall).toFixed(2)}x real time`);
    }
  }
}

/** x real time once the detector threads are up: the video's length over the wall time after. */
const afterStartup = (r: Row) => r.duration / (r.duration / r.xrt - r.startup);
const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
console.log(
  `Throughput side by side (${args.seconds} s of 720p broadcast, 4 samples/s, ${Number(args.rounds)} round(s)):`,
);
console.log('');
console.log(
  '| brands | version | x real time | CPU s per video s | ffmpeg CPU s per video s | engine CPU per ffmpeg CPU | peak RSS MB | start-up s | x real time after start-up | detector threads without a frame, s |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
const at = (name: string, n: number) => rows.filter((r) => r.version === name && r.brands === n);
for (const n of counts)
  for (const v of versions) {
    const r = at(v.name, n);
    console.log(
      `| ${n} | ${v.name} | ${r.map((x) => x.xrt.toFixed(2)).join(', ')} | ${mean(r.map((x) => x.cpuPerS)).toFixed(2)} | ${mean(r.map((x) => x.decodePerS)).toFixed(2)} | ${r.map((x) => (x.cpuPerS / x.decodePerS).toFixed(2)).join(', ')} | ${Math.max(...r.map((x) => x.rss)).toFixed(0)} | ${r.map((x) => x.startup.toFixed(2)).join(', ')} | ${r.map((x) => afterStartup(x).toFixed(2)).join(', ')} | ${r.map((x) => (x.wait === null ? 'n/a' : x.wait.toFixed(1))).join(', ')} |`,
    );
  }
console.log('');
for (const v of versions) {
  const cost = (n: number) => mean(at(v.name, n).map((x) => x.cpuPerS));
  if (counts.includes(10) && counts.includes(200))
    console.log(
      `${v.name}: cost of 200 brands / cost of 10 = ${(cost(200) / cost(10)).toFixed(2)} (target <= 2)`,
    );
  if (counts.includes(50))
    console.log(
      `${v.name}: 50 brands at ${mean(at(v.name, 50).map((x) => x.xrt)).toFixed(2)}x real time (target >= 2)`,
    );
}
