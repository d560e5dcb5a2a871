/**
 * Node micro-benchmark of the editor core (no browser): time index, active query, renderer batching.
 * It uses a no-op canvas, so it measures the core's own cost per frame, not Chromium's rasterization; the
 * headless-Chromium benchmark measures the real redraw.
 *
 * Run: node --import tsx --expose-gc bench/editor/overlay-node.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { ReviewEditor, type CanvasLike, type Detection } from '@logo-review/review-canvas';
import { generateDetections, lcg, percentile as pct } from './generate-detections.ts';

const DETECTIONS = 50_000;
const DURATION_MS = 600_000; // 10 min
const FPS = 25;

/** Counts calls but draws nothing. */
class NullCanvas implements CanvasLike {
  lineWidth = 1;
  strokeStyle: string | object = '';
  fillStyle: string | object = '';
  shadowBlur = 0;
  shadowColor = '';
  calls = 0;
  clearRect(): void {
    this.calls++;
  }
  fillRect(): void {
    this.calls++;
  }
  strokeRect(): void {
    this.calls++;
  }
  beginPath(): void {
    this.calls++;
  }
  moveTo(): void {
    this.calls++;
  }
  lineTo(): void {
    this.calls++;
  }
  closePath(): void {
    this.calls++;
  }
  stroke(): void {
    this.calls++;
  }
  setLineDash(): void {
    this.calls++;
  }
}

const f = (x: number) => x.toFixed(3);
const gc = (globalThis as { gc?: () => void }).gc;

let detections: Detection[] | null = generateDetections(DETECTIONS, DURATION_MS);
const editor = new ReviewEditor({ videoId: 1, fps: FPS });
editor.setViewport(1280, 720, 1280 / 1920);

let t0 = performance.now();
editor.model.setDetections(detections);
detections = null; // only the model's copy stays, as in the app
editor.model.setTime(1);
editor.model.activeDetections(); // builds the index
console.log(`index build, ${DETECTIONS} detections: ${f(performance.now() - t0)} ms`);

// Select a few so the glow path is exercised.
editor.model.setTime(300_000);
editor.model.select(
  editor.model
    .activeDetections()
    .slice(0, 5)
    .map((d) => ({ kind: 'detection' as const, id: d.id })),
);

const ctx = new NullCanvas();
const rnd = lcg(99);

// Seeks: random time -> active set (query), then render. Warm up the JIT first.
for (let i = 0; i < 500; i++) {
  editor.model.setTime(rnd() * DURATION_MS);
  editor.render(ctx);
}
const query: number[] = [];
const seek: number[] = [];
const activeCounts: number[] = [];
for (let i = 0; i < 5000; i++) {
  const t = rnd() * DURATION_MS;
  const s = performance.now();
  editor.model.setTime(t);
  const n = editor.model.activeEntries().length;
  const q = performance.now();
  editor.render(ctx);
  seek.push(performance.now() - s);
  query.push(q - s);
  activeCounts.push(n);
}
console.log(
  `seek to a random time, active query only: p50 ${f(pct(query, 50))} ms, p95 ${f(pct(query, 95))} ms, max ${f(Math.max(...query))} ms`,
);
console.log(
  `seek + render: p50 ${f(pct(seek, 50))} ms, p95 ${f(pct(seek, 95))} ms, max ${f(Math.max(...seek))} ms; ` +
    `active detections p50 ${pct(activeCounts, 50)}, min ${Math.min(...activeCounts)}, max ${Math.max(...activeCounts)}`,
);

// Playback: 10 minutes at 25 fps, one render per frame; heap measured before and after.
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const frame: number[] = [];
t0 = performance.now();
for (let n = 0; n < (DURATION_MS / 1000) * FPS; n++) {
  const s = performance.now();
  editor.model.setTime((n * 1000) / FPS);
  editor.render(ctx);
  frame.push(performance.now() - s);
}
const total = performance.now() - t0;
gc?.();
const heapAfter = process.memoryUsage().heapUsed;
console.log(
  `playback ${frame.length} frames: p50 ${f(pct(frame, 50))} ms, p95 ${f(pct(frame, 95))} ms, p99 ${f(pct(frame, 99))} ms, ` +
    `total ${f(total)} ms; ~${Math.round(ctx.calls / (frame.length + seek.length + 500))} canvas calls per frame`,
);
console.log(
  `heap before ${(heapBefore / 1e6).toFixed(1)} MB, after ${(heapAfter / 1e6).toFixed(1)} MB ` +
    `(delta ${((heapAfter - heapBefore) / 1e6).toFixed(2)} MB${gc ? '' : ', run with --expose-gc for a fair number'}); ` +
    `${editor.model.detectionCount} detections still loaded`,
);
