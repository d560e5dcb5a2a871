import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  Detection,
  DetectionHistoryEntry,
  DetectionTrackBody,
  DetectionsMergeBody,
  DetectionsReviewBody,
  LISTED_REVIEW_STATES,
  REVIEW_STATES,
  Video,
} from './index.ts';

const box = [0, 0, 10, 0, 10, 5, 0, 5];

describe('review loop contract', () => {
  it('lists four states and keeps false positives and deleted ones out of lists', () => {
    expect(REVIEW_STATES).toEqual([
      'UNREVIEWED',
      'TRUE_POSITIVE',
      'EDITED',
      'MANUAL',
      'FALSE_POSITIVE',
      'DELETED',
    ]);
    expect(LISTED_REVIEW_STATES).toEqual(['UNREVIEWED', 'TRUE_POSITIVE', 'EDITED', 'MANUAL']);
  });

  it('the review body takes any state and nothing else', () => {
    for (const review of REVIEW_STATES)
      expect(Value.Check(DetectionsReviewBody, { detectionIds: [1], review })).toBe(true);
    expect(Value.Check(DetectionsReviewBody, { detectionIds: [1], review: 'MAYBE' })).toBe(false);
    expect(Value.Check(DetectionsReviewBody, { detectionIds: [], review: 'DELETED' })).toBe(false);
  });

  it('merge takes exactly two ids; track a box of eight numbers and at most 60 s', () => {
    expect(Value.Check(DetectionsMergeBody, { detectionIds: [1, 2] })).toBe(true);
    expect(Value.Check(DetectionsMergeBody, { detectionIds: [1] })).toBe(false);
    expect(Value.Check(DetectionsMergeBody, { detectionIds: [1, 2, 3] })).toBe(false);
    expect(Value.Check(DetectionTrackBody, { videoId: 1, time: 0, points: box })).toBe(true);
    expect(
      Value.Check(DetectionTrackBody, {
        videoId: 1,
        time: 0,
        points: box,
        direction: 'backward',
        maxMs: 60_000,
      }),
    ).toBe(true);
    expect(Value.Check(DetectionTrackBody, { videoId: 1, time: 0, points: box.slice(1) })).toBe(false);
    expect(Value.Check(DetectionTrackBody, { videoId: 1, time: 0, points: box, maxMs: 60_001 })).toBe(false);
    expect(Value.Check(DetectionTrackBody, { videoId: 1, time: 0, points: box, direction: 'up' })).toBe(
      false,
    );
  });

  it('a detection carries who reviewed it last and when; a video its review progress', () => {
    const d = {
      id: 1,
      brand: 2,
      placement: { id: 3, localized_name: 'In-scene', color: '#000000' },
      coordinates: [{ start_time: 0, end_time: 10, points: box }],
      time_begin: 0,
      time_end: 10,
      video: 4,
      confidence: null,
      review: 'EDITED',
      source: 'engine',
      reviewed_by: 'ann',
      reviewed_at: '2026-11-25T09:00:00.000Z',
    };
    expect(Value.Check(Detection, d)).toBe(true);
    expect(Value.Check(Detection, { ...d, reviewed_by: null, reviewed_at: null })).toBe(true);
    const { reviewed_by: _, ...without } = d;
    expect(Value.Check(Detection, without)).toBe(false);
    expect(Video.required).toEqual(expect.arrayContaining(['detections_total', 'detections_reviewed']));
    expect(
      Value.Check(DetectionHistoryEntry, { at: d.reviewed_at, user: null, action: 'Deleted', detail: '' }),
    ).toBe(true);
  });
});
