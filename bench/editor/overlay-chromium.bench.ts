/**
 * Overlay redraw in headless Chromium (Debian's /usr/bin/chromium) on real 1280x720 canvases: 50,000
 * detections, about 500 active per frame, 10 minutes of playback at 25 fps (15,000 frames), random seeks, heap
 * before and after. Targets (issues 5 and 17): redraw p95 under 4 ms with 500 active, labels included; seek
 * shows the right detections well within 300 ms; no memory growth.
 *
 * Four configurations run side by side in the same page, taking turns frame by frame: this tree's core with
 * labels hidden and shown, and a baseline commit's core (default: the commit before the label-cost work of
 * issue 17, when labels were already drawn) with labels hidden and shown.
 *
 * `--skew <px>` tilts each box's corners by up to that many video px (the generator's boxes are axis-aligned
 * rectangles, the engine's are projected quads; Chromium's software rasterizer strokes axis-aligned edges much
 * faster than slanted ones).
 *
 * Run: node --import tsx bench/editor/overlay-chromium.bench.ts [frames] [--baseline <git ref>] [--no-baseline]
 *      [--skew <px>]
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OverlayBenchResult, OverlayConfig } from './overlay-browser-entry.ts';

const args = process.argv.slice(2);
const frames = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--skew') ?? 15_000);
const refAt = args.indexOf('--baseline');
const baselineRef = args.includes('--no-baseline') ? null : refAt >= 0 ? args[refAt + 1] : '54686c8';
const skewAt = args.indexOf('--skew');
const skewPx = skewAt >= 0 ? Number(args[skewAt + 1]) : 0;
const root = fileURLToPath(new URL('../../', import.meta.url));
const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

async function bundle(
  entry: string,
  define: Record<string, string> = {},
  alias: Record<string, string> = {},
) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    define,
    alias,
  });
  return out.outputFiles[0].text;
}

const scripts = [await bundle(here('./overlay-variant-entry.ts'), { __VARIANT__: '"current"' })];
const configs: OverlayConfig[] = [
  { name: 'this tree, labels hidden', variant: 'current', labels: false },
  { name: 'this tree, labels shown', variant: 'current', labels: true },
];
let tmp: string | null = null;
if (baselineRef !== null) {
  // The baseline's packages/review-canvas, extracted from git and bundled in place of the workspace package.
  tmp = mkdtempSync(join(tmpdir(), 'overlay-baseline-'));
  const tar = execFileSync('git', ['archive', baselineRef, 'packages/review-canvas/src'], { cwd: root });
  execFileSync('tar', ['-x', '-C', tmp], { input: tar });
  scripts.push(
    await bundle(
      here('./overlay-variant-entry.ts'),
      { __VARIANT__: '"baseline"' },
      { '@logo-review/review-canvas': join(tmp, 'packages/review-canvas/src/index.ts') },
    ),
  );
  configs.push(
    { name: `baseline ${baselineRef}, labels hidden`, variant: 'baseline', labels: false },
    { name: `baseline ${baselineRef}, labels shown`, variant: 'baseline', labels: true },
  );
}
scripts.push(await bundle(here('./overlay-browser-entry.ts')));

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
  await page.setContent('<body></body>');
  for (const content of scripts) await page.addScriptTag({ content });
  const r: OverlayBenchResult = await page.evaluate(([n, c, k]) => window.runOverlayBench(n, c, k), [
    frames,
    configs,
    skewPx,
  ] as const);
  const f = (x: number) => x.toFixed(1);
  const s = (m: { p50: number; p95: number; max: number }) => `${f(m.p50)} / ${f(m.p95)} / ${f(m.max)}`;
  console.log(
    `chromium ${browser.version()}, ${r.detections} detections (${skewPx > 0 ? `corners tilted by up to ${skewPx} video px` : 'axis-aligned boxes'}), active per frame p50 ${r.activeP50}, max ${r.activeMax}, ${r.playbackFrames} frames and 300 seeks per configuration, taking turns`,
  );
  const rows = r.configs.map((c) => [
    c.name,
    s(c.renderMs),
    s(c.renderFlushMs),
    s(c.seekMs),
    c.labelsP50 === null ? '-' : String(c.labelsP50),
  ]);
  const head = [
    'configuration',
    'render() JS p50/p95/max ms',
    'render + rasterize',
    'random seek',
    'labels/frame',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  for (const row of [head, ...rows]) console.log(row.map((x, i) => x.padEnd(widths[i])).join(' | '));
  if (r.heapBeforeMb !== null && r.heapAfterMb !== null) {
    console.log(
      `JS heap (all configurations) before ${r.heapBeforeMb.toFixed(1)} MB, after ${r.heapAfterMb.toFixed(1)} MB (delta ${(r.heapAfterMb - r.heapBeforeMb).toFixed(2)} MB)`,
    );
  }
} finally {
  await browser.close();
  if (tmp !== null) rmSync(tmp, { recursive: true, force: true });
}
