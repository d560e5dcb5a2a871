/**
 * Dashboard benchmark (issue 20): 1,000 videos and 1,000,000 detections on PostgreSQL, seeded with
 * generate_series (bench/api/analytics-seed.ts; kept between runs, `--fresh` rebuilds). Prints the
 * time to build the per-video aggregates from scratch, then p50/p95 of each dashboard call through
 * the API (Fastify inject: routing, validation, queries and JSON, no socket), then the cost of a
 * dashboard call right after a detection changed (one video rebuilt).
 *
 *   node --import tsx bench/api/analytics.ts [--videos 1000] [--per-video 1000] [--runs 40] [--fresh]
 */
import { parseArgs } from 'node:util';
import { buildApp } from '../../apps/server/src/app.ts';
import { refreshDirty } from '../../apps/server/src/analytics/analytics-store.ts';
import { closeContext } from '../../apps/server/src/server.ts';
import { openSeeded } from './analytics-seed.ts';

const { values } = parseArgs({
  options: {
    videos: { type: 'string', default: '1000' },
    'per-video': { type: 'string', default: '1000' },
    runs: { type: 'string', default: '40' },
    fresh: { type: 'boolean', default: false },
  },
});
const VIDEOS = Number(values.videos);
const PER_VIDEO = Number(values['per-video']);
const RUNS = Number(values.runs);

const seeded = await openSeeded({ videos: VIDEOS, perVideo: PER_VIDEO, fresh: values.fresh });
const { ctx, org } = seeded;
if (seeded.seededSeconds !== null) console.log(`seeded in ${seeded.seededSeconds.toFixed(1)} s`);
const [{ n }] = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM detections');
console.log(`PostgreSQL: ${VIDEOS} videos, ${n.toLocaleString('en')} detections`);

// Aggregates from scratch (what a migration of an existing database or a bulk import costs once).
await ctx.db.query(
  "INSERT INTO analytics_dirty (video_id) SELECT id FROM videos ON CONFLICT (video_id) DO UPDATE SET version = nextval('analytics_dirty_seq')",
);
let t0 = performance.now();
const rebuilt = await refreshDirty(ctx.db, org);
const rebuildSeconds = (performance.now() - t0) / 1000;
console.log(
  `aggregates rebuilt for ${rebuilt} videos in ${rebuildSeconds.toFixed(1)} s (${((rebuildSeconds * 1000) / rebuilt).toFixed(1)} ms per video)`,
);
await ctx.db.query('ANALYZE video_brand_stats');
await ctx.db.query('ANALYZE video_review_stats');

const app = await buildApp(ctx);
await app.ready();
const login = await app.inject({
  method: 'POST',
  url: '/api/profile/login/',
  payload: { username: 'bench', password: 'bench-password' },
});
const headers = { authorization: `Token ${login.json().token}` };

const cases: [string, string][] = [
  ['dashboard, whole organization', '/api/analytics/dashboard/'],
  ['dashboard, folder with subfolder', `/api/analytics/dashboard/?folder=${seeded.folder}`],
  ['dashboard, project', `/api/analytics/dashboard/?project=${seeded.project}`],
  ['dashboard, one quarter', '/api/analytics/dashboard/?from=2026-04-01&to=2026-06-30'],
  ['dashboard, reviewed only', '/api/analytics/dashboard/?include_unreviewed=false'],
  ['processing', '/api/analytics/processing/'],
  ['settings', '/api/analytics/settings/'],
];

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
console.log(
  `\n${'call'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}  answer`,
);
for (const [name, url] of cases) {
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url, headers }); // warm up
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    t0 = performance.now();
    const r = await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - t0);
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    bytes = r.rawPayload.length;
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(36)} ${q(times, 0.5).toFixed(1).padStart(8)} ${q(times, 0.95).toFixed(1).padStart(8)} ${times[times.length - 1].toFixed(1).padStart(8)}  ${(bytes / 1024).toFixed(0)} KiB`,
  );
}

// A reviewer changed one detection: the next dashboard call rebuilds that video first.
const after: number[] = [];
for (let i = 0; i < Math.min(RUNS, 20); i++) {
  await ctx.db.query(
    "UPDATE detections SET review = CASE WHEN review = 'TRUE_POSITIVE' THEN 'UNREVIEWED' ELSE 'TRUE_POSITIVE' END WHERE id = (SELECT min(id) + $1 FROM detections)",
    [i * 997],
  );
  t0 = performance.now();
  await app.inject({ method: 'GET', url: '/api/analytics/dashboard/', headers });
  after.push(performance.now() - t0);
}
after.sort((a, b) => a - b);
console.log(
  `${'dashboard after one detection changed'.padEnd(36)} ${q(after, 0.5).toFixed(1).padStart(8)} ${q(after, 0.95).toFixed(1).padStart(8)} ${after[after.length - 1].toFixed(1).padStart(8)}`,
);
const load = (await import('node:os')).loadavg()[0];
console.log(`\nload average during the run: ${load.toFixed(1)} (2 shared cores)`);
await app.close();
await closeContext(ctx);
