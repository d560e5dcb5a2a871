import { describe, expect, it } from 'vitest';
import { EditorModel } from '../src/editor-model.ts';
import { BLUE, box, det, RED } from './helpers.ts';

function model(fps = 25) {
  const m = new EditorModel({ videoId: 7, fps });
  m.setDetections([
    det(1, 1000, 2000, box(0, 0, 10, 10), RED, 10),
    det(2, 1500, 4000, box(0, 0, 10, 10), BLUE, 11),
    det(3, 6000, 7000, box(0, 0, 10, 10), RED, 11),
  ]);
  return m;
}

describe('active detections', () => {
  it('lists detections whose span overlaps the current frame, inclusive at both ends', () => {
    const m = model();
    m.setTime(999);
    expect(m.activeDetections().map((d) => d.id)).toEqual([]);
    m.setTime(1000);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
    m.setTime(1800);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2]);
    m.setTime(2000);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2]);
    m.setTime(2040);
    expect(m.activeDetections().map((d) => d.id)).toEqual([2]);
  });

  it('computes the time from fps: a detection is active on every frame its span overlaps', () => {
    const m = model(10); // 100 ms frames
    m.setTime(899);
    expect(m.frameTime).toBe(800);
    expect(m.activeDetections()).toHaveLength(0);
    m.setTime(1099);
    expect(m.frameTime).toBe(1000);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
    m.setTime(1450); // frame [1400, 1500): detection 2 starts at 1500, the next frame, so not yet
    expect(m.frameTime).toBe(1400);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
    m.setTime(1500);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2]);
  });

  it('keeps the array identity while the active set does not change', () => {
    const m = model();
    m.setTime(1600);
    const a = m.activeDetections();
    m.setTime(1640);
    expect(m.activeDetections()).toBe(a);
    m.setTime(2100);
    expect(m.activeDetections()).not.toBe(a);
  });

  it('setDetections replaces everything, also with an empty list', () => {
    const m = model();
    m.setTime(1800);
    m.toggleDetection(1);
    expect(m.activeDetections()).toHaveLength(2);
    m.setDetections([]);
    expect(m.activeDetections()).toHaveLength(0);
    expect(m.selectedDetectionIds.size).toBe(0);
    expect(m.nextDetectionTime()).toBeNull();
  });

  it('re-indexes a detection whose span changed, and forgets removed ones', () => {
    const m = model();
    m.setTime(1800);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2]);
    m.upsertDetections([det(1, 5000, 9000, box(0, 0, 10, 10))]);
    m.upsertDetections([det(1, 6000, 9000, box(0, 0, 10, 10))]); // replaced again before the rebuild
    m.removeDetections([2]);
    expect(m.activeDetections().map((d) => d.id)).toEqual([]);
    m.setTime(6500);
    expect(m.activeDetections().map((d) => d.id)).toEqual([3, 1]);
    m.setTime(5500);
    expect(m.activeDetections().map((d) => d.id)).toEqual([]);
  });

  it('merges window loads by id and picks up new ones', () => {
    const m = model();
    m.upsertDetections([
      det(2, 1500, 4000, box(5, 5, 10, 10), BLUE, 11),
      det(4, 1500, 1600, box(0, 0, 1, 1)),
    ]);
    expect(m.detectionCount).toBe(4);
    m.setTime(1500);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2, 4]);
    m.setTime(1600);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2, 4]);
    m.setTime(1640);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1, 2]);
    expect(m.pointsOf({ kind: 'detection', id: 2 })).toEqual(box(5, 5, 10, 10));
  });

  it('sorts unsorted segments on ingest and shows the segment containing t', () => {
    const m = new EditorModel({ videoId: 7, fps: 25 });
    m.setDetections([
      {
        ...det(1, 0, 3000, []),
        coordinates: [
          { start_time: 2000, end_time: 3000, points: box(2, 2, 1, 1) },
          { start_time: 0, end_time: 999, points: box(0, 0, 1, 1) },
          { start_time: 1000, end_time: 1999, points: box(1, 1, 1, 1) },
        ],
      },
    ]);
    m.setTime(1500);
    expect(m.pointsOf({ kind: 'detection', id: 1 })).toEqual(box(1, 1, 1, 1));
    m.setTime(2000);
    expect(m.pointsOf({ kind: 'detection', id: 1 })).toEqual(box(2, 2, 1, 1));
    m.setTime(3040);
    expect(m.pointsOf({ kind: 'detection', id: 1 })).toBeNull();
  });
});

describe('filter and table rows', () => {
  it('hides filtered rows unless visible, flags them when visible; empty lists mean all', () => {
    const m = model();
    m.setTime(1800);
    expect(m.detectionRows().map((r) => [r.detection.id, r.filtered])).toEqual([
      [1, false],
      [2, false],
    ]);
    m.setFilter({ brandIds: [10], placementIds: [], visible: false });
    expect(m.detectionRows().map((r) => r.detection.id)).toEqual([1]);
    m.toggleFilteredVisible();
    expect(m.detectionRows().map((r) => [r.detection.id, r.filtered])).toEqual([
      [1, false],
      [2, true],
    ]);
    m.setFilter({ brandIds: [], placementIds: [BLUE.id], visible: false });
    expect(m.detectionRows().map((r) => r.detection.id)).toEqual([2]);
  });

  it('a filter drops the detections it hits from the selection', () => {
    const m = model();
    m.setTime(1800);
    m.select([
      { kind: 'detection', id: 1 },
      { kind: 'detection', id: 2 },
    ]);
    m.setFilter({ brandIds: [10], placementIds: [], visible: true });
    expect([...m.selectedDetectionIds]).toEqual([1]);
  });
});

describe('selection and reports', () => {
  it('row click toggles; the toolbar is enabled only when a selected detection is active', () => {
    const m = model();
    m.setTime(1800);
    expect(m.hasActiveSelection()).toBe(false);
    m.toggleDetection(1);
    expect(m.hasActiveSelection()).toBe(true);
    m.setTime(3000);
    expect(m.hasActiveSelection()).toBe(false);
    m.setTime(1800);
    m.toggleDetection(1);
    expect(m.selectedDetectionIds.size).toBe(0);
  });

  it('false positive / delete remove from list and selection; change placement updates', () => {
    const m = model();
    m.setTime(1800);
    m.select([
      { kind: 'detection', id: 1 },
      { kind: 'detection', id: 2 },
    ]);
    expect(m.activeSelectedIds()).toEqual([1, 2]);
    m.setDetectionsPlacement([2], RED);
    expect(m.getDetection(2)?.placement).toEqual(RED);
    m.removeDetections([1]);
    expect(m.activeDetections().map((d) => d.id)).toEqual([2]);
    expect([...m.selectedDetectionIds]).toEqual([2]);
  });
});

describe('next and previous detection', () => {
  it('finds the closest start after and before the current frame, or null', () => {
    const m = model();
    m.setTime(0);
    expect(m.previousDetectionTime()).toBeNull();
    expect(m.nextDetectionTime()).toBe(1000);
    m.setTime(1000);
    expect(m.nextDetectionTime()).toBe(1500);
    expect(m.previousDetectionTime()).toBeNull();
    m.setTime(1500);
    expect(m.previousDetectionTime()).toBe(1000);
    m.setTime(6000);
    expect(m.nextDetectionTime()).toBeNull();
    expect(m.previousDetectionTime()).toBe(1500);
  });

  it('skips detections the filter hides', () => {
    const m = model();
    m.setFilter({ brandIds: [10], placementIds: [], visible: false });
    m.setTime(0);
    expect(m.nextDetectionTime()).toBe(1000);
    m.setTime(1000);
    expect(m.nextDetectionTime()).toBeNull();
    m.setTime(7000);
    expect(m.previousDetectionTime()).toBe(1000);
    m.toggleFilteredVisible();
    expect(m.previousDetectionTime()).toBe(6000);
  });
});

describe('shell detection type', () => {
  it('keeps extra API fields and their type through the model', () => {
    interface ApiDetection extends ReturnType<typeof det> {
      review: string;
    }
    const m = new EditorModel<ApiDetection>({ videoId: 7, fps: 25 });
    m.setDetections([{ ...det(1, 0, 1000, box(0, 0, 1, 1)), review: 'UNREVIEWED' }]);
    m.setTime(500);
    const review: string = m.activeDetections()[0].review;
    expect(review).toBe('UNREVIEWED');
  });
});

describe("the project's hidden brands and placements", () => {
  it('leave the table, the canvas, next/previous and the selection, and stay out of later loads', () => {
    const m = model();
    m.setTime(1800);
    m.select([{ kind: 'detection', id: 2 }]);
    m.setHidden([11], []);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
    expect(m.detectionRows().map((r) => r.detection.id)).toEqual([1]);
    expect(m.selectedDetectionIds.size).toBe(0);
    // Detection 3 (brand 11, 6000 ms) is no longer a next detection.
    expect(m.nextDetectionTime()).toBeNull();
    m.upsertDetections([det(4, 1000, 3000, box(0, 0, 10, 10), RED, 11)]);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
  });

  it('a hidden placement hides too, also for a detection moved to it; nothing hidden shows everything', () => {
    const m = model();
    m.setTime(1800);
    m.setHidden([], [BLUE.id]);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
    m.upsertDetections([det(1, 1000, 2000, box(0, 0, 10, 10), BLUE, 10)]);
    expect(m.activeDetections()).toHaveLength(0);
    m.setHidden([], []);
    m.upsertDetections([det(1, 1000, 2000, box(0, 0, 10, 10), BLUE, 10)]);
    expect(m.activeDetections().map((d) => d.id)).toEqual([1]);
  });
});
