/**
 * Overlay redraw in headless Chromium (Debian's /usr/bin/chromium) on a real 1280x720 canvas: 50,000
 * detections, about 500 active per frame, 10 minutes of playback at 25 fps (15,000 frames), random seeks, heap
 * before and after. Targets (issue 5): redraw p95 under 4 ms with 500 active; seek shows the right detections
 * well within 300 ms; no memory growth.
 *
 * Run: node --import tsx bench/editor/overlay-chromium.bench.ts [frames]
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import type { OverlayBenchResult } from './overlay-browser-entry.ts';

const frames = Number(process.argv[2] ?? 15_000);
// --no-labels measures with the box labels hidden (key l), to show what labels cost.
const labels = !process.argv.includes('--no-labels');
const entry = fileURLToPath(new URL('./overlay-browser-entry.ts', import.meta.url));
const bundle = await build({
  entryPoints: [entry],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--enable-precise-memory-info',
    '--js-flags=--expose-gc',
  ],
});
try {
  const page = await browser.newPage();
  await page.setContent('<canvas id="overlay" width="1280" height="720"></canvas>');
  await page.addScriptTag({ content: bundle.outputFiles[0].text });
  const r: OverlayBenchResult = await page.evaluate(([n, l]) => window.runOverlayBench(n, l), [
    frames,
    labels,
  ] as const);
  const f = (x: number) => x.toFixed(3);
  const s = (m: { p50: number; p95: number; max: number }) =>
    `p50 ${f(m.p50)} ms, p95 ${f(m.p95)} ms, max ${f(m.max)} ms`;
  console.log(
    `chromium ${browser.version()}, ${r.detections} detections, active per frame p50 ${r.activeP50}, max ${r.activeMax}, labels ${labels ? 'shown' : 'hidden'}`,
  );
  console.log(`render() JS, ${r.playbackFrames} frames: ${s(r.renderMs)}`);
  console.log(`render() + rasterize (1x1 getImageData): ${s(r.renderFlushMs)}`);
  console.log(`random seek (setTime + render + rasterize): ${s(r.seekMs)}`);
  if (r.heapBeforeMb !== null && r.heapAfterMb !== null) {
    console.log(
      `JS heap before ${r.heapBeforeMb.toFixed(1)} MB, after ${r.heapAfterMb.toFixed(1)} MB (delta ${(r.heapAfterMb - r.heapBeforeMb).toFixed(2)} MB)`,
    );
  }
} finally {
  await browser.close();
}
