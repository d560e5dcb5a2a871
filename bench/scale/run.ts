/**
 * Scale-out benchmark on PostgreSQL: one 720p broadcast video with 50 brands, analysed in chunks by
 * 1 worker process and then by 2 (each running one chunk at a time), through the real API and
 * worker processes sharing one database and one DATA_DIR. Prints the wall times and their ratio,
 * the CPU time each run used (the machine is shared: the wall ratio alone can mislead), and where
 * the time goes: decode, detect, stitch, database writes. See README.md.
 *
 *   node --import tsx bench/scale/run.ts [--minutes 20] [--brands 50] [--chunk-seconds 120]
 *        [--workers 1,2] [--concurrency 1] [--keep-warm 60] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
 *
 * `--keep-warm 0,60` runs each worker count once per value of the workers'
 * ANALYSIS_KEEP_WARM_SECONDS (0: an engine thread and its detector threads started for each chunk).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import net from 'node:net';
import pg from 'pg';
import {
  analyzeVideo,
  deserializeBrandIndex,
  probeVideo,
  DEFAULT_SAMPLE_FPS,
} from '../../packages/engine/src/index.ts';
import { buildCatalog } from '../engine/catalog.ts';
import { broadcastVideo } from '../engine/real-footage.ts';
import { DEFAULT_CHUNK_SECONDS } from '../../apps/server/src/config.ts';

const run = promisify(execFile);
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    brands: { type: 'string', default: '50' },
    'chunk-seconds': { type: 'string', default: String(DEFAULT_CHUNK_SECONDS) },
    workers: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', default: '1' },
    // ANALYSIS_KEEP_WARM_SECONDS of the workers, each value a run of its own (0: threads started
    // and ended with each chunk)
    'keep-warm': { type: 'string', default: '60' },
    // Holds worker process i to core i (taskset), so that "1 worker" is one core's worth of work.
    pin: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, '.bench-out/scale');
const minutes = Number(args.minutes);
const brandCount = Number(args.brands);
const chunkSeconds = Number(args['chunk-seconds']);
const workerCounts = args.workers.split(',').map(Number);
const keepWarms = args['keep-warm'].split(',').map(Number);
const DB = 'lr_bench_scale';
const DATA_DIR = join(OUT, 'data');
const DATABASE_URL = args['database-url'].replace(/\/[^/]*$/, `/${DB}`);
const say = (s: string) => console.log(s);
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
const CLK_TCK = Number((await run('getconf', ['CLK_TCK'])).stdout.trim()) || 100;

await mkdir(OUT, { recursive: true });
await rm(DATA_DIR, { recursive: true, force: true });
const admin = new pg.Client({ connectionString: args['database-url'] });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${DB}`);
await admin.end();

// The catalogue mixes kinds in turn (textured, wordmark, icon), as bench/engine/versus.ts does.
const full = await buildCatalog(join(OUT, 'logos'), 1, { textured: 12, wordmarks: 10, icons: 180 });
const byKind = ['textured', 'wordmark', 'flat icon'].map((k) => full.filter((l) => l.kind === k));
const mixed: typeof full = [];
for (let i = 0; mixed.length < full.length; i++)
  for (const list of byKind) if (i < list.length) mixed.push(list[i]);
const catalog = mixed.slice(0, brandCount);

const video = join(OUT, `broadcast-${minutes}min-720p.mp4`);
if (!existsSync(video)) {
  say(`generating ${minutes} min of 720p broadcast...`);
  await broadcastVideo(video, minutes * 60, 1280, 720);
}
const info = await probeVideo(video);

const freePort = () =>
  new Promise<number>((res) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => res(port));
    });
  });

interface Proc {
  child: ChildProcess;
  out: () => string;
}
const env = {
  ...process.env,
  DATA_DIR,
  DATABASE_URL,
  ADMIN_PASSWORD: 'bench-password-1',
  LOG_LEVEL: 'warn',
  ANALYSIS_CHUNK_SECONDS: String(chunkSeconds),
  ANALYSIS_CHUNK_CONCURRENCY: args.concurrency,
};
function start(extra: Record<string, string>, core?: number): Promise<Proc> {
  const cmd = [process.execPath, '--import', 'tsx', 'apps/server/src/main.ts'];
  // taskset execs the server in place: the pid (and /proc's CPU times) stay the server's.
  if (core !== undefined) cmd.unshift('taskset', '-c', String(core));
  const child = spawn(cmd[0], cmd.slice(1), { cwd: ROOT, env: { ...env, ...extra } });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((res, rej) => {
    const t = setInterval(() => {
      if (/is running on|worker started/.test(out)) {
        clearInterval(t);
        res({ child, out: () => out });
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(t);
      rej(new Error(`server exited with ${code}: ${out}`));
    });
  });
}
async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await exited;
}
/** CPU seconds of a process so far, with its waited-for children (ffmpeg). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / CLK_TCK;
}

const port = await freePort();
const api = await start({ ROLE: 'api', PORT: String(port), HOST: '127.0.0.1' });
const base = `http://127.0.0.1:${port}`;
const token = (
  await (
    await fetch(`${base}/api/profile/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'bench-password-1' }),
    })
  ).json()
).token as string;
const call = (url: string, init: RequestInit = {}) =>
  fetch(`${base}${url}`, { ...init, headers: { authorization: `Token ${token}`, ...(init.headers ?? {}) } });
const wait = async <T>(fn: () => Promise<T | false>, ms: number): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 500));
  }
};

say(`indexing ${brandCount} brands...`);
const setup = await start({ ROLE: 'worker', ANALYSIS_CHUNK_CONCURRENCY: '1' });
for (const l of catalog) {
  const form = new FormData();
  form.set('name', l.name);
  form.append('example_logos', new Blob([new Uint8Array(await readFile(l.file))]), l.file.split('/').pop()!);
  const r = await call('/api/brands/create/', { method: 'POST', body: form });
  if (!r.ok) throw new Error(`brand ${l.name}: ${r.status} ${await r.text()}`);
}
await wait(async () => {
  const list = (await (await call('/api/brands/')).json()) as { status: string }[];
  return list.length === brandCount && list.every((b) => b.status === 'ACTIVE');
}, 30 * 60_000);
await stop(setup);

const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
const indexBytes = (await db.query<{ index_path: string }>('SELECT index_path FROM brands')).rows.reduce(
  (s, r) => s + statSync(join(DATA_DIR, 'files', r.index_path)).size,
  0,
);

// Decode alone: ffmpeg's own CPU for the frames the engine asks for (first 60 s, as a chunk does).
const decodeSpan = Math.min(60, info.duration);
const h = Math.min(720, info.height);
const w = Math.round((info.width * h) / info.height / 2) * 2;
const bench = await run('ffmpeg', [
  '-benchmark',
  '-hide_banner',
  '-nostdin',
  '-i',
  video,
  '-t',
  String(decodeSpan),
  '-an',
  '-vf',
  `fps=${DEFAULT_SAMPLE_FPS}:round=up,scale=${w}:${h}:flags=area:out_range=full`,
  '-f',
  'rawvideo',
  '-pix_fmt',
  'yuv420p',
  '-y',
  '/dev/null',
]);
const m = /utime=([\d.]+)s stime=([\d.]+)s/.exec(bench.stdout + bench.stderr);
const decodeCpuPerS = m ? (Number(m[1]) + Number(m[2])) / decodeSpan : NaN;

// The fixed cost of a chunk (start an engine thread and a detector thread, load the brands'
// indexes, start the detector), as a worker pays it for every chunk: a 1 s span and a 5 s span,
// each analysed on one detector thread as a chunk is; the fixed cost is what the 1 s span takes beyond
// the per-second cost: t1 - (t5 - t1) / 4.
const indexFiles = (await db.query<{ index_path: string }>('SELECT index_path FROM brands')).rows.map((r) =>
  join(DATA_DIR, 'files', r.index_path),
);
const spanTime = async (seconds: number) => {
  const t = performance.now();
  const brands = await Promise.all(indexFiles.map(async (f) => deserializeBrandIndex(await readFile(f))));
  await analyzeVideo(video, brands, { startMs: 30_000, endMs: 30_000 + seconds * 1000, workers: 1 });
  return (performance.now() - t) / 1000;
};
await spanTime(1); // warm-up: the first run also compiles the engine's modules in this process
const t1 = await spanTime(1);
const t5 = await spanTime(5);
const chunkStartSeconds = Math.max(0, t1 - (t5 - t1) / 4);
const perVideoSecond = (t5 - t1) / 4;

interface RunResult {
  workers: number;
  keepWarm: number;
  wall: number;
  cpu: number;
  load: [number, number];
  chunks: { seconds: number; engine: number; storeMs: number }[];
  stitchMs: number;
  writeMs: number;
  detections: number;
}
const results: RunResult[] = [];
for (const [keepWarm, n] of keepWarms.flatMap((k) => workerCounts.map((w) => [k, w] as const))) {
  const form = new FormData();
  form.set('name', `run with ${n} worker(s), threads kept ${keepWarm} s`);
  form.append('videoFile', new Blob([new Uint8Array(await readFile(video))]), 'match.mp4');
  const up = await call('/api/videos/create/', { method: 'POST', body: form });
  if (!up.ok) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const id = (await up.json()).id as number;
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const workers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      start(
        { ROLE: 'worker', ANALYSIS_KEEP_WARM_SECONDS: String(keepWarm) },
        args.pin ? i % availableParallelism() : undefined,
      ),
    ),
  );
  await wait(async () => {
    const v = await (await call(`/api/videos/${id}/`)).json();
    if (v.status === 'ERROR PROCESSING' || v.status === 'ERROR') throw new Error(v.status_reason);
    return v.status === 'OK';
  }, 6 * 3600_000);
  const wall = (performance.now() - started) / 1000;
  const cpu = workers.reduce((s, p) => s + cpuSeconds(p.child.pid!), 0);
  const load: [number, number] = [loadBefore, loadavg()[0]];
  await Promise.all(workers.map(stop));
  const out = workers.map((p) => p.out()).join('\n');
  const chunks = [
    ...out.matchAll(
      new RegExp(
        `analysis of video ${id}: chunk \\d+/\\d+ \\(([\\d.]+)-([\\d.]+) s\\) analysed in ([\\d.]+) s, \\d+ detection\\(s\\) stored in (\\d+) ms`,
        'g',
      ),
    ),
  ].map((x) => ({ seconds: Number(x[2]) - Number(x[1]), engine: Number(x[3]), storeMs: Number(x[4]) }));
  const fin = new RegExp(
    `analysis of video ${id}: \\d+ chunks stitched in ([\\d.]+) ms, (\\d+) detection\\(s\\) written in (\\d+) ms`,
  ).exec(out);
  results.push({
    workers: n,
    keepWarm,
    wall,
    cpu,
    load,
    chunks,
    stitchMs: fin ? Number(fin[1]) : NaN,
    writeMs: fin ? Number(fin[3]) : NaN,
    detections: fin ? Number(fin[2]) : NaN,
  });
  say(
    `  ${n} worker(s), threads kept ${keepWarm} s: ${wall.toFixed(0)} s wall, ${cpu.toFixed(0)} CPU s, load ${load.map((x) => x.toFixed(1)).join(' -> ')}`,
  );
}
await db.end();
await stop(api);

const dur = info.duration;
say('');
say(
  `Scale-out on PostgreSQL: ${(dur / 60).toFixed(1)} min of 720p broadcast (${minutes === 20 ? "the issue's 20 min" : `shorter than the issue's 20 min: --minutes ${minutes}`}), ${brandCount} brands, ${DEFAULT_SAMPLE_FPS} samples/s, ${chunkSeconds} s chunks (${Math.ceil(dur / chunkSeconds)}), ${args.concurrency} chunk(s) at a time per worker process`,
);
say(
  `Machine: ${availableParallelism()} cores (load averages below)` +
    (args.pin ? '; --pin: worker process i held to core i (taskset), one core each' : '; workers not pinned'),
);
say('');
say(
  '| worker processes | threads kept s | wall s | x real time | worker CPU s | CPU s per video s | load avg before -> after | chunk wall s (min-max) |',
);
say('|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const e = r.chunks.map((c) => c.engine);
  say(
    `| ${r.workers} | ${r.keepWarm} | ${r.wall.toFixed(0)} | ${(dur / r.wall).toFixed(2)} | ${r.cpu.toFixed(0)} | ${(r.cpu / dur).toFixed(2)} | ${r.load.map((x) => x.toFixed(1)).join(' -> ')} | ${Math.min(...e).toFixed(0)}-${Math.max(...e).toFixed(0)} |`,
  );
}
for (const keepWarm of keepWarms) {
  const one = results.find((r) => r.workers === 1 && r.keepWarm === keepWarm);
  const two = results.find((r) => r.workers === 2 && r.keepWarm === keepWarm);
  if (!one || !two) continue;
  say('');
  say(
    `threads kept ${keepWarm} s: wall-time ratio 1 worker / 2 workers: ${(one.wall / two.wall).toFixed(2)} (target >= 1.8)`,
  );
  say(
    `threads kept ${keepWarm} s: CPU time ratio 2 workers / 1 worker: ${(two.cpu / one.cpu).toFixed(2)} (1.00 = no work added by splitting)`,
  );
}
for (const n of workerCounts) {
  const cold = results.find((r) => r.workers === n && r.keepWarm === 0);
  for (const warm of results.filter((r) => r.workers === n && r.keepWarm > 0))
    if (cold)
      say(
        `${n} worker(s): wall without threads kept / with them kept ${warm.keepWarm} s: ${(cold.wall / warm.wall).toFixed(2)}; mean chunk wall ${mean(cold.chunks.map((c) => c.engine)).toFixed(1)} s -> ${mean(warm.chunks.map((c) => c.engine)).toFixed(1)} s`,
      );
}
say('');
say("Where the time goes (per run; CPU from /proc, database times from the workers' log lines):");
for (const r of results) {
  const storeMs = r.chunks.reduce((s, c) => s + c.storeMs, 0);
  const decode = decodeCpuPerS * dur;
  say(
    `  ${r.workers} worker(s), threads kept ${r.keepWarm} s: decode ~${decode.toFixed(0)} CPU s (ffmpeg alone: ${decodeCpuPerS.toFixed(3)} CPU s per video s), ` +
      `detect+track ~${(r.cpu - decode).toFixed(0)} CPU s (worker CPU minus decode; includes thumbnails and process start), ` +
      `stitch ${r.stitchMs.toFixed(1)} ms, database writes ${storeMs} ms for ${r.chunks.length} chunk results + ${r.writeMs} ms for ${r.detections} detections`,
  );
}
say(
  `  fixed cost of one chunk (load ${brandCount} indexes, ${(indexBytes / 1e6).toFixed(1)} MB from DATA_DIR, start the detector): ~${chunkStartSeconds.toFixed(1)} s; then ${perVideoSecond.toFixed(2)} s per video second on one detector thread (in the bench process, same load)`,
);
say(
  `  video file: ${(statSync(video).size / 1e6).toFixed(0)} MB (${((statSync(video).size * 8) / dur / 1e6).toFixed(1)} Mbit/s)`,
);
