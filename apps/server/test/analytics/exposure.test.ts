import { describe, expect, it } from 'vitest';
import {
  ALL_PLACEMENTS,
  addTotals,
  ClutterIndex,
  clutterFactor,
  countedReviews,
  emptyTotals,
  means,
  measureDetection,
  mediaValue,
  positionWeight,
  VideoExposure,
  type MeasuredDetection,
} from '../../src/analytics/exposure.ts';
import { measureVideo } from '../../src/analytics/analytics-store.ts';
import { IntervalUnion } from '../../src/reports/interval-union.ts';

const W = 1000;
const H = 500;
const rect = (x: number, y: number, w: number, h: number) => [x, y, x + w, y, x + w, y + h, x, y + h];
const det = (
  id: number,
  brand: number,
  placement: number,
  begin: number,
  end: number,
  points: number[],
): MeasuredDetection => ({
  id,
  brand_id: brand,
  placement_id: placement,
  time_begin: begin,
  time_end: end,
  coordinates: [{ start_time: begin, end_time: end, points }],
});

// Hand-computed case, frame 1000 x 500 (area 500,000 px):
// A brand 1, board (10), 0-4 s, 100x50 in the top-left corner: share 0.01, centre (0.05, 0.05)
//   -> rho = sqrt(0.9^2 + 0.9^2)/sqrt(2) = 0.9, position weight 1 - 0.45 = 0.55.
// B brand 1, board (10), 2-6 s, 100x100 in the centre: share 0.02, position weight 1.
// C brand 2, shirt (11), 4-6 s, 100x100 in the centre: share 0.02, position weight 1.
// Unions: brand 1 [0, 6 s], brand 2 [4, 6 s].
// Clutter: A sees brand 2 for 0 of 4 s -> n = 0; B sees it 2 of 4 s -> n = 0.5; C sees brand 1 all 2 s -> n = 1.
const A = det(1, 1, 10, 0, 4000, rect(0, 0, 100, 50));
const B = det(2, 1, 10, 2000, 6000, rect(450, 200, 100, 100));
const C = det(3, 2, 11, 4000, 6000, rect(450, 200, 100, 100));

describe('exposure measures (hand-computed)', () => {
  it('position weight: 1 at the centre, 0.75 halfway to a corner, 0.5 in a corner', () => {
    expect(positionWeight(0.5, 0.5)).toBe(1);
    expect(positionWeight(0.75, 0.75)).toBeCloseTo(0.75, 12);
    expect(positionWeight(0, 0)).toBeCloseTo(0.5, 12);
    expect(positionWeight(1, 0)).toBeCloseTo(0.5, 12);
    // Middle of the top edge: rho = 1/sqrt(2).
    expect(positionWeight(0.5, 0)).toBeCloseTo(1 - 0.5 / Math.SQRT2, 12);
    // Outside the frame it stays at the corner's weight.
    expect(positionWeight(-1, -1)).toBe(0.5);
  });

  it('clutter factor is 1 / (1 + n)', () => {
    expect(clutterFactor(0)).toBe(1);
    expect(clutterFactor(1)).toBe(0.5);
    expect(clutterFactor(3)).toBe(0.25);
    expect(clutterFactor(0.5)).toBeCloseTo(2 / 3, 12);
  });

  it('measures a detection: share of frame, position, weights', () => {
    const m = measureDetection(A.coordinates, W, H);
    expect(m.weight).toBe(4000);
    expect(m.shareWeighted / m.weight).toBeCloseTo(0.01, 12);
    expect(m.positionWeighted / m.weight).toBeCloseTo(0.55, 12);
    expect(m.centreX).toBeCloseTo(0.05, 12);
  });

  it('clutter: the mean number of other brands on screen during a detection', () => {
    const index = new ClutterIndex([A, B, C]);
    expect(index.othersOnScreen(1, 0, 4000)).toBe(0);
    expect(index.othersOnScreen(1, 2000, 6000)).toBeCloseTo(0.5, 12);
    expect(index.othersOnScreen(2, 4000, 6000)).toBe(1);
    // At an instant: the brands whose union holds it.
    expect(index.othersOnScreen(2, 5000, 5000)).toBe(1);
    expect(index.othersOnScreen(2, 7000, 7000)).toBe(0);
    // Two other brands for half the time each: n = 1.
    const three = new ClutterIndex([
      { brand_id: 1, time_begin: 0, time_end: 10_000 },
      { brand_id: 2, time_begin: 0, time_end: 5000 },
      { brand_id: 3, time_begin: 5000, time_end: 10_000 },
    ]);
    expect(three.othersOnScreen(1, 0, 10_000)).toBeCloseTo(1, 12);
  });

  it('per brand and placement: exposure, size-weighted exposure, position, clutter, valued seconds and media value', () => {
    const video = new VideoExposure(W, H, new ClutterIndex([A, B, C]));
    for (const d of [A, B, C]) video.add(d);
    const rows = video.rows();
    const brand1 = rows.find((r) => r.brand_id === 1 && r.placement_id === ALL_PLACEMENTS)!;
    // E = |[0, 6 s]| = 6 s; s = (0.01 x 4 + 0.02 x 4) / 8 = 0.015; SWE = 6 x 0.015 = 0.09.
    expect(brand1.detections).toBe(2);
    expect(brand1.exposure_s).toBeCloseTo(6, 12);
    expect(brand1.size_weighted_s).toBeCloseTo(0.09, 12);
    const m1 = means(brand1);
    expect(m1.mean_share).toBeCloseTo(0.015, 12);
    // P = (0.55 x 4 + 1 x 4) / 8 = 0.775; N = (0 x 4 + 0.5 x 4) / 8 = 0.25; K = (1 x 4 + 2/3 x 4) / 8 = 5/6.
    expect(m1.position_weight).toBeCloseTo(0.775, 12);
    expect(m1.clutter).toBeCloseTo(0.25, 12);
    expect(m1.clutter_factor).toBeCloseTo(5 / 6, 12);
    // V = 6 x 0.775 x 5/6 = 3.875.
    expect(brand1.valued_s).toBeCloseTo(3.875, 12);
    // The best detection: the largest share of the frame (B).
    expect(brand1.best_detection_id).toBe(2);

    const brand2 = rows.find((r) => r.brand_id === 2 && r.placement_id === ALL_PLACEMENTS)!;
    // E = 2 s, s = 0.02, SWE = 0.04, P = 1, N = 1, K = 0.5, V = 1.
    expect(brand2.exposure_s).toBeCloseTo(2, 12);
    expect(brand2.size_weighted_s).toBeCloseTo(0.04, 12);
    expect(means(brand2).clutter).toBe(1);
    expect(brand2.valued_s).toBeCloseTo(1, 12);

    // Rates: board 2 per second, shirt 3 per second -> 2 x 3.875 = 7.75 and 3 x 1 = 3.
    const rates = new Map([
      [10, 2],
      [11, 3],
    ]);
    expect(
      mediaValue(
        rows.filter((r) => r.brand_id === 1),
        rates,
      ),
    ).toBeCloseTo(7.75, 12);
    expect(
      mediaValue(
        rows.filter((r) => r.brand_id === 2),
        rates,
      ),
    ).toBeCloseTo(3, 12);
    // A placement without a rate is worth nothing.
    expect(
      mediaValue(
        rows.filter((r) => r.brand_id === 1),
        new Map(),
      ),
    ).toBe(0);
    // Share of voice: 6 / (6 + 2).
    expect(brand1.exposure_s / (brand1.exposure_s + brand2.exposure_s)).toBeCloseTo(0.75, 12);
  });

  it('overlapping detections of one brand count once in exposure', () => {
    const video = new VideoExposure(W, H, new ClutterIndex([A, B]));
    video.add(A);
    video.add(B);
    const row = video.rows().find((r) => r.placement_id === ALL_PLACEMENTS)!;
    expect(row.exposure_s).toBe(6); // not 8
    expect(row.duration_ms).toBe(8000); // the clutter weights use each detection's own duration
  });

  it('across videos: additive measures sum, means re-weight', () => {
    const one = new VideoExposure(W, H, new ClutterIndex([A]));
    one.add(A);
    const two = new VideoExposure(W, H, new ClutterIndex([B]));
    two.add({ ...B, id: 5 });
    const total = emptyTotals();
    for (const v of [one, two])
      addTotals(
        total,
        v.rows().find((r) => r.placement_id === ALL_PLACEMENTS)!,
      );
    expect(total.exposure_s).toBe(8); // 4 s + 4 s, different videos
    expect(total.size_weighted_s).toBeCloseTo(4 * 0.01 + 4 * 0.02, 12);
    expect(means(total).position_weight).toBeCloseTo((0.55 * 4 + 4) / 8, 12);
    expect(total.max_share).toBeCloseTo(0.02, 12);
  });

  it('counts reviewed-true always and unreviewed by the setting; never false positives or deleted', () => {
    expect(countedReviews(true).sort()).toEqual(['EDITED', 'MANUAL', 'TRUE_POSITIVE', 'UNREVIEWED']);
    expect(countedReviews(false).sort()).toEqual(['EDITED', 'MANUAL', 'TRUE_POSITIVE']);
    const detections = [
      { ...A, review: 'UNREVIEWED' },
      { ...B, review: 'TRUE_POSITIVE' },
      { ...C, review: 'FALSE_POSITIVE' },
      { ...det(4, 2, 11, 0, 1000, rect(0, 0, 10, 10)), review: 'DELETED' },
    ];
    const none = { brandIds: [], placementIds: [] };
    const withUnreviewed = measureVideo({ width: W, height: H }, detections, true, none);
    expect(withUnreviewed.filter((r) => r.placement_id === 0).map((r) => [r.brand_id, r.detections])).toEqual(
      [[1, 2]],
    );
    const reviewedOnly = measureVideo({ width: W, height: H }, detections, false, none);
    expect(reviewedOnly.find((r) => r.placement_id === 0)!.exposure_s).toBe(4);
    // A hidden placement leaves its detections out.
    expect(
      measureVideo({ width: W, height: H }, detections, true, { brandIds: [], placementIds: [10] }),
    ).toEqual([]);
  });

  it('interval union: overlap with a window and instants', () => {
    const u = new IntervalUnion();
    u.add(0, 1000);
    u.add(2000, 3000);
    expect(u.overlap(500, 2500)).toBe(1000);
    expect(u.overlap(3000, 4000)).toBe(0);
    expect(u.covers(1000)).toBe(true);
    expect(u.covers(1500)).toBe(false);
    u.addInstant(1500);
    expect(u.covers(1500)).toBe(true);
  });
});
