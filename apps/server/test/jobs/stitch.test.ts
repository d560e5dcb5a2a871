import { describe, expect, it } from 'vitest';
import type { EngineDetection } from '@logo-review/engine';
import { chunkSpans, stitchChunks } from '../../src/jobs/stitch.ts';

const A = [100, 100, 200, 100, 200, 150, 100, 150];
const B = [500, 300, 600, 300, 600, 350, 500, 350];

function det(
  brandId: number,
  begin: number,
  end: number,
  points = A,
  extra: Partial<EngineDetection> = {},
): EngineDetection {
  return {
    brandId,
    exampleId: 1,
    confidence: 0.8,
    time_begin: begin,
    time_end: end,
    coordinates: [{ start_time: begin, end_time: end, points }],
    placement: 'BROADCAST_OVERLAY',
    ...extra,
  };
}

describe('chunk spans', () => {
  it('cuts a video into chunks starting on the sample grid, a short tail joining the chunk before', () => {
    expect(chunkSpans(10_000, 4_000, 250)).toEqual([
      { start: 0, end: 4000 },
      { start: 4000, end: 8000 },
      { start: 8000, end: 10_000 },
    ]);
    // 40.5 s in 10 s chunks: the last 0.5 s is no chunk of its own.
    expect(chunkSpans(40_500, 10_000, 250).map((s) => [s.start, s.end])).toEqual([
      [0, 10_000],
      [10_000, 20_000],
      [20_000, 30_000],
      [30_000, 40_500],
    ]);
    // 3 samples a second: 10.1 s chunks become 30 samples (10 s), so each starts on the 333.3 ms grid.
    expect(chunkSpans(25_000, 10_100, 1000 / 3).map((s) => s.start)).toEqual([0, 10_000, 20_000]);
    // 7 samples a second: a chunk is a whole number of samples (10 000 ms -> 70 samples).
    const odd = chunkSpans(30_000, 10_000, 1000 / 7);
    for (const s of odd) expect(Math.abs(((s.start * 7) / 1000) % 1)).toBeLessThan(0.01);
  });
});

describe('stitching chunks', () => {
  it('joins a track that crosses a boundary into one detection, over several chunks', () => {
    const out = stitchChunks([
      { start_ms: 0, end_ms: 4000, detections: [det(7, 2500, 4000, A, { confidence: 0.6 })] },
      { start_ms: 4000, end_ms: 8000, detections: [det(7, 4000, 8000, A, { placement: 'IN_SCENE' })] },
      { start_ms: 8000, end_ms: 12000, detections: [det(7, 8250, 9500, A, { confidence: 0.7 })] },
    ]);
    expect(out).toHaveLength(1);
    const d = out[0];
    expect([d.time_begin, d.time_end]).toEqual([2500, 9500]);
    // One still quad: one segment, as one analysis of the whole video gives it; the 250 ms the
    // third chunk's track started late is bridged.
    expect(d.coordinates).toEqual([{ start_time: 2500, end_time: 9500, points: A }]);
    expect(d.confidence).toBe(0.8);
    expect(d.placement).toBe('IN_SCENE'); // the longest piece's
  });

  it('keeps the segments of a logo that moves across the boundary', () => {
    const moved = A.map((v, i) => (i % 2 === 0 ? v + 30 : v));
    const [d, ...rest] = stitchChunks([
      { start_ms: 0, end_ms: 4000, detections: [det(7, 3000, 4000, A)] },
      { start_ms: 4000, end_ms: 8000, detections: [det(7, 4000, 5000, moved)] },
    ]);
    expect(rest).toHaveLength(0);
    expect(d.coordinates.map((c) => [c.start_time, c.end_time])).toEqual([
      [3000, 4000],
      [4000, 5000],
    ]);
  });

  it('does not join other brands, other places, or tracks that end or start away from the boundary', () => {
    const out = stitchChunks([
      {
        start_ms: 0,
        end_ms: 4000,
        detections: [det(7, 1000, 4000, A), det(8, 1000, 4000, B), det(9, 500, 2000, A)],
      },
      {
        start_ms: 4000,
        end_ms: 8000,
        detections: [det(7, 4000, 6000, B), det(8, 4000, 6000, A), det(9, 5500, 7000, A)],
      },
    ]);
    expect(out).toHaveLength(6);
  });

  it('joins each track at most once: two logos of a brand side by side stay two', () => {
    const out = stitchChunks([
      { start_ms: 0, end_ms: 4000, detections: [det(7, 1000, 4000, A), det(7, 1000, 4000, B)] },
      { start_ms: 4000, end_ms: 8000, detections: [det(7, 4000, 6000, B), det(7, 4000, 7000, A)] },
    ]);
    expect(out).toHaveLength(2);
    const byPlace = (p: number[]) => out.find((d) => d.coordinates[0].points === p)!;
    expect([byPlace(A).time_begin, byPlace(A).time_end]).toEqual([1000, 7000]);
    expect([byPlace(B).time_begin, byPlace(B).time_end]).toEqual([1000, 6000]);
  });
});
