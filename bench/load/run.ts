/**
 * Load held (issue 18, item 6): 50 simulated reviewers against the API process on PostgreSQL while 2 worker
 * processes analyse videos, all on loopback. Each reviewer (an async client in this one Node process) waits
 * its own think time between calls and makes the editor's calls: window queries of detections, PATCH moves
 * of detections, review verdicts and, less often, the Excel report of the video. Prints p50/p99 per call
 * kind, the count of 5xx answers, and the API process's RSS sampled every 10 s (first, last, max, slope).
 *
 *   node --import tsx bench/load/run.ts [--minutes 10] [--reviewers 50] [--detections 50000] [--report-share 0.001]
 *        [--report-loop]   (one more client downloading the Excel report back to back)
 *
 * Needs PostgreSQL at 127.0.0.1:5432 (trust auth, user postgres); a fresh database is made and dropped.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API, VIDEO_STATUS, type Detection, type Video } from '@logo-review/contract';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { REPO_ROOT, startServer } from '../../e2e/support/server-process.ts';
import { testLogo } from '../../e2e/support/fixtures.ts';
import { editorTestVideo, seedBenchCatalog, seedUnreviewed, uploadVideo } from '../../e2e/editor-seed.ts';
import { generateDetections, lcg, percentile, toUpload } from '../editor/generate-detections.ts';
import {
  DEFAULT_WINDOW_POLICY,
  WINDOW_CHECK_PERIOD_MS,
  WindowTracker,
  type TimeWindow,
  type WindowPolicy,
} from '@logo-review/review-canvas';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    reviewers: { type: 'string', default: '50' },
    detections: { type: 'string', default: '50000' },
    workers: { type: 'string', default: '2' },
    clip: { type: 'string', default: '/work/shared/data/footage/laliga-closeup.mp4' },
    'report-share': { type: 'string', default: '0.001' },
    'report-loop': { type: 'boolean', default: false },
    // The workers' nice value: analysis is batch work, so on a machine it shares with the API it yields
    // the CPU to the reviewers' calls (0: same priority as the API).
    'worker-nice': { type: 'string', default: '10' },
    // The workers' scheduling policy: 'other' (Linux's normal one, shared by weight: a nice 10
    // thread still gets a tenth of a core beside a busy nice 0 one) or 'idle' (SCHED_IDLE, through
    // util-linux's chrt: the workers run only on a core that nothing else of the machine wants).
    'worker-sched': { type: 'string', default: 'other' },
    // How the reviewers pace their calls: 'editor' as the editor does (windows planned by its own
    // WindowTracker, checked every 2 s while the video plays; moves and verdicts at a person's pace),
    // 'stress' back to back (200-500 ms between any two calls, 70 % of them windows).
    pace: { type: 'string', default: 'editor' },
  },
});
const MINUTES = Number(args.minutes);
const REVIEWERS = Number(args.reviewers);
const DETECTIONS = Number(args.detections);
const WORKERS = Number(args.workers);
const CLIP = args.clip;
/** The share of calls that download the video's Excel report (the rest: windows, moves, verdicts). */
const REPORT_SHARE = Number(args['report-share']);
/** One more client that downloads the video's Excel report back to back for the whole run. */
const REPORT_LOOP = args['report-loop'] === true;
const WORKER_NICE = Number(args['worker-nice']);
const WORKER_SCHED = args['worker-sched'];
if (WORKER_SCHED !== 'other' && WORKER_SCHED !== 'idle')
  throw new Error(`--worker-sched is 'other' or 'idle', not '${WORKER_SCHED}'`);
const PACE = args.pace;
if (PACE !== 'editor' && PACE !== 'stress') throw new Error(`--pace is 'editor' or 'stress', not '${PACE}'`);
const VIDEO_MS = 600_000; // the seeded video: 10 min, 50,000 detections (about 500 active at a time)
const WINDOW_MS = 10_000; // the editor's smallest window (WINDOW_MIN_SPAN_MS)
const THINK_MS: [number, number] = [200, 500]; // stress: each reviewer's own think time lies in this range
// editor: each reviewer's own time between two moves or verdicts (a person looking, then pressing a key
// or dragging a corner), playback speed (reviewers skim at 1-4x) and chance of a seek at each 2 s check.
const ACT_MS: [number, number] = [1000, 3000];
const SPEEDS = [1, 2, 4];
const SEEK_PER_CHECK = 0.03;
const SAMPLE_MS = 10_000;
const PG = { host: '127.0.0.1', user: 'postgres' };
const say = (s: string) => console.log(s);
const f = (x: number, d = 1) => x.toFixed(d);

const dbName = `lr_bench_load_${process.pid}`;
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${dbName}`;
execFileSync('createdb', ['-h', PG.host, '-U', PG.user, dbName]);
// With --workers 0 the API process analyses the seeded video itself (ROLE=all) and no clips are fed:
// the API's calls alone, without the analysing workers' load.
const METRICS_TOKEN = 'load-bench-metrics';
const server = await startServer({
  env: { ROLE: WORKERS > 0 ? 'api' : 'all', DATABASE_URL: databaseUrl, METRICS_TOKEN },
});

/**
 * The API's own timing of GET window answers (its Prometheus histogram, from the request's arrival to its
 * answer): the buckets' counts, cumulative, by upper bound in seconds.
 */
async function serverMetrics(): Promise<string> {
  const res = await fetch(`${server.baseURL}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return res.text();
}
/** A metric's value (summed over its label sets) in a scrape. */
function metric(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}
async function serverWindowBuckets(): Promise<[number, number][]> {
  const text = await serverMetrics();
  const out: [number, number][] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('logo_review_http_request_duration_seconds_bucket{')) continue;
    if (!line.includes('method="GET"') || !line.includes(`route="${API.detections}"`)) continue;
    if (!line.includes('status_class="2xx"')) continue;
    const le = /le="([^"]+)"/.exec(line)![1];
    out.push([le === '+Inf' ? Infinity : Number(le), Number(line.slice(line.lastIndexOf(' ') + 1))]);
  }
  return out;
}

/** A `ROLE=worker` process on the same database and data folder, as the README's scale-out section runs them. */
function startWorker(): Promise<ChildProcess> {
  const cmd = [process.execPath, '--import', 'tsx', 'apps/server/src/main.ts'];
  // nice execs the server in place (same pid); the worker's threads and its ffmpeg inherit the value.
  if (WORKER_NICE !== 0) cmd.unshift('nice', '-n', String(WORKER_NICE));
  // chrt execs in place too; the policy is inherited by every thread and process the worker starts.
  if (WORKER_SCHED === 'idle') cmd.unshift('chrt', '--idle', '0');
  const child = spawn(cmd[0], cmd.slice(1), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ROLE: 'worker',
      ANALYSIS_CHUNK_CONCURRENCY: '1',
      DATA_DIR: server.dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  return new Promise((resolve, reject) => {
    const t = setInterval(() => {
      if (out.includes('worker started')) {
        clearInterval(t);
        resolve(child);
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(t);
      reject(new Error(`worker exited with ${code}: ${out}`));
    });
  });
}
async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const workers: ChildProcess[] = [];
let exitCode = 0;
try {
  for (let i = 0; i < WORKERS; i++) workers.push(await startWorker());
  const admin = await ApiClient.login(server.baseURL, server.username, server.password);

  // The reviewed video: a 10 min test pattern (brands without logos, so its analysis finds nothing), then
  // DETECTIONS generated detections over it, unreviewed.
  const t = Date.now();
  const { brands, placements } = await seedBenchCatalog(admin);
  const video = await uploadVideo(admin, editorTestVideo(600), 'Load bench match', 600_000);
  const seeded = await seedUnreviewed(
    admin,
    toUpload(generateDetections(DETECTIONS, VIDEO_MS), video.id, brands, placements),
  );
  say(`seeded: ${seeded.length} detections over a 600 s video in ${f((Date.now() - t) / 1000)} s`);

  // A brand with a logo, so that the workers' analyses of the clip below do real work.
  const form = new FormData();
  form.append('name', 'Load logo');
  form.append('localized_name', 'Load logo');
  form.append('example_logos', new Blob([new Uint8Array(readFileSync(testLogo()))]), 'logo.png');
  await admin.call('POST', API.brandCreate, form);

  // The workers' load: the clip uploaded again whenever fewer than two are queued or analysing.
  const clip = readFileSync(CLIP);
  const pending = new Set<number>();
  let uploaded = 0;
  let analysed = 0;
  let running = true;
  const feeder = (async () => {
    while (running && WORKERS > 0) {
      for (const id of [...pending]) {
        const v = await admin.call<Video>('GET', API.video(id));
        if (v.status === VIDEO_STATUS.OK || v.status === VIDEO_STATUS.ERROR) {
          pending.delete(id);
          if (v.status === VIDEO_STATUS.OK) analysed++;
          else say(`clip analysis failed: ${v.status_reason}`);
        }
      }
      while (running && pending.size < 2) {
        const up = new FormData();
        up.append('name', `Clip ${++uploaded}`);
        up.append('folder', '');
        up.append('videoFile', new Blob([clip], { type: 'video/mp4' }), path.basename(CLIP));
        pending.add((await admin.call<Video>('POST', API.videoCreate, up)).id);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();

  // The reviewers.
  type Kind = 'window' | 'patch' | 'verdict' | 'report';
  const KINDS: Kind[] = ['window', 'patch', 'verdict', 'report'];
  const lat: Record<Kind, number[]> = { window: [], patch: [], verdict: [], report: [] };
  const status5xx: Record<Kind, number> = { window: 0, patch: 0, verdict: 0, report: 0 };
  const status4xx: Record<Kind, number> = { window: 0, patch: 0, verdict: 0, report: 0 };
  let netErrors = 0;
  let windowRows = 0;
  let windowsParsed = 0;
  const tokens: string[] = [];
  for (let i = 0; i < REVIEWERS; i++)
    tokens.push((await ApiClient.login(server.baseURL, server.username, server.password)).token);

  const endAt = Date.now() + MINUTES * 60_000;
  const timed = async (kind: Kind, token: string, method: string, url: string, body?: unknown) => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${server.baseURL}${url}`, {
        method,
        headers: {
          Authorization: `Token ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const buf = await res.arrayBuffer();
      lat[kind].push(performance.now() - t0);
      if (res.status >= 500) {
        status5xx[kind]++;
        say(`${kind} ${method} ${url}: ${res.status} ${Buffer.from(buf).toString().slice(0, 200)}`);
      } else if (res.status >= 400) status4xx[kind]++;
      return res.ok ? buf : undefined;
    } catch (e) {
      netErrors++;
      say(`${kind} ${method} ${url}: ${String(e)}`);
      return undefined;
    }
  };
  const windowUrl = (start: number, end: number) =>
    `${API.detections}?videoId=${video.id}&startTime=${Math.round(start)}&endTime=${Math.round(end)}`;
  /**
   * One reviewer's last window body, parsed only when a move or a verdict picks a detection from it:
   * parsing every 1.5 MB window would put this process's own work on the loop that times the other
   * reviewers' calls.
   */
  const viewOf = () => {
    let lastWindow: ArrayBuffer | undefined;
    let parsed: Detection[] = [];
    return {
      set(buf: ArrayBuffer) {
        lastWindow = buf;
      },
      get(): Detection[] {
        if (lastWindow) {
          parsed = JSON.parse(Buffer.from(lastWindow).toString()) as Detection[];
          windowRows += parsed.length;
          windowsParsed++;
          lastWindow = undefined;
        }
        return parsed;
      },
    };
  };
  /** A move (share `moveShare` of the edits) or a verdict on a detection in view; false with none in view. */
  const edit = async (token: string, rnd: () => number, inView: Detection[], moveShare: number) => {
    if (inView.length === 0) return false;
    const d = inView[Math.floor(rnd() * inView.length)];
    if (rnd() < moveShare) {
      const dx = Math.round((rnd() - 0.5) * 20);
      await timed('patch', token, 'PATCH', API.detection(d.id), {
        coordinates: d.coordinates.map((s) => ({
          ...s,
          points: s.points.map((v, k) => (k % 2 ? v : v + dx)),
        })),
      });
    } else {
      await timed('verdict', token, 'PUT', API.detectionsReview, {
        detectionIds: [d.id],
        review: rnd() < 0.8 ? 'TRUE_POSITIVE' : 'FALSE_POSITIVE',
      });
    }
    return true;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** --pace stress: calls back to back, 200-500 ms apart, 70 % of them the next 10 s window. */
  const stressReviewer = async (i: number) => {
    const rnd = lcg(1000 + i);
    const think = THINK_MS[0] + rnd() * (THINK_MS[1] - THINK_MS[0]);
    const token = tokens[i];
    let playhead = Math.floor(rnd() * (VIDEO_MS - WINDOW_MS));
    const view = viewOf();
    // Start spread over the first think time, not all at once.
    await sleep(rnd() * think);
    while (Date.now() < endAt) {
      const r = rnd();
      if (r < REPORT_SHARE) {
        await timed('report', token, 'GET', `${API.excel}?videoId=${video.id}`);
      } else if (r < 0.3 && (await edit(token, rnd, view.get(), 0.4))) {
        // a move (12 % of the calls) or a verdict (18 %)
      } else {
        // Playing on (mostly) or seeking elsewhere: the next window of the editor.
        playhead =
          rnd() < 0.9
            ? (playhead + WINDOW_MS) % (VIDEO_MS - WINDOW_MS)
            : Math.floor(rnd() * (VIDEO_MS - WINDOW_MS));
        const buf = await timed('window', token, 'GET', windowUrl(playhead, playhead + WINDOW_MS));
        if (buf) view.set(buf);
      }
      await sleep(think);
    }
  };

  /**
   * --pace editor: the editor's own loading. The video plays at the reviewer's speed; every 2 s (and
   * right after a seek) the editor's WindowTracker plans the next window, and playback waits while one
   * loads, as the editor pauses it. Beside that, the person moves a box or gives a verdict every 1-3 s.
   */
  const editorReviewer = async (i: number) => {
    const rnd = lcg(1000 + i);
    const token = tokens[i];
    const speed = SPEEDS[Math.floor(rnd() * SPEEDS.length)];
    const act = ACT_MS[0] + rnd() * (ACT_MS[1] - ACT_MS[0]);
    const policy: WindowPolicy = { ...DEFAULT_WINDOW_POLICY };
    const tracker = new WindowTracker(policy);
    const view = viewOf();
    let pos = Math.floor(rnd() * VIDEO_MS);
    let loading = 0;
    let clock = Date.now();
    const advance = () => {
      const now = Date.now();
      if (loading === 0) pos += (now - clock) * speed;
      clock = now;
      if (pos >= VIDEO_MS) pos = 0;
    };
    const check = async (jump: boolean) => {
      // As the editor's checkWindows: after a seek, no bridging of the gap behind the new position.
      if (jump) policy.maxGapMs = 0;
      const w: TimeWindow | null = tracker.next(pos, VIDEO_MS);
      policy.maxGapMs = DEFAULT_WINDOW_POLICY.maxGapMs;
      if (!w) return;
      advance();
      loading++;
      const buf = await timed('window', token, 'GET', windowUrl(w.start, w.end));
      advance();
      loading--;
      if (buf) {
        tracker.done(w);
        view.set(buf);
      } else tracker.failed(w);
    };
    const player = async () => {
      await sleep(rnd() * WINDOW_CHECK_PERIOD_MS);
      await check(true);
      while (Date.now() < endAt) {
        await sleep(WINDOW_CHECK_PERIOD_MS);
        advance();
        const jump = rnd() < SEEK_PER_CHECK;
        if (jump) pos = Math.floor(rnd() * VIDEO_MS);
        void check(jump);
      }
    };
    const person = async () => {
      await sleep(rnd() * act);
      while (Date.now() < endAt) {
        if (rnd() < REPORT_SHARE) await timed('report', token, 'GET', `${API.excel}?videoId=${video.id}`);
        else await edit(token, rnd, view.get(), 0.4);
        await sleep(act);
      }
    };
    await Promise.all([player(), person()]);
  };
  const reviewer = PACE === 'editor' ? editorReviewer : stressReviewer;

  const rss: { s: number; mib: number }[] = [];
  const t0 = Date.now();
  const sample = () => {
    const s = (Date.now() - t0) / 1000;
    const mib = rssMiB(server.pid);
    rss.push({ s, mib });
    say(
      `t=${f(s, 0).padStart(4)} s  API RSS ${f(mib)} MiB  calls ${KINDS.reduce((n, k) => n + lat[k].length, 0)}  ` +
        `clips analysed ${analysed}  load ${loadavg()[0].toFixed(1)}`,
    );
  };
  say(
    `\nrunning ${REVIEWERS} reviewers for ${MINUTES} min (${PACE === 'editor' ? `editor pace: play at ${SPEEDS.join('/')}x, windows checked every ${WINDOW_CHECK_PERIOD_MS} ms, an edit every ${ACT_MS[0]}-${ACT_MS[1]} ms` : `stress pace: ${THINK_MS[0]}-${THINK_MS[1]} ms between calls`}), ${WORKERS} workers (nice ${WORKER_NICE}${WORKER_SCHED === 'idle' ? ', SCHED_IDLE' : ''}) analysing ${path.basename(CLIP)}` +
      `${REPORT_LOOP ? ', one client downloading the report back to back' : ''}; REPORT_THREADS=${process.env.REPORT_THREADS ?? '(default)'}`,
  );
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  // This process's own event-loop delay: a busy load client adds its delays to the latencies it times.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const bucketsBefore = await serverWindowBuckets();
  const reportLoop = async () => {
    if (!REPORT_LOOP) return;
    const token = (await ApiClient.login(server.baseURL, server.username, server.password)).token;
    while (Date.now() < endAt) await timed('report', token, 'GET', `${API.excel}?videoId=${video.id}`);
  };
  await Promise.all([...Array.from({ length: REVIEWERS }, (_, i) => reviewer(i)), reportLoop()]);
  clearInterval(sampler);
  loopDelay.disable();
  sample();
  // The API's event loop as it measures itself (prom-client's default metrics: the lag since the scrape
  // before, at the run's start) and its garbage collections since it started.
  const apiMetrics = await serverMetrics();
  const bucketsAfter = await serverWindowBuckets();
  running = false;
  await feeder;

  const wall = (Date.now() - t0) / 1000;
  say(
    `\nLoad: ${REVIEWERS} reviewers (${PACE} pace), ${f(wall / 60, 1)} min, video of ${DETECTIONS} detections, ${WORKERS} workers`,
  );
  say(
    `clips analysed during the run: ${analysed} (${path.basename(CLIP)}), load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  say('\ncall     | count  | per s | p50 ms | p99 ms | max ms | 4xx | 5xx');
  say('---------|--------|-------|--------|--------|--------|-----|----');
  for (const k of KINDS) {
    const xs = lat[k];
    if (xs.length === 0) continue;
    say(
      `${k.padEnd(8)} | ${String(xs.length).padStart(6)} | ${f(xs.length / wall).padStart(5)} | ${f(percentile(xs, 50)).padStart(6)} | ` +
        `${f(percentile(xs, 99)).padStart(6)} | ${f(Math.max(...xs)).padStart(6)} | ${String(status4xx[k]).padStart(3)} | ${String(status5xx[k]).padStart(3)}`,
    );
  }
  // The API's own view of the window answers over the run (its histogram's buckets: no finer than them).
  const served = bucketsAfter.map(
    ([le, n]) => [le, n - (bucketsBefore.find((b) => b[0] === le)?.[1] ?? 0)] as const,
  );
  const all = served.find(([le]) => le === Infinity)?.[1] ?? 0;
  if (all > 0) {
    const share = (le: number) => (served.find((b) => b[0] === le)?.[1] ?? 0) / all;
    const p99Bound = served.find(([, n]) => n >= 0.99 * all)?.[0];
    say(
      `\nwindow answers as the API timed them (arrival to answer): ${all}; within 10 ms ${f(100 * share(0.01))} %, ` +
        `25 ms ${f(100 * share(0.025))} %, 50 ms ${f(100 * share(0.05))} %, 100 ms ${f(100 * share(0.1))} %; p99 <= ${p99Bound! * 1000} ms`,
    );
  }
  say(
    `API event loop (its own measure, since the scrape before): p50 ${f(1000 * metric(apiMetrics, 'nodejs_eventloop_lag_p50_seconds'))} ms, ` +
      `p99 ${f(1000 * metric(apiMetrics, 'nodejs_eventloop_lag_p99_seconds'))} ms, max ${f(1000 * metric(apiMetrics, 'nodejs_eventloop_lag_max_seconds'))} ms; ` +
      `GC ${f(metric(apiMetrics, 'nodejs_gc_duration_seconds_sum'), 2)} s in ${metric(apiMetrics, 'nodejs_gc_duration_seconds_count')} collections since start`,
  );
  say(
    `load client's event-loop delay: p50 ${f(loopDelay.percentile(50) / 1e6)} ms, p99 ${f(loopDelay.percentile(99) / 1e6)} ms, ` +
      `max ${f(loopDelay.max / 1e6)} ms (part of the latencies above)`,
  );
  const total5xx = KINDS.reduce((n, k) => n + status5xx[k], 0);
  say(`\ndetections per window: ${f(windowRows / Math.max(1, windowsParsed))}; network errors: ${netErrors}`);
  const mibs = rss.map((x) => x.mib);
  const perMin = slope(
    rss.map((x) => x.s / 60),
    mibs,
  );
  // The second half alone: past the warm-up (JIT, pools, caches), where a leak would show.
  const half = rss.filter((x) => x.s >= wall / 2);
  const perMinLate =
    half.length > 2
      ? slope(
          half.map((x) => x.s / 60),
          half.map((x) => x.mib),
        )
      : NaN;
  say(
    `API RSS (${rss.length} samples every ${SAMPLE_MS / 1000} s): first ${f(mibs[0])} MiB, last ${f(mibs[mibs.length - 1])} MiB, ` +
      `max ${f(Math.max(...mibs))} MiB; slope ${f(perMin, 2)} MiB/min over the run, ${f(perMinLate, 2)} MiB/min over its second half`,
  );
  const p99w = percentile(lat.window, 99);
  say(
    `\nwindow-query p99 ${f(p99w)} ms (target < 50 ms: ${p99w < 50 ? 'met' : 'NOT met'}); 5xx: ${total5xx} (target 0: ${total5xx === 0 ? 'met' : 'NOT met'})`,
  );
  if (total5xx > 0 || netErrors > 0) exitCode = 1;
} finally {
  for (const w of workers) await stopWorker(w);
  await server.stop();
  execFileSync('dropdb', ['-h', PG.host, '-U', PG.user, '--force', '--if-exists', dbName]);
}
process.exit(exitCode);
