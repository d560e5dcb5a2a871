/**
 * Browser side of overlay-chromium.bench.ts: bundled with esbuild and run in headless Chromium on a real
 * <canvas>. Measures render() alone (the JS that records the drawing) and render() plus a 1x1 getImageData,
 * which forces Chromium to rasterize the frame (so the number includes the actual drawing).
 */
import { ReviewEditor } from '@logo-review/review-canvas';
import { generateDetections, lcg, percentile } from './generate-detections.ts';

export interface OverlayBenchResult {
  detections: number;
  activeP50: number;
  activeMax: number;
  playbackFrames: number;
  renderMs: { p50: number; p95: number; max: number };
  renderFlushMs: { p50: number; p95: number; max: number };
  seekMs: { p50: number; p95: number; max: number };
  heapBeforeMb: number | null;
  heapAfterMb: number | null;
}

declare global {
  interface Window {
    runOverlayBench(frames: number, labels?: boolean): OverlayBenchResult;
  }
}

const stats = (xs: number[]) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), max: Math.max(...xs) });

function heapMb(): number | null {
  const mem = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return mem ? mem.usedJSHeapSize / 1e6 : null;
}

function gc(): void {
  (window as unknown as { gc?: () => void }).gc?.();
}

window.runOverlayBench = (frames: number, labels = true): OverlayBenchResult => {
  const DURATION = 600_000;
  const COUNT = 50_000;
  const canvas = document.getElementById('overlay') as HTMLCanvasElement;
  const ctx = canvas.getContext('2d')!;
  const editor = new ReviewEditor({ videoId: 1, fps: 25 });
  editor.setViewport(canvas.width, canvas.height, canvas.width / 1920);
  if (!labels) editor.toggleLabels();
  editor.model.setDetections(generateDetections(COUNT, DURATION));
  editor.model.setTime(300_000);
  editor.model.select(
    editor.model
      .activeDetections()
      .slice(0, 5)
      .map((d) => ({ kind: 'detection' as const, id: d.id })),
  );

  // Warm-up.
  for (let n = 0; n < 200; n++) {
    editor.model.setTime(n * 40);
    editor.render(ctx);
    ctx.getImageData(0, 0, 1, 1);
  }

  gc();
  const heapBefore = heapMb();
  const render: number[] = [];
  const flush: number[] = [];
  const active: number[] = [];
  for (let n = 0; n < frames; n++) {
    editor.model.setTime(((n * 40) % (DURATION - 1000)) + 1000);
    const t0 = performance.now();
    editor.render(ctx);
    const t1 = performance.now();
    ctx.getImageData(0, 0, 1, 1);
    const t2 = performance.now();
    render.push(t1 - t0);
    flush.push(t2 - t0);
    if (n % 25 === 0) active.push(editor.model.activeEntries().length);
  }
  gc();
  const heapAfter = heapMb();

  const rnd = lcg(3);
  const seek: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    editor.model.setTime(rnd() * DURATION);
    editor.render(ctx);
    ctx.getImageData(0, 0, 1, 1);
    seek.push(performance.now() - t0);
  }
  return {
    detections: editor.model.detectionCount,
    activeP50: percentile(active, 50),
    activeMax: Math.max(...active),
    playbackFrames: frames,
    renderMs: stats(render),
    renderFlushMs: stats(flush),
    seekMs: stats(seek),
    heapBeforeMb: heapBefore,
    heapAfterMb: heapAfter,
  };
};
