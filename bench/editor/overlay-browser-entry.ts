/**
 * Browser side of overlay-chromium.bench.ts, run in headless Chromium on real <canvas> elements. Measures,
 * for each configuration (a build of the core, labels shown or hidden), render() alone (the JS that records
 * the drawing) and render() plus a 1x1 getImageData, which forces Chromium to rasterize the frame (so the
 * number includes the actual drawing). The configurations take turns frame by frame, each on its own canvas,
 * so a busy machine slows them all alike and the figures compare side by side.
 */
import type { ReviewEditor } from '@logo-review/review-canvas';
import { generateDetections, lcg, percentile } from './generate-detections.ts';

export interface Stats {
  p50: number;
  p95: number;
  max: number;
}

export interface OverlayConfigResult {
  name: string;
  renderMs: Stats;
  renderFlushMs: Stats;
  seekMs: Stats;
  /** Labels drawn per frame (p50), from the renderer's layout when it exposes it. */
  labelsP50: number | null;
}

export interface OverlayBenchResult {
  detections: number;
  activeP50: number;
  activeMax: number;
  playbackFrames: number;
  configs: OverlayConfigResult[];
  heapBeforeMb: number | null;
  heapAfterMb: number | null;
}

export interface OverlayConfig {
  name: string;
  variant: string;
  labels: boolean;
}

declare global {
  interface Window {
    overlayVariants: Record<string, typeof ReviewEditor>;
    runOverlayBench(frames: number, configs: OverlayConfig[], skewPx?: number): OverlayBenchResult;
  }
}

const stats = (xs: number[]): Stats => ({
  p50: percentile(xs, 50),
  p95: percentile(xs, 95),
  max: Math.max(...xs),
});

function heapMb(): number | null {
  const mem = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return mem ? mem.usedJSHeapSize / 1e6 : null;
}

function gc(): void {
  (window as unknown as { gc?: () => void }).gc?.();
}

/**
 * The generator's boxes are axis-aligned rectangles; an engine detection is a projected quad, whose edges are
 * rarely exactly horizontal or vertical. This tilts each box's corners by up to `px` video px (the same tilt
 * for a detection's whole track), so the figures can be taken on quads like the engine's.
 */
function skewed(
  list: ReturnType<typeof generateDetections>,
  px: number,
): ReturnType<typeof generateDetections> {
  const rnd = lcg(11);
  return list.map((d) => {
    const a = (rnd() - 0.5) * 2 * px;
    const b = (rnd() - 0.5) * 2 * px;
    return {
      ...d,
      coordinates: d.coordinates.map((s) => {
        const p = s.points;
        return { ...s, points: [p[0], p[1] + a, p[2], p[3] - a, p[4] + b, p[5] + a, p[6] - b, p[7]] };
      }),
    };
  });
}

window.runOverlayBench = (frames: number, configs: OverlayConfig[], skewPx = 0): OverlayBenchResult => {
  const DURATION = 600_000;
  const COUNT = 50_000;
  const generated =
    skewPx > 0 ? skewed(generateDetections(COUNT, DURATION), skewPx) : generateDetections(COUNT, DURATION);
  const setups = configs.map((c) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1280;
    canvas.height = 720;
    document.body.appendChild(canvas);
    const ctx = canvas.getContext('2d')!;
    const Editor = window.overlayVariants[c.variant];
    const editor = new Editor({ videoId: 1, fps: 25 });
    editor.setViewport(canvas.width, canvas.height, canvas.width / 1920);
    if (editor.labelsVisible !== c.labels) editor.toggleLabels();
    editor.model.setDetections(generated);
    editor.model.setTime(300_000);
    editor.model.select(
      editor.model
        .activeDetections()
        .slice(0, 5)
        .map((d) => ({ kind: 'detection' as const, id: d.id })),
    );
    return {
      c,
      ctx,
      editor,
      render: [] as number[],
      flush: [] as number[],
      seek: [] as number[],
      labels: [] as number[],
    };
  });

  // Warm-up.
  for (let n = 0; n < 200; n++) {
    for (const s of setups) {
      s.editor.model.setTime(n * 40);
      s.editor.render(s.ctx);
      s.ctx.getImageData(0, 0, 1, 1);
    }
  }

  gc();
  const heapBefore = heapMb();
  const active: number[] = [];
  for (let n = 0; n < frames; n++) {
    const t = ((n * 40) % (DURATION - 1000)) + 1000;
    for (let k = 0; k < setups.length; k++) {
      // Rotate the order so no configuration always runs right after another one's raster.
      const s = setups[(n + k) % setups.length];
      s.editor.model.setTime(t);
      const t0 = performance.now();
      s.editor.render(s.ctx);
      const t1 = performance.now();
      s.ctx.getImageData(0, 0, 1, 1);
      const t2 = performance.now();
      s.render.push(t1 - t0);
      s.flush.push(t2 - t0);
      if (n % 25 === 0) {
        const layout = (s.editor.renderer as unknown as { layout?: { count: number } }).layout;
        if (layout !== undefined) s.labels.push(s.c.labels ? layout.count : 0);
      }
    }
    if (n % 25 === 0) active.push(setups[0].editor.model.activeEntries().length);
  }
  gc();
  const heapAfter = heapMb();

  const rnd = lcg(3);
  for (let i = 0; i < 300; i++) {
    const t = rnd() * DURATION;
    for (let k = 0; k < setups.length; k++) {
      const s = setups[(i + k) % setups.length];
      const t0 = performance.now();
      s.editor.model.setTime(t);
      s.editor.render(s.ctx);
      s.ctx.getImageData(0, 0, 1, 1);
      s.seek.push(performance.now() - t0);
    }
  }
  return {
    detections: setups[0].editor.model.detectionCount,
    activeP50: percentile(active, 50),
    activeMax: Math.max(...active),
    playbackFrames: frames,
    configs: setups.map((s) => ({
      name: s.c.name,
      renderMs: stats(s.render),
      renderFlushMs: stats(s.flush),
      seekMs: stats(s.seek),
      labelsP50: s.labels.length > 0 ? percentile(s.labels, 50) : null,
    })),
    heapBeforeMb: heapBefore,
    heapAfterMb: heapAfter,
  };
};
