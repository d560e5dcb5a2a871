/**
 * Campaign report benchmark (issue 20): the whole campaign report (database reads, measures, one
 * sheet per video, summaries, best frames cut with ffmpeg) of an organization on PostgreSQL with
 * `videos` videos of `perVideo` detections each, written to a file. The databases are seeded once
 * with generate_series (bench/api/analytics-seed.ts) and kept between runs.
 *
 *   node --import tsx bench/reports/campaign.ts                 # 100 and 1,000 videos of 1,000 detections
 *   node --import tsx bench/reports/campaign.ts 1000x1000 50x1000
 *
 * Each size runs in its own child process so that peak RSS (the kernel's maxrss) is that run's; RSS
 * is also sampled as the videos go by, to show that it stays flat.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Transform } from 'node:stream';
import { campaignReport } from '../../apps/server/src/analytics/campaign.ts';
import { resolveScope } from '../../apps/server/src/analytics/scope.ts';
import { closeContext } from '../../apps/server/src/server.ts';
import { openSeeded } from '../api/analytics-seed.ts';

interface RunResult {
  cpuSeconds: number;
  videos: number;
  detections: number;
  seconds: number;
  peakRssMiB: number;
  rssAtMiB: number[];
  fileMiB: number;
}

async function seedOnly(videos: number, perVideo: number): Promise<void> {
  const s = await openSeeded({ videos, perVideo, log: (line) => process.stderr.write(`${line}\n`) });
  await closeContext(s.ctx);
}

async function runOne(videos: number, perVideo: number): Promise<RunResult> {
  const s = await openSeeded({ videos, perVideo });
  const [{ n }] = await s.ctx.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM detections WHERE review IN ('UNREVIEWED', 'TRUE_POSITIVE', 'EDITED', 'MANUAL')",
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-campaign-'));
  const file = join(dir, 'campaign.xlsx');
  const scope = await resolveScope(s.ctx.db, s.org, { include_unreviewed: true });
  // RSS at each tenth of the output (by bytes written, as a proxy for progress through the videos).
  const rssAt: number[] = [];
  const timer = setInterval(() => rssAt.push(process.memoryUsage().rss / 2 ** 20), 1000);
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const out = createWriteStream(file);
  const through = new Transform({ transform: (chunk, _enc, cb) => cb(null, chunk) });
  through.pipe(out);
  const done = new Promise<void>((resolve) => out.on('finish', () => resolve()));
  await campaignReport(s.ctx, scope, through);
  await done;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(timer);
  const cpu = process.cpuUsage(cpu0);
  const result: RunResult = {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    videos,
    detections: n,
    seconds,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    rssAtMiB: rssAt
      .filter((_, i) => i % Math.max(1, Math.floor(rssAt.length / 8)) === 0)
      .map((x) => Math.round(x)),
    fileMiB: statSync(file).size / 2 ** 20,
  };
  rmSync(dir, { recursive: true, force: true });
  await closeContext(s.ctx);
  return result;
}

async function main(): Promise<void> {
  const [mode, size] = process.argv.slice(2);
  if (mode === '--child' || mode === '--seed') {
    const [videos, perVideo] = size.split('x').map(Number);
    if (mode === '--seed') return seedOnly(videos, perVideo);
    process.stdout.write(JSON.stringify(await runOne(videos, perVideo)));
    return;
  }
  const sizes = process.argv.length > 2 ? process.argv.slice(2) : ['100x1000', '1000x1000'];
  const self = fileURLToPath(import.meta.url);
  const results: RunResult[] = [];
  for (const s of sizes) {
    execFileSync(process.execPath, ['--import', 'tsx', self, '--seed', s], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    results.push(
      JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', self, '--child', s], {
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        }),
      ),
    );
  }
  console.log(
    'Campaign report (PostgreSQL, streaming writer, best frames by ffmpeg), one child process per size',
  );
  console.log(
    'videos  counted detections  seconds  CPU s (node)  peak RSS MiB  file MiB  RSS samples (MiB, over the run)',
  );
  for (const r of results) {
    console.log(
      [
        String(r.videos).padEnd(6),
        r.detections.toLocaleString('en').padStart(18),
        r.seconds.toFixed(1).padStart(7),
        r.cpuSeconds.toFixed(1).padStart(12),
        r.peakRssMiB.toFixed(0).padStart(12),
        r.fileMiB.toFixed(1).padStart(8),
        ` ${r.rssAtMiB.join(' ')}`,
      ].join('  '),
    );
  }
  console.log(`load average: ${(await import('node:os')).loadavg()[0].toFixed(1)} (2 shared cores)`);
}

await main();
