import type { NewDetection } from '@logo-review/contract';
import type { Detection } from '@logo-review/review-canvas';

/** Deterministic pseudo-random numbers (the same data every run). */
export function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const COLORS = ['#e53935', '#1e88e5', '#43a047', '#fdd835', '#8e24aa', '#00acc1', '#000000', '#ff7043'];

/**
 * `count` detections over `durationMs` of a 1920x1080 video, 2 to 10 s long (50,000 over 10 min gives about
 * 500 active at a time), with one segment per second drifting to the right.
 */
export function generateDetections(count: number, durationMs: number, seed = 7): Detection[] {
  const rnd = lcg(seed);
  // Review fields come from their own sequence, so spans and boxes stay those of earlier runs.
  const extra = lcg(seed + 1);
  const out: Detection[] = [];
  for (let id = 1; id <= count; id++) {
    const begin = Math.floor(rnd() * (durationMs - 10_000));
    const len = 2000 + Math.floor(rnd() * 8000);
    const x = rnd() * 1800;
    const y = rnd() * 1000;
    const coordinates = [];
    for (let s = begin; s < begin + len; s += 1000) {
      const dx = (s - begin) / 100;
      coordinates.push({
        start_time: s,
        end_time: Math.min(s + 999, begin + len),
        points: [x + dx, y, x + dx + 100, y, x + dx + 100, y + 50, x + dx, y + 50],
      });
    }
    const p = Math.floor(rnd() * COLORS.length);
    // A review in progress: most unreviewed (dashed), some confirmed, a few edited or drawn by hand (marked).
    const r = extra();
    const review = r < 0.6 ? 'UNREVIEWED' : r < 0.85 ? 'TRUE_POSITIVE' : r < 0.95 ? 'EDITED' : 'MANUAL';
    out.push({
      id,
      brand: 1 + Math.floor(rnd() * 30),
      placement: { id: p + 1, localized_name: `P${p}`, color: COLORS[p] },
      coordinates,
      time_begin: begin,
      time_end: begin + len,
      video: 1,
      review,
      confidence: review === 'MANUAL' ? null : Math.round((0.3 + extra() * 0.7) * 100) / 100,
      source: review === 'MANUAL' ? 'manual' : 'engine',
    });
  }
  return out;
}

/** Percentile of a sample (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/**
 * The generator's 1920x1080 detections as the API's upload form for a 640x360 benchmark video,
 * spread over the seeded brands and placements.
 */
export function toUpload(
  generated: Detection[],
  video: number,
  brands: { id: number }[],
  placements: { id: number }[],
): NewDetection[] {
  return generated.map((d) => ({
    video,
    brand: brands[d.brand % brands.length].id,
    placement: placements[(d.placement.id - 1) % placements.length].id,
    time_begin: d.time_begin,
    time_end: d.time_end,
    coordinates: d.coordinates.map((s) => ({
      ...s,
      points: s.points.map((v) => Math.round((v / 3) * 100) / 100),
    })),
  }));
}
