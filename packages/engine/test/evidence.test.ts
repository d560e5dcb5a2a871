import { describe, expect, it } from 'vitest';
import { followCorrelation } from '../src/follow.ts';
import { keypointScore, similarityQuad } from '../src/routes/keypoint-route.ts';
import { MIN_CONFIDENCE } from '../src/analyze.ts';
import { trackConfidence, type TimedHit, type Track } from '../src/tracker.ts';

const hit = (score: number, ncc: number, followed = false): TimedHit => ({
  brand: 0,
  example: 0,
  quad: [0, 0, 50, 0, 50, 50, 0, 50],
  inliers: followed ? 0 : 10,
  score,
  ncc,
  followed,
  timeMs: 0,
});

describe('keypointScore', () => {
  it('keeps the geometric score, discounted, while the correlation is merely acceptable', () => {
    expect(keypointScore(0.3, 0.5)).toBeCloseTo(0.3 * (0.5 + 0.5 / 1.4), 6);
    expect(keypointScore(0.3, 0.7)).toBeCloseTo(0.3, 6);
  });

  it('lets a close appearance witness for a fit of few keypoints, and only a close one', () => {
    // 10 inliers among much clutter: geometric score about 0.28 (the benchmark's small sqlite icon)
    const few = 0.28;
    expect(keypointScore(few, 0.6)).toBeLessThan(MIN_CONFIDENCE);
    expect(keypointScore(few, 0.7)).toBeLessThan(MIN_CONFIDENCE);
    expect(keypointScore(few, 0.91)).toBeGreaterThan(0.5);
    // monotone in both
    for (const ncc of [0.5, 0.7, 0.8, 0.9, 1]) {
      expect(keypointScore(few, ncc + 0.05)).toBeGreaterThanOrEqual(keypointScore(few, ncc));
      expect(keypointScore(few + 0.1, ncc)).toBeGreaterThan(keypointScore(few, ncc));
    }
    expect(keypointScore(1, 1)).toBeLessThanOrEqual(1);
  });

  it('reports a track of one such hit that the pixels followed', () => {
    const s = keypointScore(0.28, 0.91);
    const t: Track = {
      brand: 0,
      hits: [hit(s, 0.91), ...[1, 2, 3, 4, 5].map((k) => hit(s * 0.95 ** k, 0.93, true))],
    };
    expect(trackConfidence(t)).toBeGreaterThanOrEqual(MIN_CONFIDENCE);
  });
});

describe('followCorrelation', () => {
  const track = (...hits: TimedHit[]): Track => ({ brand: 0, hits });

  it('asks a follow to stay within 0.2 of the best correlation the detector found', () => {
    expect(followCorrelation(track(hit(0.5, 0.95), hit(0.5, 0.9, true)), 0.5)).toBeCloseTo(0.75, 6);
    expect(followCorrelation(track(hit(0.5, 0.8), hit(0.5, 0.91)), 0.5)).toBeCloseTo(0.71, 6);
  });

  it("never below the detector's own minimum; followed hits do not raise it", () => {
    expect(followCorrelation(track(hit(0.5, 0.6)), 0.5)).toBe(0.5);
    expect(followCorrelation(track(hit(0.5, 0.6), hit(0.5, 0.99, true)), 0.5)).toBe(0.5);
  });
});

describe('similarityQuad', () => {
  it('maps the example edge through the least-squares similarity of the matches', () => {
    // example 40 x 20 px; frame = 1.5x scale, 10 degrees, shifted (100, 50); keypoints bunched in one corner
    const [s, th, tx, ty] = [1.5, (10 * Math.PI) / 180, 100, 50];
    const a = s * Math.cos(th);
    const b = s * Math.sin(th);
    const map = (x: number, y: number) => [tx + a * x - b * y, ty + b * x + a * y];
    const src = [
      [2, 2],
      [6, 3],
      [3, 7],
      [8, 8],
      [5, 5],
    ];
    const all = new Float32Array(src.flatMap(([x, y]) => [x, y, ...map(x, y)]));
    const q = similarityQuad(all, [0, 1, 2, 3, 4], { width: 40, height: 20 })!;
    // corners of the example's outer edge (-0.5 .. w-0.5 in pixel centres), +0.5 into edge coordinates
    const want = [
      [-0.5, -0.5],
      [39.5, -0.5],
      [39.5, 19.5],
      [-0.5, 19.5],
    ].flatMap(([x, y]) => map(x, y).map((v) => v + 0.5));
    q.forEach((v, i) => expect(v).toBeCloseTo(want[i], 3));
  });

  it('gives nothing for matches all at one point', () => {
    const all = new Float32Array([5, 5, 10, 10, 5, 5, 11, 10]);
    expect(similarityQuad(all, [0, 1], { width: 10, height: 10 })).toBeNull();
  });
});
