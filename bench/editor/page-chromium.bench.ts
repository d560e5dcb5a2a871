/**
 * The editor page itself in headless Chromium (Debian's /usr/bin/chromium), on the real server and API:
 *
 * 1. seek: a 10 min 640x360 25 fps video with 50,000 detections (2-10 s long, ~590 active at a time); clicks on
 *    the progress bar at random whole seconds and measures, in the page, from the click until the Detections
 *    table lists exactly the detections active at that frame (window request + JSON + index + React table).
 * 2. redraw: the overlay's render time per presented frame (the page keeps the last 4096 in a ring,
 *    `window.__editorRenderTimes`) while playing with ~590 active detections; plus dropped frames.
 * 3. memory: plays the whole 10 minutes at 6x (the fastest speed the editor offers, so 10 min of playback
 *    take ~100 s) twice in NORMAL mode; JS heap and DOM nodes after a forced GC, before and after each pass. The
 *    first pass also loads every detection window (the data itself is kept by design); the second pass shows
 *    whether playback itself grows memory.
 *
 * Run: node --import tsx bench/editor/page-chromium.bench.ts [seeks=30] [--postgres]
 * --postgres runs the server on a fresh database of the local PostgreSQL (127.0.0.1:5432) instead of the
 * embedded one.
 * Needs the built web app (npm run build -w @logo-review/web). Starts its own server (fresh data folder).
 */
import { execFileSync } from 'node:child_process';
import type { CDPSession, Page } from 'playwright-core';
import { ApiClient } from '../../e2e/support/api-client.ts';
import { launchBrowser, loginThroughUi, newPage } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server-process.ts';
import { editorTestVideo, seedDetections, seedBenchCatalog, uploadVideo } from '../../e2e/editor-seed.ts';
import { generateDetections, lcg, percentile, toUpload } from './generate-detections.ts';

declare global {
  interface Window {
    /** The editor page's ring of overlay redraw times (apps/web/src/editor/render-stats.ts). */
    __editorRenderTimes?: { samples(): number[]; clear(): void };
  }
}

const args = process.argv.slice(2);
const POSTGRES = args.includes('--postgres');
const SEEKS = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
const DURATION_MS = 600_000;
const FPS = 25;
const COUNT = 50_000;

const f = (x: number, d = 2) => x.toFixed(d);
const stats = (xs: number[]) =>
  `p50 ${f(percentile(xs, 50))} ms, p95 ${f(percentile(xs, 95))} ms, max ${f(Math.max(...xs))} ms (n=${xs.length})`;

async function heap(cdp: CDPSession): Promise<{ heapMb: number; nodes: number; listeners: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? NaN;
  return { heapMb: m('JSHeapUsedSize') / 1e6, nodes: m('Nodes'), listeners: m('JSEventListeners') };
}

async function listedIds(page: Page): Promise<string> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('table[aria-label="Active detections"] tbody tr td:first-child'))
      .map((td) => Number(td.textContent))
      .filter((n) => n > 0)
      .sort((a, b) => a - b)
      .join(','),
  );
}

/** Clicks the start of the progress bar and waits until the timer shows the first frame. */
async function rewind(page: Page): Promise<void> {
  await page.evaluate(() => {
    const bar = document.querySelector('[role="slider"][aria-label="Video progress"]')!;
    const r = bar.getBoundingClientRect();
    bar.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left, clientY: r.top + 2 }));
  });
  await page
    .getByRole('timer', { name: 'Time' })
    .getByText(/^00:00:00:00 \//)
    .waitFor();
}

/** Plays to the end at 6x; returns the wall time. */
async function playThrough(page: Page): Promise<number> {
  const t0 = Date.now();
  await page.keyboard.press('p');
  await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 600_000 });
  return (Date.now() - t0) / 1000;
}

const dbName = `editor_bench_${Date.now()}`;
if (POSTGRES) execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
const server = await startServer(
  POSTGRES ? { env: { DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}` } } : {},
);
console.log(`database: ${POSTGRES ? 'PostgreSQL (local)' : 'embedded (PGlite)'}`);
const browser = await launchBrowser();
try {
  const api = await ApiClient.login(server.baseURL, server.username, server.password);
  const { brands, placements } = await seedBenchCatalog(api);
  let t = Date.now();
  const video = await uploadVideo(api, editorTestVideo(600), 'Bench match', 600_000);
  console.log(`video: 600 s 640x360 ${FPS} fps uploaded and processed in ${f((Date.now() - t) / 1000, 1)} s`);

  // The shared generator's 1920x1080 data, scaled to 640x360.
  const generated = generateDetections(COUNT, DURATION_MS);
  const upload = toUpload(generated, video.id, brands, placements);
  t = Date.now();
  const created = await seedDetections(api, upload);
  console.log(`seeded ${created.length} detections in ${f((Date.now() - t) / 1000, 1)} s`);
  const spans = created.map((d) => [d.id, d.time_begin, d.time_end] as const);
  const activeAt = (ms: number) =>
    spans
      .filter(([, b, e]) => b <= ms + 1000 / FPS - 1e-6 && e >= ms)
      .map(([id]) => id)
      .sort((a, b) => a - b)
      .join(',');

  const { page } = await newPage(browser, server.baseURL);
  // tsx (esbuild keepNames) wraps named functions inside page.evaluate in __name(); define it in the page.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  page.on('pageerror', (e) => console.log('page error:', e.message));
  await loginThroughUi(page, server.username, server.password);
  await page.evaluate((id) => {
    localStorage.setItem('VIDEO', String(id));
    localStorage.setItem('TIME', '0');
    localStorage.setItem('PLAY_MODE', 'NORMAL');
  }, video.id);
  await page.goto('/editor');
  await page.getByRole('img', { name: 'Detection overlay' }).waitFor();
  await page.getByText('Loading video..').waitFor({ state: 'detached' });

  // ---- 1. seek ---------------------------------------------------------------------------------------------
  const rnd = lcg(11);
  const seekMs: number[] = [];
  const sizes: number[] = [];
  const requestTimes: number[] = [];
  const requestBytes: number[] = [];
  for (let i = 0; i < SEEKS; i++) {
    const second = 5 + Math.floor(rnd() * 590);
    // A progress-bar pixel is about a second here: the click may land a second off; the page reads where it landed.
    const expected: Record<number, string> = {};
    for (const s of [second - 1, second, second + 1]) expected[s] = activeAt(s * 1000);
    const { ms, landed, requestMs, bytes } = await page.evaluate(
      async ({ second, expected, duration }) => {
        const bar = document.querySelector('[role="slider"][aria-label="Video progress"]')!;
        const r = bar.getBoundingClientRect();
        const x = r.left + ((second * 1000) / duration) * r.width;
        const ids = () =>
          Array.from(
            document.querySelectorAll('table[aria-label="Active detections"] tbody tr td:first-child'),
          )
            .map((td) => Number(td.textContent))
            .filter((n) => n > 0)
            .sort((a, b) => a - b)
            .join(',');
        performance.clearResourceTimings();
        const t0 = performance.now();
        bar.dispatchEvent(
          new MouseEvent('click', { bubbles: true, clientX: x, clientY: r.top + r.height / 2 }),
        );
        for (;;) {
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const landed = Number(bar.getAttribute('aria-valuenow'));
          if (ids() === expected[landed]) {
            const ms = performance.now() - t0;
            // The window request's own time (request start to last byte) and size, from Resource Timing.
            const calls = performance
              .getEntriesByType('resource')
              .filter((e) => e.name.includes('/api/videos/detections/')) as PerformanceResourceTiming[];
            const requestMs = calls.reduce((sum, e) => sum + (e.responseEnd - e.startTime), 0);
            const bytes = calls.reduce((sum, e) => sum + e.decodedBodySize, 0);
            return { ms, landed, requestMs, bytes };
          }
          if (performance.now() - t0 > 10_000) return { ms: -1, landed, requestMs: 0, bytes: 0 };
        }
      },
      { second, expected, duration: DURATION_MS },
    );
    if (ms < 0)
      throw new Error(
        `seek to ${landed} s: table shows [${(await listedIds(page)).slice(0, 80)}...], expected [${(expected[landed] ?? '?').slice(0, 80)}...]`,
      );
    seekMs.push(ms);
    requestTimes.push(requestMs);
    requestBytes.push(bytes);
    sizes.push(expected[landed].split(',').length);
  }
  console.log(
    `seek to a random second until the table lists the right ${percentile(sizes, 50)} (median) detections: ${stats(seekMs)}`,
  );

  console.log(
    `  of which the window request (request start to last byte, ${f(percentile(requestBytes, 50) / 1e6)} MB JSON median): ${stats(requestTimes)}`,
  );

  // ---- 2a. frame steps: hotkey -> model -> overlay redraw -> rasterized, on the page's own 640x360 canvas ----
  const steps = await page.evaluate(async (n) => {
    const canvas = document.querySelector('canvas[aria-label="Detection overlay"]') as HTMLCanvasElement;
    const ctx = canvas.getContext('2d')!;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      // Reading a pixel makes Chromium rasterize what was drawn.
      ctx.getImageData(0, 0, 1, 1);
      out.push(performance.now() - t0);
      // Let React update the panels between steps (not timed: that is the table, not the overlay).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return out;
  }, 500);
  const active = (await listedIds(page)).split(',').length;
  console.log(
    `frame step (ArrowRight: model + overlay redraw + rasterize, 640x360 canvas, ~${active} active): ${stats(steps)}`,
  );

  // ---- 2 and 3. playback at 6x -------------------------------------------------------------------------------
  for (let i = 0; i < 10; i++) await page.getByRole('button', { name: 'Speed up' }).click();
  await page.getByRole('status', { name: 'Playback speed' }).getByText('6x').waitFor();
  await rewind(page);
  const h0 = await heap(cdp);
  const wall1 = await playThrough(page);
  const h1 = await heap(cdp);
  console.log(
    `pass 1 (loads every window): 10 min of video played at 6x in ${f(wall1, 1)} s; JS heap ${f(h0.heapMb, 1)} -> ${f(h1.heapMb, 1)} MB, DOM nodes ${h0.nodes} -> ${h1.nodes}, listeners ${h0.listeners} -> ${h1.listeners}`,
  );

  await page.evaluate(() => window.__editorRenderTimes?.clear());
  await rewind(page);
  const q0 = await page.evaluate(() =>
    (({ totalVideoFrames, droppedVideoFrames }) => ({ totalVideoFrames, droppedVideoFrames }))(
      document.querySelector('video')!.getVideoPlaybackQuality(),
    ),
  );
  const h2 = await heap(cdp);
  const wall2 = await playThrough(page);
  const q1 = await page.evaluate(() =>
    (({ totalVideoFrames, droppedVideoFrames }) => ({ totalVideoFrames, droppedVideoFrames }))(
      document.querySelector('video')!.getVideoPlaybackQuality(),
    ),
  );
  const h3 = await heap(cdp);
  const render = await page.evaluate(() => window.__editorRenderTimes!.samples());
  console.log(
    `pass 2 (all loaded): 10 min at 6x in ${f(wall2, 1)} s; JS heap ${f(h2.heapMb, 1)} -> ${f(h3.heapMb, 1)} MB (delta ${f(h3.heapMb - h2.heapMb, 2)} MB), DOM nodes ${h2.nodes} -> ${h3.nodes}, listeners ${h2.listeners} -> ${h3.listeners}`,
  );
  console.log(
    `video frames during pass 2: ${q1.totalVideoFrames - q0.totalVideoFrames} decoded, ${q1.droppedVideoFrames - q0.droppedVideoFrames} dropped`,
  );
  console.log(
    `overlay redraw in the page (JS render(), last ${render.length} frames of pass 2): ${stats(render)}`,
  );
  console.log(`chromium ${browser.version()}`);
} finally {
  await browser.close();
  await server.stop();
  if (POSTGRES) execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', dbName]);
}
