import { describe, expect, it } from 'vitest';
import {
  canFinishDrafts,
  createDraft,
  draftToUpload,
  editDraftPoints,
  extendDraftToTime,
  finishBlockedReason,
  validateDraft,
} from '../src/drafts.ts';
import { EditorModel } from '../src/editor-model.ts';
import type { Draft } from '../src/types.ts';
import { box } from './helpers.ts';

const A = box(0, 0, 10, 10);
const B = box(50, 50, 10, 10);
const C = box(90, 90, 10, 10);

function complete(d: Draft): Draft {
  return { ...d, brandId: 3, placementId: 4 };
}

describe('draft validity (spec section 5)', () => {
  const valid: Draft = complete({
    ...createDraft(1, 7, 1000, A),
    time_end: 3000,
    coordinates: [{ start_time: 1000, end_time: 3000, points: A }],
  });

  it('accepts a complete draft', () => {
    expect(validateDraft(valid)).toEqual([]);
    expect(canFinishDrafts([valid])).toBe(true);
  });

  it('names each broken rule', () => {
    expect(validateDraft({ ...valid, videoId: -1 })).toEqual(['video']);
    expect(validateDraft({ ...valid, videoId: 0 })).toEqual([]);
    expect(
      validateDraft({
        ...valid,
        time_end: 1000,
        coordinates: [{ start_time: 1000, end_time: 1000, points: A }],
      }),
    ).toEqual(['time-order']);
    expect(validateDraft({ ...valid, brandId: null })).toEqual(['brand']);
    expect(validateDraft({ ...valid, brandId: -2 })).toEqual(['brand']);
    expect(validateDraft({ ...valid, placementId: null })).toEqual(['placement']);
    expect(validateDraft({ ...valid, placementId: -1 })).toEqual(['placement']);
    expect(
      validateDraft({ ...valid, coordinates: [{ start_time: 2000, end_time: 1500, points: A }] }),
    ).toEqual(['segment-order']);
    expect(
      validateDraft({ ...valid, coordinates: [{ start_time: 500, end_time: 1500, points: A }] }),
    ).toEqual(['segment-outside-span']);
    expect(
      validateDraft({ ...valid, coordinates: [{ start_time: 1000, end_time: 3000, points: A.slice(0, 6) }] }),
    ).toEqual(['points']);
    expect(validateDraft({ ...valid, coordinates: [] })).toEqual(['points']);
  });

  it('converts a valid draft to the upload form, and refuses an invalid one', () => {
    expect(draftToUpload(valid)).toEqual({
      video: 7,
      brand: 3,
      placement: 4,
      time_begin: 1000,
      time_end: 3000,
      coordinates: [{ start_time: 1000, end_time: 3000, points: A }],
    });
    expect(() => draftToUpload({ ...valid, placementId: null })).toThrow(/placement/);
  });

  it('a fresh draft is not finishable: no brand, no placement, begin equals end', () => {
    expect(validateDraft(createDraft(1, 7, 1000, A))).toEqual(['time-order', 'brand', 'placement']);
  });

  it('finishing needs at least one selected draft and every selected one valid', () => {
    expect(canFinishDrafts([])).toBe(false);
    expect(canFinishDrafts([valid, { ...valid, brandId: null }])).toBe(false);
    expect(canFinishDrafts([valid, { ...valid, id: 2 }])).toBe(true);
  });
});

describe('draft extension', () => {
  it('extends the end and the last segment when time moves past the end', () => {
    const d = createDraft(1, 7, 1000, A);
    const e = extendDraftToTime(d, 2500);
    expect(e).toMatchObject({ time_begin: 1000, time_end: 2500 });
    expect(e.coordinates).toEqual([{ start_time: 1000, end_time: 2500, points: A }]);
    expect(d.time_end).toBe(1000); // immutable
  });

  it('extends the begin and the first segment when time moves before the begin', () => {
    const e = extendDraftToTime(createDraft(1, 7, 1000, A), 400);
    expect(e).toMatchObject({ time_begin: 400, time_end: 1000 });
    expect(e.coordinates[0]).toEqual({ start_time: 400, end_time: 1000, points: A });
  });

  it('returns the same object inside the range', () => {
    const d = { ...createDraft(1, 7, 1000, A), time_end: 2000 };
    expect(extendDraftToTime(d, 1500)).toBe(d);
  });
});

describe('editing draft points: overwrite within the margin or split', () => {
  const base: Draft = {
    ...createDraft(1, 7, 1000, A),
    time_end: 5000,
    coordinates: [
      { start_time: 1000, end_time: 2999, points: A },
      { start_time: 3000, end_time: 5000, points: B },
    ],
  };

  it('overwrites the segment starting at the edit time', () => {
    const e = editDraftPoints(base, 3000, C, 40);
    expect(e.coordinates).toEqual([
      { start_time: 1000, end_time: 2999, points: A },
      { start_time: 3000, end_time: 5000, points: C },
    ]);
  });

  it('overwrites the nearest segment start within the margin, also one just after the edit time', () => {
    expect(editDraftPoints(base, 3030, C, 40).coordinates[1].points).toEqual(C);
    expect(editDraftPoints(base, 2970, C, 40).coordinates).toEqual([
      { start_time: 1000, end_time: 2999, points: A },
      { start_time: 3000, end_time: 5000, points: C },
    ]);
  });

  it('splits the segment shown at the edit time when no start is within the margin', () => {
    const e = editDraftPoints(base, 2000, C, 40);
    expect(e.coordinates).toEqual([
      { start_time: 1000, end_time: 2000, points: A },
      { start_time: 2000, end_time: 2999, points: C },
      { start_time: 3000, end_time: 5000, points: B },
    ]);
    expect(validateDraft(complete(e))).toEqual([]);
  });

  it('extends first when editing outside the range, then splits at the new end', () => {
    const e = editDraftPoints(base, 6000, C, 40);
    expect(e.time_end).toBe(6000);
    expect(e.coordinates.at(-2)).toEqual({ start_time: 3000, end_time: 6000, points: B });
    expect(e.coordinates.at(-1)).toEqual({ start_time: 6000, end_time: 6000, points: C });
  });
});

describe('drafts in the model', () => {
  function model() {
    const m = new EditorModel({ videoId: 7, fps: 25 });
    m.setTime(1000);
    return m;
  }

  it('extends selected drafts as playback moves, and lets the user split by editing later on', () => {
    const m = model();
    const d = m.addDraft(A);
    const changes: string[] = [];
    m.events.on('draftChanged', (e) => changes.push(e.cause));
    for (let t = 1000; t <= 3000; t += 40) m.setTime(t);
    expect(m.getDraft(d.id)).toMatchObject({ time_begin: 1000, time_end: 3000 });
    expect(changes.every((c) => c === 'extended')).toBe(true);
    m.editDraftPoints(d.id, B, 'moved');
    expect(m.getDraft(d.id)?.coordinates).toEqual([
      { start_time: 1000, end_time: 3000, points: A },
      { start_time: 3000, end_time: 3000, points: B },
    ]);
    m.setTime(4000);
    expect(m.getDraft(d.id)?.coordinates.at(-1)).toEqual({ start_time: 3000, end_time: 4000, points: B });
    expect(m.pointsOf({ kind: 'draft', id: d.id })).toEqual(B);
    m.setTime(2000);
    expect(m.pointsOf({ kind: 'draft', id: d.id })).toEqual(A);
  });

  it('the default margin is one frame: an edit on the frame where a segment starts overwrites it', () => {
    const m = model();
    const d = m.addDraft(A);
    m.setTime(1020); // same 25 fps frame (40 ms) as 1000
    m.editDraftPoints(d.id, B, 'resized');
    expect(m.getDraft(d.id)?.coordinates).toEqual([{ start_time: 1000, end_time: 1000, points: B }]);
  });

  it('extends a draft that is not selected (spec section 4), forward and backward', () => {
    const m = model();
    const d = m.addDraft(A);
    m.clearSelection();
    expect(m.selectedDraftIds.has(d.id)).toBe(false);
    m.setTime(5000);
    expect(m.getDraft(d.id)?.time_end).toBe(5000);
    m.setTime(200);
    expect(m.getDraft(d.id)?.time_begin).toBe(200);
    expect(m.getDraft(d.id)?.time_end).toBe(5000);
  });

  it('a new draft is selected alone among drafts; brand, placement, finish and remove', () => {
    const m = model();
    const d1 = m.addDraft(A);
    m.setTime(2000);
    const d2 = m.addDraft(B);
    expect([...m.selectedDraftIds]).toEqual([d2.id]);
    expect(m.canFinishSelectedDrafts()).toBe(false);
    m.setDraftsBrand([d2.id], 3);
    m.setDraftsPlacement([d2.id], 4);
    expect(m.canFinishSelectedDrafts()).toBe(false); // begin == end
    m.setTime(3000);
    expect(m.getDraft(d2.id)).toMatchObject({ brandId: 3, placementId: 4, time_begin: 2000, time_end: 3000 });
    expect(m.canFinishSelectedDrafts()).toBe(true);
    m.toggleDraft(d1.id);
    expect(m.canFinishSelectedDrafts()).toBe(false);
    const removed: number[][] = [];
    m.events.on('draftsRemoved', (e) => removed.push(e.ids));
    m.removeDrafts([d1.id, d2.id]);
    expect(removed).toEqual([[d1.id, d2.id]]);
    expect(m.drafts).toHaveLength(0);
    expect(m.selectedDraftIds.size).toBe(0);
  });
});

describe('finishBlockedReason', () => {
  const row = () => 2;

  it('says what is missing, first the brand, then the placement, then a duration', () => {
    const d = createDraft(1, 7, 1000, A);
    expect(finishBlockedReason([], row)).toBe('Select a new detection to finish it.');
    expect(finishBlockedReason([d], row)).toBe('Set a brand for new detection #2.');
    expect(finishBlockedReason([{ ...d, brandId: 3 }], row)).toBe('Set a placement for new detection #2.');
    expect(finishBlockedReason([complete(d)], row)).toBe(
      'New detection #2 has no duration yet: move the time to extend it.',
    );
  });

  it('is null exactly when Finish is enabled', () => {
    const d = complete(extendDraftToTime(createDraft(1, 7, 1000, A), 2000));
    expect(canFinishDrafts([d])).toBe(true);
    expect(finishBlockedReason([d], row)).toBeNull();
  });
});
