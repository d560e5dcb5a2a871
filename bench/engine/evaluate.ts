/** Precision/recall at polygon IoU 0.5, per size bucket and per logo kind. */
import { quadIoU } from '../../packages/engine/src/geometry.ts';
import type { MediaAnalysis } from '../../packages/engine/src/index.ts';
import type { LogoKind } from './catalog.ts';
import { scored, type Clip } from './generate.ts';

export const BUCKETS: [string, number, number][] = [
  ['16-32', 0, 32],
  ['32-48', 32, 48],
  ['48-96', 48, 96],
  ['96-200', 96, 200],
  ['200+', 200, Infinity],
];

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

export class Scores {
  readonly byBucket = new Map<string, Tally>();
  readonly byKind = new Map<string, Tally>();
  readonly all: Tally = { tp: 0, fp: 0, fn: 0 };
  /** logos of 48 px and larger (the issue's target) */
  readonly large: Tally = { tp: 0, fp: 0, fn: 0 };

  add(what: keyof Tally, size: number, kind: string): void {
    const bucket = BUCKETS.find(([, lo, hi]) => size >= lo && size < hi)![0];
    for (const [map, key] of [
      [this.byBucket, bucket],
      [this.byKind, kind],
    ] as const) {
      if (!map.has(key)) map.set(key, { tp: 0, fp: 0, fn: 0 });
      map.get(key)![what]++;
    }
    this.all[what]++;
    if (size >= 48) this.large[what]++;
  }
}

/** Short side of a quad: mean of its left/right sides vs top/bottom sides, whichever is smaller. */
export function quadSize(q: number[]): number {
  const d = (a: number, b: number) => Math.hypot(q[b * 2] - q[a * 2], q[b * 2 + 1] - q[a * 2 + 1]);
  return Math.min((d(0, 1) + d(3, 2)) / 2, (d(1, 2) + d(0, 3)) / 2);
}

/**
 * Scores one analysed clip at every sampled frame: a detection's segment active at the sample
 * time is a prediction there; predictions and truths of the same brand are matched greedily by IoU.
 */
export function scoreClip(
  clip: Clip,
  result: MediaAnalysis,
  sampleFps: number,
  kindOf: (brand: string) => LogoKind,
  scores: Scores,
): void {
  const samples = Math.ceil((clip.frames / clip.fps) * sampleFps - 1e-9);
  // BENCH_INSTANCES=1: logo-frames found / scored per instance, for comparing two runs
  const perInstance = new Map<Clip['instances'][number], { tp: number; n: number }>();
  const count = (i: Clip['instances'][number], tp: boolean) => {
    const r = perInstance.get(i) ?? { tp: 0, n: 0 };
    r.n++;
    if (tp) r.tp++;
    perInstance.set(i, r);
  };
  for (let k = 0; k < samples; k++) {
    const t = (k * 1000) / sampleFps;
    const f = Math.round((t * clip.fps) / 1000);
    // A logo drawn but not visible at f (see generate.ts) is not scored: a detection of it is
    // neither right nor wrong.
    const truths = clip.instances
      .filter((i) => f >= i.from && f < i.to)
      .map((i) => ({ i, q: i.quads[f], used: false, ignored: !scored(i, f) }));
    const preds: { brand: string; q: number[] }[] = [];
    for (const d of result.detections) {
      const seg = d.coordinates.find(
        (s) => s.start_time <= t + 0.5 && t + 0.5 < Math.max(s.end_time, s.start_time + 1),
      );
      if (seg) preds.push({ brand: String(d.brandId), q: seg.points });
    }
    const pairs: { p: number; g: number; iou: number }[] = [];
    preds.forEach((p, pi) =>
      truths.forEach((g, gi) => {
        if (p.brand !== g.i.brand) return;
        const iou = quadIoU(p.q, g.q);
        if (iou >= 0.5) pairs.push({ p: pi, g: gi, iou });
      }),
    );
    pairs.sort((a, b) => b.iou - a.iou);
    const pUsed = new Set<number>();
    for (const pr of pairs) {
      if (pUsed.has(pr.p) || truths[pr.g].used) continue;
      pUsed.add(pr.p);
      truths[pr.g].used = true;
      if (!truths[pr.g].ignored) {
        scores.add('tp', truths[pr.g].i.size, truths[pr.g].i.kind);
        count(truths[pr.g].i, true);
      }
    }
    for (const g of truths)
      if (!g.used && !g.ignored) {
        scores.add('fn', g.i.size, g.i.kind);
        count(g.i, false);
      }
    preds.forEach((p, pi) => {
      if (pUsed.has(pi)) return;
      scores.add('fp', quadSize(p.q), kindOf(p.brand));
      // BENCH_EXPLAIN_FP=1: what each false positive was (a wrong brand, or the right one misplaced)
      if (process.env.BENCH_EXPLAIN_FP) {
        const same = truths.find((g) => g.i.brand === p.brand);
        const under = truths.find((g) => quadIoU(p.q, g.q) > 0);
        process.stderr.write(
          `FP ${clip.file.split('/').pop()} t ${t} ms ${p.brand} ${quadSize(p.q).toFixed(0)} px: ${
            same
              ? `its own logo at IoU ${quadIoU(p.q, same.q).toFixed(2)}`
              : under
                ? `over ${under.i.brand}`
                : 'on the background'
          }\n`,
        );
      }
    });
  }
  if (process.env.BENCH_INSTANCES)
    for (const [i, r] of perInstance)
      process.stderr.write(
        `INSTANCE ${clip.file.split('/').pop()} ${i.brand} from ${i.from} ${i.kind} ${i.size.toFixed(0)} px: ${r.tp}/${r.n}\n`,
      );
}

export function pr(t: Tally): { p: string; r: string } {
  const p = t.tp + t.fp ? t.tp / (t.tp + t.fp) : NaN;
  const r = t.tp + t.fn ? t.tp / (t.tp + t.fn) : NaN;
  return { p: Number.isNaN(p) ? '  -  ' : p.toFixed(3), r: Number.isNaN(r) ? '  -  ' : r.toFixed(3) };
}
