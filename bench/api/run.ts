/**
 * Detection window query benchmark: one video with 100,000 generated detections, on PostgreSQL and
 * on the embedded PGlite database, side by side. Measures requests per second and p50/p99 latency
 * of GET /api/videos/detections/?videoId&startTime&endTime over HTTP on a real port.
 *
 *   node --import tsx bench/api/run.ts [--detections 100000] [--requests 2000] [--concurrency 4]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { closeContext, createContext } from '../../apps/server/src/server.ts';
import { createUser } from '../../apps/server/src/services/accounts.service.ts';
import { libraryRepository } from '../../apps/server/src/repositories/library.repository.ts';
import {
  detectionsRepository,
  listedSql,
  type NewDetectionRow,
} from '../../apps/server/src/repositories/detections.repository.ts';
import { placementsRepository } from '../../apps/server/src/repositories/placements.repository.ts';

const { values } = parseArgs({
  options: {
    detections: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '4' },
    window: { type: 'string', default: '10' },
  },
});
const N = Number(values.detections);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const WINDOW_MS = Number(values.window) * 1000;
const VIDEO_MS = 2 * 3600 * 1000; // a two-hour match

/** Deterministic generator (mulberry32). */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(videoId: number, brandIds: number[], placementIds: number[]): NewDetectionRow[] {
  const r = rng(42);
  const rows: NewDetectionRow[] = [];
  for (let i = 0; i < N; i++) {
    const begin = Math.floor(r() * VIDEO_MS);
    const dur = 200 + Math.floor(r() ** 2 * 15_000); // mostly short, some long
    const segs = 1 + Math.floor(r() * 4);
    const coordinates = [];
    for (let k = 0; k < segs; k++) {
      const x = Math.round(r() * 1200);
      const y = Math.round(r() * 650);
      coordinates.push({
        start_time: begin + Math.floor((dur * k) / segs),
        end_time: begin + Math.floor((dur * (k + 1)) / segs),
        points: [x, y, x + 60, y, x + 60, y + 20, x, y + 20],
      });
    }
    rows.push({
      video_id: videoId,
      brand_id: brandIds[i % brandIds.length],
      placement_id: placementIds[i % placementIds.length],
      auto_placement_id: placementIds[i % placementIds.length],
      logo_id: null,
      time_begin: begin,
      time_end: begin + dur,
      coordinates,
      confidence: 0.9,
      review: 'UNREVIEWED',
      source: 'engine',
    });
  }
  return rows;
}

async function measure(kind: 'postgres' | 'pglite') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-bench-api-'));
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (kind === 'postgres') {
    dbName = `lr_bench_${process.pid}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    databaseUrl = admin.replace(/\/[^/]*$/, `/${dbName}`);
  }
  const ctx = await createContext(
    { ...loadConfig({}), dataDir, databaseUrl, role: 'api', adminPassword: 'bench-password' },
    () => undefined,
  );
  try {
    const user = await createUser(ctx.db, {
      organization: 'Bench',
      username: 'bench',
      password: 'bench-password',
    });
    const org = user.organization_id;
    const videoId = await libraryRepository.insertVideo(ctx.db, org, {
      name: 'match',
      folder_id: null,
      project_id: null,
      file_name: 'm.mp4',
      stored_path: 'none.mp4',
      size: 0,
      content_sha256: '',
    });
    const brandIds: number[] = [];
    for (let i = 0; i < 50; i++) {
      const [b] = await ctx.db.query<{ id: number }>(
        'INSERT INTO brands(organization_id, name) VALUES ($1, $2) RETURNING id',
        [org, `Brand ${i}`],
      );
      brandIds.push(b.id);
    }
    const placementIds = Object.values(await placementsRepository.automaticIds(ctx.db, org));
    const t0 = performance.now();
    await ctx.db.transaction((tx) =>
      detectionsRepository.insertMany(tx, org, generate(videoId, brandIds, placementIds)),
    );
    await ctx.db.query('ANALYZE detections');
    const insertSeconds = (performance.now() - t0) / 1000;

    // The query alone (no HTTP, no JSON), sequential.
    const rq = rng(11);
    const qLat: number[] = [];
    for (let i = 0; i < 300; i++) {
      const start = Math.floor(rq() * (VIDEO_MS - WINDOW_MS));
      const t0 = performance.now();
      await detectionsRepository.windowJson(ctx.db, org, videoId, start, start + WINDOW_MS);
      qLat.push(performance.now() - t0);
    }
    qLat.sort((x, y) => x - y);
    if (kind === 'postgres') {
      const plan = await ctx.db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ANALYZE SELECT id FROM detections d WHERE d.video_id = $1 AND d.organization_id = $2 AND ${listedSql('d.review')}
         AND int8range(floor(d.time_begin)::bigint, ceil(d.time_end)::bigint, '[]') && int8range($3::bigint, $4::bigint, '[]')`,
        [videoId, org, 3_600_000, 3_610_000],
      );
      if (process.env.SHOW_PLAN) console.log(plan.map((x) => x['QUERY PLAN']).join('\n'));
    }
    const app = await buildApp(ctx);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const login = await fetch(`http://127.0.0.1:${port}/api/profile/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    });
    const token = ((await login.json()) as { token: string }).token;
    // The load generator runs on its own thread (the second core), as an outside client would:
    // one client alone (latency), then CONCURRENCY clients at once (throughput with queueing).
    const load = async (concurrency: number) => {
      const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
        workerData: {
          port,
          token,
          videoId,
          videoMs: VIDEO_MS,
          windowMs: WINDOW_MS,
          requests: REQUESTS,
          concurrency,
        },
      });
      const r = await new Promise<{ latencies: number[]; returned: number; wall: number }>(
        (resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        },
      );
      r.latencies.sort((x, y) => x - y);
      const q = (p: number) =>
        r.latencies[Math.min(r.latencies.length - 1, Math.floor(p * r.latencies.length))];
      return {
        concurrency,
        rps: REQUESTS / r.wall,
        p50: q(0.5),
        p99: q(0.99),
        perWindow: r.returned / REQUESTS,
      };
    };
    const runs = [await load(1), await load(CONCURRENCY)];
    await app.close();
    return { kind, insertSeconds, runs, q50: qLat[150], q99: qLat[296] };
  } finally {
    await closeContext(ctx);
    rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    }
  }
}

const results = [await measure('postgres'), await measure('pglite')];
console.log(
  `\nDetection window query: ${N} detections in a 2 h video, ${WINDOW_MS / 1000} s windows, ${REQUESTS} requests per run\n`,
);
console.log(
  'database   | clients | req/s  | p50 ms | p99 ms | detections/window | query-only p50 / p99 ms | insert s',
);
console.log(
  '-----------|---------|--------|--------|--------|-------------------|-------------------------|---------',
);
for (const x of results) {
  for (const r of x.runs) {
    console.log(
      `${x.kind.padEnd(10)} | ${String(r.concurrency).padStart(7)} | ${r.rps.toFixed(0).padStart(6)} | ${r.p50.toFixed(2).padStart(6)} | ${r.p99.toFixed(2).padStart(6)} | ${r.perWindow.toFixed(1).padStart(17)} | ${`${x.q50.toFixed(2)} / ${x.q99.toFixed(2)}`.padStart(23)} | ${x.insertSeconds.toFixed(1).padStart(8)}`,
    );
  }
}
const [pgr, lite] = results;
console.log(
  `\nPostgreSQL, one client: p99 ${pgr.runs[0].p99.toFixed(2)} ms (target < 20 ms: ${pgr.runs[0].p99 < 20 ? 'met' : 'NOT met'}); ` +
    `PGlite/PostgreSQL p99 ratio ${(lite.runs[0].p99 / pgr.runs[0].p99).toFixed(2)}x, req/s ratio ${(lite.runs[0].rps / pgr.runs[0].rps).toFixed(2)}x`,
);
process.exit(0);
