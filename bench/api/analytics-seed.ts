/**
 * Seeds a PostgreSQL database for the analytics benchmarks (bench/api/analytics.ts and
 * bench/reports/campaign.ts): one organization with 20 brands, 8 placements (3 automatic ones and
 * 5 manual), 10 folders (5 roots with one subfolder each), a project over a quarter of the videos,
 * `videos` videos of 90 minutes at 1920x1080 uploaded over 2026 (all pointing at one real
 * 90-minute file), and `perVideo` detections per
 * video, generated inside PostgreSQL with generate_series (no rows travel through Node). Reviews:
 * about 70 % UNREVIEWED, 25 % TRUE_POSITIVE, 5 % FALSE_POSITIVE. Deterministic: hashes of the row
 * number, not random().
 *
 * The database is kept between runs (`lr_bench_analytics_<videos>_<perVideo>`); `--fresh` rebuilds it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { AppContext } from '../../apps/server/src/context.ts';
import { createContext } from '../../apps/server/src/server.ts';
import { createUser } from '../../apps/server/src/services/accounts.service.ts';

export const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Seeded {
  ctx: AppContext;
  org: number;
  folder: number;
  project: number;
  databaseUrl: string;
  dataDir: string;
  seededSeconds: number | null;
}

const hash = (expr: string, salt: number) => `(hashtext((${expr})::text || ':${salt}')::bigint & 2147483647)`;

/** Opens (creating and seeding when needed) the benchmark database. */
export async function openSeeded(opts: {
  videos: number;
  perVideo: number;
  fresh?: boolean;
  log?: (line: string) => void;
}): Promise<Seeded> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const dbName = `lr_bench_analytics_${opts.videos}_${opts.perVideo}`;
  const databaseUrl = ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
  const dataDir = path.join(process.env.BENCH_DATA_DIR ?? '/tmp', dbName);
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount! > 0;
  let complete = false;
  if (exists && !opts.fresh) {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    complete =
      (await c.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'bench_done'")).rowCount! >
      0;
    await c.end();
  }
  if (!complete) {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${dbName}`);
  }
  await admin.end();
  mkdirSync(path.join(dataDir, 'files', 'videos'), { recursive: true });
  const videoFile = path.join(dataDir, 'files', 'videos', 'bench.mp4');
  const marker = `${videoFile}.5400s`;
  if (!existsSync(marker)) {
    // A real 90-minute file (320x180, one frame a second, so it is quick to make): the campaign
    // report seeks in it to cut each brand's best frame with ffmpeg.
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x180:rate=1:duration=5400',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '10',
      videoFile,
    ]);
    writeFileSync(marker, '');
  }
  const ctx = await createContext(
    {
      // REPORT_THREADS is passed on, so that bench/reports/campaign.ts can compare it.
      ...loadConfig({ REPORT_THREADS: process.env.REPORT_THREADS }),
      dataDir,
      databaseUrl,
      role: 'api',
      adminPassword: 'bench-password',
      logLevel: 'warn',
    },
    () => undefined,
  );
  let seededSeconds: number | null = null;
  if (!complete) {
    const t0 = performance.now();
    await seed(ctx, opts.videos, opts.perVideo, log);
    seededSeconds = (performance.now() - t0) / 1000;
  }
  const [ids] = await ctx.db.query<{ org: number; folder: number; project: number }>(
    `SELECT o.id AS org, (SELECT min(id) FROM folders WHERE parent_id IS NULL) AS folder,
       (SELECT min(id) FROM projects) AS project FROM organizations o WHERE o.name = 'Bench analytics'`,
  );
  return { ctx, ...ids, databaseUrl, dataDir, seededSeconds };
}

async function seed(ctx: AppContext, videos: number, perVideo: number, log: (line: string) => void) {
  const db = ctx.db;
  const user = await createUser(db, {
    organization: 'Bench analytics',
    username: 'bench',
    password: 'bench-password',
  });
  const org = user.organization_id;
  await db.query(
    `INSERT INTO brands (organization_id, name, status) SELECT $1, 'Brand ' || g, 'ACTIVE' FROM generate_series(1, 20) g`,
    [org],
  );
  await db.query(
    `INSERT INTO placements (organization_id, localized_name, color) SELECT $1, 'Placement ' || g, '#336699'
     FROM generate_series(1, 5) g`,
    [org],
  );
  const placements = (
    await db.query<{ id: number }>('SELECT id FROM placements WHERE organization_id = $1 ORDER BY id', [org])
  ).map((p) => p.id);
  await db.query(
    `INSERT INTO placement_rates (placement_id, organization_id, rate_per_second)
     SELECT id, organization_id, 1 + (id % 7) FROM placements WHERE organization_id = $1`,
    [org],
  );
  const roots: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const [root] = await db.query<{ id: number }>(
      'INSERT INTO folders (organization_id, name) VALUES ($1, $2) RETURNING id',
      [org, `Season ${i}`],
    );
    await db.query('INSERT INTO folders (organization_id, name, parent_id) VALUES ($1, $2, $3)', [
      org,
      `Cup ${i}`,
      root.id,
    ]);
    roots.push(root.id);
  }
  const folders = (
    await db.query<{ id: number }>('SELECT id FROM folders WHERE organization_id = $1 ORDER BY id', [org])
  ).map((f) => f.id);
  const [project] = await db.query<{ id: number }>(
    "INSERT INTO projects (organization_id, name) VALUES ($1, 'Bench project') RETURNING id",
    [org],
  );
  await db.query(
    `INSERT INTO videos (organization_id, name, folder_id, project_id, status, progress, frames, fps, width, height,
       duration, file_name, stored_path, created_at, analysis_wall_seconds, analysis_finished_at)
     SELECT $1, 'Match ' || g, ($2::int[])[1 + g % cardinality($2::int[])], CASE WHEN g % 4 = 0 THEN $3::int END,
       CASE WHEN g % 100 = 1 THEN 'PROCESSING' WHEN g % 100 = 2 THEN 'QUEUED' WHEN g % 100 = 3 THEN 'ERROR PROCESSING' ELSE 'OK' END,
       CASE WHEN g % 100 = 1 THEN 40 ELSE 100 END, 135000, 25, 1920, 1080, 5400, 'match.mp4', 'videos/bench.mp4',
       timestamptz '2026-01-01 00:00:00+00' + (g * interval '8 hours'), 1800, now()
     FROM generate_series(1, $4::int) g`,
    [org, folders, project.id, videos],
  );
  const [range] = await db.query<{ lo: number }>(
    'SELECT min(id) AS lo FROM videos WHERE organization_id = $1',
    [org],
  );
  const brandLo = (
    await db.query<{ lo: number }>('SELECT min(id) AS lo FROM brands WHERE organization_id = $1', [org])
  )[0].lo;
  // Detections in batches of 100 videos, so progress shows.
  const t0 = performance.now();
  for (let first = 0; first < videos; first += 100) {
    const count = Math.min(100, videos - first) * perVideo;
    const g = `(${first * perVideo} + s)`;
    await db.query(
      `INSERT INTO detections (organization_id, video_id, brand_id, placement_id, auto_placement_id, time_begin, time_end,
         coordinates, confidence, review, source)
       SELECT $1, v, b, p, p, tb, te,
         jsonb_build_array(jsonb_build_object('start_time', tb, 'end_time', te,
           'points', jsonb_build_array(x, y, x + w, y, x + w, y + h, x, y + h))),
         0.5 + (h1 % 50) / 100.0,
         CASE WHEN h1 % 20 = 0 THEN 'FALSE_POSITIVE' WHEN h1 % 4 = 1 THEN 'TRUE_POSITIVE' ELSE 'UNREVIEWED' END,
         'engine'
       FROM (
         SELECT $2::int + (${g} - 1) / $3::int AS v,
           $4::int + ${hash(g, 1)} % 20 AS b,
           ($5::int[])[1 + ${hash(g, 2)} % cardinality($5::int[])] AS p,
           ((${g} - 1) % $3::int) * (5400000 / $3::int) + ${hash(g, 3)} % 5000 AS tb,
           ${hash(g, 4)} % 1900 AS x, ${hash(g, 5)} % 1000 AS y,
           40 + ${hash(g, 6)} % 300 AS w, 20 + ${hash(g, 7)} % 150 AS h,
           ${hash(g, 8)} AS h1,
           500 + ${hash(g, 9)} % 9500 AS dur
         FROM generate_series(1, $6::int) s
       ) d, LATERAL (SELECT d.tb + d.dur AS te) t`,
      [org, range.lo, perVideo, brandLo, placements, count],
    );
    log(
      `  seeded videos ${first + 1}-${Math.min(videos, first + 100)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
  }
  await db.query('ANALYZE');
  await db.query('CREATE TABLE bench_done (at timestamptz DEFAULT now())');
  await db.query('INSERT INTO bench_done DEFAULT VALUES');
}
