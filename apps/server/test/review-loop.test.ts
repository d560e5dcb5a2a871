import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { pngLogo, smallVideo } from './fixtures.ts';
import { detectionsRepository } from '../src/repositories/detections.repository.ts';

/** The review loop of issue 17 through HTTP: states, undo, history, split/merge/trim, progress. */

let s: TestServer;
let ann: Client;
let bob: Client;
let eve: Client; // another organization
let apiKey: string;
let videoId: number;
let otherVideo: number;
let brandA: number;
let brandB: number;
let logoA: number;
let overlay: number;
let inScene: number;

interface Seg {
  start_time: number;
  end_time: number;
  points: number[];
}
interface Det {
  id: number;
  brand: number;
  video: number;
  review: string;
  source: string;
  time_begin: number;
  time_end: number;
  coordinates: Seg[];
  placement: { id: number; localized_name: string };
  reviewed_by: string | null;
  reviewed_at: string | null;
}
interface HistoryEntry {
  at: string;
  user: string | null;
  action: string;
  detail: string;
}

const quad = (x: number, y: number, w = 20, h = 10) => [x, y, x + w, y, x + w, y + h, x, y + h];
const seg = (a: number, b: number, x = 10): Seg => ({ start_time: a, end_time: b, points: quad(x, 10) });
const draw = async (
  brand: number,
  begin: number,
  end: number,
  coordinates = [seg(begin, end)],
  video = videoId,
) => {
  const r = await ann.post('/api/videos/detections/', {
    detections: [{ video, brand, placement: inScene, time_begin: begin, time_end: end, coordinates }],
  });
  expect(r.statusCode).toBe(201);
  return (r.json() as Det[])[0];
};
/** An engine detection (unreviewed, with the example that found it), written as the analysis would. */
const engineDetection = async (brand: number, begin: number, end: number): Promise<number> => {
  const [{ organization_id }] = await s.ctx.db.query<{ organization_id: number }>(
    'SELECT organization_id FROM videos WHERE id = $1',
    [videoId],
  );
  const [row] = await s.ctx.db.query<{ id: number }>(
    `INSERT INTO detections (organization_id, video_id, brand_id, placement_id, auto_placement_id, logo_id,
       time_begin, time_end, coordinates, confidence, review, source)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8::jsonb, 0.7, 'UNREVIEWED', 'engine') RETURNING id`,
    [
      organization_id,
      videoId,
      brand,
      inScene,
      brand === brandA ? logoA : null,
      begin,
      end,
      JSON.stringify([seg(begin, end)]),
    ],
  );
  return Number(row.id);
};
const listed = async (c: Client = ann, video = videoId) =>
  (await c.get(`/api/videos/detections/?videoId=${video}&startTime=0&endTime=1000000`)).json() as Det[];
const one = async (id: number) => (await listed()).find((d) => d.id === id);
const history = async (id: number, c: Client = ann) =>
  (await c.get(`/api/videos/detections/${id}/history/`)).json() as HistoryEntry[];
const review = (ids: number[], state: string, c: Client = ann) =>
  c.put('/api/videos/detections/review/', { detectionIds: ids, review: state });
const report = (ids: number[], type: string, c: Client = ann) =>
  c.put('/api/videos/detections/report/', { detectionIds: ids, type });
const withKey = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  s.app.inject({ method, url, headers: { authorization: `Api-Key ${apiKey}` }, payload: payload as string });
const video = async (id = videoId) => (await ann.get(`/api/videos/${id}/`)).json();

beforeAll(async () => {
  // The API alone: a background analysis of the uploaded video would replace the untouched engine
  // detections that these tests write as the analysis does.
  s = await startTestServer({ role: 'api' });
  ann = await s.user('Acme', 'ann');
  bob = await s.user('Acme', 'bob');
  eve = await s.user('Evil', 'eve');
  apiKey = (await ann.post('/api/profile/api-key/rotate/')).json().api_key;
  const upload = async (name: string) =>
    (
      await ann.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name }, [{ field: 'videoFile', name: 'v.mp4', data: smallVideo() }]),
      })
    ).json().id as number;
  videoId = await upload('Match');
  otherVideo = await upload('Other');
  const brand = await ann.req({
    method: 'POST',
    url: '/api/brands/create/',
    ...multipart({ name: 'A' }, [
      { field: 'example_logos', name: 'a.png', data: await pngLogo(), type: 'image/png' },
    ]),
  });
  brandA = brand.json().id;
  logoA = brand.json().logos[0].id;
  brandB = (await ann.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'B' }) })).json()
    .id;
  [overlay, inScene] = (await ann.get('/api/videos/placements/')).json().map((p: { id: number }) => p.id);
});
afterAll(() => s.close());

describe('review states', () => {
  it('a hand-drawn detection is MANUAL, reviewed by its author, with a "Created" history entry', async () => {
    const d = await draw(brandA, 1000, 2000);
    expect(d).toMatchObject({ review: 'MANUAL', source: 'manual', reviewed_by: 'ann' });
    expect(Date.now() - Date.parse(d.reviewed_at!)).toBeLessThan(60_000);
    expect(d.reviewed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const h = await history(d.id);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({ user: 'ann', action: 'Created' });
  });

  it('engine detections are UNREVIEWED with no reviewer; a verdict records who and when', async () => {
    const id = await engineDetection(brandB, 3000, 4000);
    expect(await one(id)).toMatchObject({ review: 'UNREVIEWED', reviewed_by: null, reviewed_at: null });
    expect((await report([id], 'truePositive', bob)).json()).toMatchObject({ count: 1 });
    expect(await one(id)).toMatchObject({ review: 'TRUE_POSITIVE', reviewed_by: 'bob' });
    expect((await history(id))[0]).toMatchObject({ user: 'bob', action: 'True positive' });
  });

  it('a move through PATCH makes an engine detection EDITED and leaves a MANUAL one MANUAL', async () => {
    const id = await engineDetection(brandB, 5000, 6000);
    const moved = await bob.patch(`/api/videos/detections/${id}/`, { coordinates: [seg(5000, 6000, 50)] });
    expect(moved.json()).toMatchObject({ review: 'EDITED', reviewed_by: 'bob' });
    expect((await history(id))[0]).toMatchObject({ user: 'bob', action: 'Moved' });
    const m = await draw(brandB, 7000, 8000);
    const r = await bob.patch(`/api/videos/detections/${m.id}/`, { coordinates: [seg(7000, 8000, 60)] });
    expect(r.json()).toMatchObject({ review: 'MANUAL', reviewed_by: 'bob' });
    // A true positive verdict on a person's box keeps it marked as edited or drawn.
    await report([id, m.id], 'truePositive', ann);
    expect(await one(id)).toMatchObject({ review: 'EDITED', reviewed_by: 'ann' });
    expect(await one(m.id)).toMatchObject({ review: 'MANUAL', reviewed_by: 'ann' });
    expect((await history(m.id))[0]).toMatchObject({ action: 'True positive', detail: 'Manual → Manual' });
  });

  it('a placement change leaves the review state, records who and names the placement in the history', async () => {
    const id = await engineDetection(brandB, 9000, 9500);
    const r = await bob.put('/api/videos/detections/', { placementId: overlay, detectionIds: [id] });
    expect(r.json()[0]).toMatchObject({ review: 'UNREVIEWED', reviewed_by: 'bob' });
    expect((await history(id))[0]).toMatchObject({
      user: 'bob',
      action: 'Placement changed to Broadcast overlay',
      detail: 'Was In-scene',
    });
    // The change for all matching detections of a video writes the history of each.
    const all = await ann.put('/api/videos/detections/change/', {
      brandIds: [brandB],
      placementIds: [overlay],
      newPlacementId: inScene,
      videoId,
    });
    expect(all.json().count).toBe(1);
    expect((await history(id))[0]).toMatchObject({ user: 'ann', action: 'Placement changed to In-scene' });
  });

  it('a call with the API key records no user', async () => {
    const id = await engineDetection(brandB, 10_000, 11_000);
    const r = await withKey('PUT', '/api/videos/detections/review/', {
      detectionIds: [id],
      review: 'TRUE_POSITIVE',
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()[0]).toMatchObject({ review: 'TRUE_POSITIVE', reviewed_by: null });
    expect(r.json()[0].reviewed_at).not.toBeNull();
    expect((await history(id))[0]).toMatchObject({ user: null, action: 'True positive' });
  });
});

describe('undo through the review call', () => {
  it('undoes a delete and a false positive after a reload: the list shows the restored state', async () => {
    const tp = await engineDetection(brandB, 12_000, 13_000);
    const un = await engineDetection(brandB, 14_000, 15_000);
    await report([tp], 'truePositive');
    // Delete keeps the answer of the spec's call, and hides the detection.
    const del = await report([tp], 'delete');
    expect(del.json()).toEqual({ detail: 'Deleted 1 detections.', count: 1 });
    await report([un], 'falsePositive');
    expect(await one(tp)).toBeUndefined();
    expect(await one(un)).toBeUndefined();
    // The undo: each back to the state it had.
    const r1 = await review([tp], 'TRUE_POSITIVE');
    expect(r1.statusCode).toBe(200);
    expect(r1.json().map((d: Det) => [d.id, d.review])).toEqual([[tp, 'TRUE_POSITIVE']]);
    await review([un], 'UNREVIEWED');
    // A reload (a fresh window query) shows the restored states.
    expect(await one(tp)).toMatchObject({ review: 'TRUE_POSITIVE' });
    expect(await one(un)).toMatchObject({ review: 'UNREVIEWED' });
    expect((await history(tp)).map((h) => h.action)).toEqual(['Restored', 'Deleted', 'True positive']);
    expect((await history(tp))[0].detail).toBe('Deleted → True positive');
    expect((await history(un)).map((h) => h.action)).toEqual(['Restored', 'False positive']);
    // Redo: the review call answers only what is listed afterwards.
    const redo = await review([tp, un], 'DELETED');
    expect(redo.json()).toEqual([]);
    expect(await one(tp)).toBeUndefined();
  });

  it('undoes a move: PATCH back, then the former state', async () => {
    const id = await engineDetection(brandB, 16_000, 17_000);
    const before = (await one(id))!;
    await ann.patch(`/api/videos/detections/${id}/`, { coordinates: [seg(16_000, 17_000, 99)] });
    await ann.patch(`/api/videos/detections/${id}/`, { coordinates: before.coordinates });
    await review([id], 'UNREVIEWED');
    expect(await one(id)).toMatchObject({ review: 'UNREVIEWED', coordinates: before.coordinates });
  });

  it('rejects bad input and another organization’s ids', async () => {
    const id = await engineDetection(brandB, 18_000, 19_000);
    expect((await review([id], 'MAYBE')).statusCode).toBe(400);
    expect((await review([id], 'MAYBE')).json().detail).toMatch(/^review: /);
    expect((await review([], 'DELETED')).statusCode).toBe(400);
    expect((await ann.put('/api/videos/detections/review/', { review: 'DELETED' })).json().detail).toBe(
      'detectionIds: is required.',
    );
    expect((await review([id], 'DELETED', eve)).statusCode).toBe(404);
    expect((await review([id, 99_999_999], 'DELETED')).statusCode).toBe(404);
    expect((await eve.get(`/api/videos/detections/${id}/history/`)).statusCode).toBe(404);
    expect((await ann.get('/api/videos/detections/abc/history/')).statusCode).toBe(400);
    // Nothing changed by the refused calls.
    expect(await one(id)).toMatchObject({ review: 'UNREVIEWED' });
  });
});

describe('split, merge and trim', () => {
  it('splits at a time: segments across it are divided; the left keeps the id', async () => {
    const d = await draw(brandA, 20_000, 24_000, [seg(20_000, 22_000, 1), seg(22_000, 24_000, 2)]);
    const r = await bob.post(`/api/videos/detections/${d.id}/split/`, { time: 21_000 });
    expect(r.statusCode).toBe(200);
    const [left, right] = r.json() as Det[];
    expect(left).toMatchObject({
      id: d.id,
      time_begin: 20_000,
      time_end: 21_000,
      coordinates: [seg(20_000, 21_000, 1)],
      review: 'MANUAL',
      reviewed_by: 'bob',
    });
    expect(right).toMatchObject({
      time_begin: 21_000,
      time_end: 24_000,
      coordinates: [seg(21_000, 22_000, 1), seg(22_000, 24_000, 2)],
      brand: brandA,
      placement: { id: inScene },
      review: 'MANUAL',
      source: 'manual',
    });
    expect(right.id).not.toBe(d.id);
    expect((await history(d.id))[0]).toMatchObject({ user: 'bob', action: 'Split' });
    expect((await history(right.id))[0]).toMatchObject({ user: 'bob', action: 'Split' });
    expect((await listed()).filter((x) => x.id === d.id || x.id === right.id)).toHaveLength(2);
  });

  it('an engine detection split becomes EDITED; a time on or outside the span is refused', async () => {
    const id = await engineDetection(brandA, 25_000, 26_000);
    for (const time of [25_000, 26_000, 24_000, 30_000]) {
      const r = await ann.post(`/api/videos/detections/${id}/split/`, { time });
      expect(r.statusCode).toBe(400);
      expect(r.json().detail).toMatch(/^time: .* is not strictly inside/);
    }
    expect((await ann.post(`/api/videos/detections/${id}/split/`, {})).json().detail).toBe(
      'time: is required.',
    );
    expect((await eve.post(`/api/videos/detections/${id}/split/`, { time: 25_500 })).statusCode).toBe(404);
    const r = await ann.post(`/api/videos/detections/${id}/split/`, { time: 25_500 });
    expect((r.json() as Det[]).map((x) => x.review)).toEqual(['EDITED', 'EDITED']);
  });

  it('refuses a split where one side has no box (a gap in the coordinates)', async () => {
    const d = await draw(brandA, 27_000, 29_000, [seg(27_000, 27_500)]);
    const r = await ann.post(`/api/videos/detections/${d.id}/split/`, { time: 28_000 });
    expect(r.statusCode).toBe(400);
    expect(r.json().detail).toBe('time: the detection has no box on one side of 28000 ms.');
  });

  it('merges two detections of one brand: spans and boxes joined, the later one deleted (undoable)', async () => {
    const a = await draw(brandA, 30_000, 31_000, [seg(30_000, 31_000, 1)]);
    const b = await engineDetection(brandA, 32_000, 33_000);
    // Either order: the earlier detection keeps its id.
    const r = await bob.post('/api/videos/detections/merge/', { detectionIds: [b, a.id] });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      id: a.id,
      time_begin: 30_000,
      time_end: 33_000,
      coordinates: [seg(30_000, 31_000, 1), seg(32_000, 33_000)],
      review: 'EDITED',
      reviewed_by: 'bob',
    });
    expect(await one(b)).toBeUndefined();
    expect((await history(a.id))[0]).toMatchObject({ action: 'Merged', user: 'bob' });
    expect((await history(b))[0]).toMatchObject({
      action: 'Merged',
      detail: `Merged into #${a.id} (UNREVIEWED → DELETED)`,
    });
    // Undo of the merge: geometry back and the other one restored.
    await ann.patch(`/api/videos/detections/${a.id}/`, {
      coordinates: a.coordinates,
      time_begin: a.time_begin,
      time_end: a.time_end,
    });
    await review([a.id], 'MANUAL');
    await review([b], 'UNREVIEWED');
    expect(await one(a.id)).toMatchObject({ time_end: 31_000, review: 'MANUAL' });
    expect(await one(b)).toMatchObject({ review: 'UNREVIEWED' });
  });

  it('overlapping detections merge with one box per time (the earlier one’s where both have one)', async () => {
    const a = await draw(brandB, 34_000, 36_000, [seg(34_000, 36_000, 1)]);
    const b = await draw(brandB, 35_000, 37_000, [seg(35_000, 37_000, 2)]);
    const r = await ann.post('/api/videos/detections/merge/', { detectionIds: [a.id, b.id] });
    expect(r.json()).toMatchObject({
      time_begin: 34_000,
      time_end: 37_000,
      coordinates: [seg(34_000, 36_000, 1), seg(36_000, 37_000, 2)],
      review: 'MANUAL',
    });
  });

  it('refuses to merge across brands, videos, the same id, hidden ones, or another organization’s', async () => {
    const a = await draw(brandA, 40_000, 41_000);
    const b = await draw(brandB, 42_000, 43_000);
    const c = await draw(brandA, 0, 500, [seg(0, 500)], otherVideo);
    const d = await draw(brandA, 44_000, 45_000);
    const merge = (ids: unknown[], cl: Client = ann) =>
      cl.post('/api/videos/detections/merge/', { detectionIds: ids });
    expect((await merge([a.id, b.id])).json()).toEqual({
      detail: 'detectionIds: the detections are of different brands.',
    });
    expect((await merge([a.id, c.id])).json()).toEqual({
      detail: 'detectionIds: the detections are of different videos.',
    });
    expect((await merge([a.id, a.id])).statusCode).toBe(400);
    expect((await merge([a.id])).statusCode).toBe(400);
    expect((await merge([a.id, b.id, c.id])).statusCode).toBe(400);
    expect((await merge([a.id, d.id], eve)).statusCode).toBe(404);
    await report([d.id], 'delete');
    expect((await merge([a.id, d.id])).json().detail).toBe(
      'detectionIds: a detection is deleted or a false positive.',
    );
    expect(await one(a.id)).toMatchObject({ time_end: 41_000 });
  });

  it('trims with PATCH time_begin/time_end alone: segments outside are dropped, those across cut', async () => {
    const d = await draw(brandA, 50_000, 56_000, [
      seg(50_000, 52_000, 1),
      seg(52_000, 54_000, 2),
      seg(54_000, 56_000, 3),
    ]);
    const r = await bob.patch(`/api/videos/detections/${d.id}/`, { time_begin: 52_500, time_end: 54_000 });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      time_begin: 52_500,
      time_end: 54_000,
      coordinates: [seg(52_500, 54_000, 2)],
      review: 'MANUAL',
    });
    expect((await history(d.id))[0]).toMatchObject({
      action: 'Trimmed',
      detail: '50000–56000 ms → 52500–54000 ms',
    });
    // Persisted: the window before the new begin no longer has it.
    expect(
      (await ann.get(`/api/videos/detections/?videoId=${videoId}&startTime=50000&endTime=52000`))
        .json()
        .some((x: Det) => x.id === d.id),
    ).toBe(false);
    const none = await ann.patch(`/api/videos/detections/${d.id}/`, { time_end: 52_500 });
    expect(none.statusCode).toBe(200); // an instant keeps the box at that time
    const bad = await ann.patch(`/api/videos/detections/${d.id}/`, { time_begin: 60_000 });
    expect(bad.json()).toEqual({ detail: 'body: time_begin must not be after time_end.' });
    expect((await ann.patch(`/api/videos/detections/${d.id}/`, {})).json()).toEqual({
      detail: 'body: give coordinates, time_begin or time_end.',
    });
  });

  it('refuses a trim that leaves no box', async () => {
    const d = await draw(brandA, 57_000, 59_000, [seg(57_000, 57_500)]);
    const r = await ann.patch(`/api/videos/detections/${d.id}/`, { time_begin: 58_000 });
    expect(r.json()).toEqual({ detail: 'body: no box is left inside time_begin..time_end.' });
    expect(await one(d.id)).toMatchObject({ time_begin: 57_000 });
  });
});

describe('what is listed, counted and reported', () => {
  it('video progress counts listed detections and those reviewed, in the tree and the video', async () => {
    const fresh = async () => {
      const v = await video(otherVideo);
      const tree = (await ann.get('/api/videos/')).json();
      const inTree = tree.videos.find((x: { id: number }) => x.id === otherVideo);
      expect(inTree).toMatchObject({
        detections_total: v.detections_total,
        detections_reviewed: v.detections_reviewed,
      });
      return [v.detections_total, v.detections_reviewed];
    };
    // otherVideo holds one MANUAL detection (drawn in the merge test).
    expect(await fresh()).toEqual([1, 1]);
    const [{ organization_id }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM videos WHERE id = $1',
      [otherVideo],
    );
    const ids: number[] = [];
    for (const review of [
      'UNREVIEWED',
      'UNREVIEWED',
      'TRUE_POSITIVE',
      'EDITED',
      'FALSE_POSITIVE',
      'DELETED',
    ]) {
      const [r] = await s.ctx.db.query<{ id: number }>(
        `INSERT INTO detections (organization_id, video_id, brand_id, placement_id, auto_placement_id,
           time_begin, time_end, coordinates, review) VALUES ($1, $2, $3, $4, $4, 0, 10, '[]', $5) RETURNING id`,
        [organization_id, otherVideo, brandB, inScene, review],
      );
      ids.push(Number(r.id));
    }
    expect(await fresh()).toEqual([5, 3]);
    await review([ids[0]], 'TRUE_POSITIVE');
    await report([ids[2]], 'delete');
    expect(await fresh()).toEqual([4, 3]);
    expect((await eve.get(`/api/videos/${otherVideo}/`)).statusCode).toBe(404);
  });

  it('deleted and false-positive detections stay out of the Excel report; it says who reviewed when', async () => {
    const kept = await engineDetection(brandB, 70_000, 71_000);
    const gone = await engineDetection(brandB, 72_000, 73_000);
    const fp = await engineDetection(brandB, 74_000, 75_000);
    await report([kept], 'truePositive', bob);
    await report([gone], 'delete');
    await report([fp], 'falsePositive');
    const r = await ann.get(`/api/videos/excel/?videoId=${videoId}`);
    expect(r.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Detections')!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(headers.slice(-2)).toEqual(['Reviewed by', 'Reviewed at']);
    const ids: number[] = [];
    let keptRow: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const id = Number(row.getCell(1).value);
      ids.push(id);
      if (id === kept) keptRow = (row.values as unknown[]).slice(1);
    });
    expect(ids).toContain(kept);
    expect(ids).not.toContain(gone);
    expect(ids).not.toContain(fp);
    expect(keptRow[headers.indexOf('Reviewed by')]).toBe('bob');
    const at = keptRow[headers.indexOf('Reviewed at')] as Date;
    expect(Math.abs(at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('precision per logo is TP / (TP + FP), an edited detection counting as true; deleted ones not at all', async () => {
    const precision = async () =>
      (await ann.get('/api/brands/?refresh=false')).json().find((b: { id: number }) => b.id === brandA)
        .logos[0].precision as number | null;
    // Earlier tests left brand A's engine detections: one split into two EDITED halves.
    await s.ctx.db.query("UPDATE detections SET review = 'DELETED' WHERE logo_id = $1", [logoA]);
    expect(await precision()).toBeNull();
    const tp = await engineDetection(brandA, 80_000, 81_000);
    const ed = await engineDetection(brandA, 82_000, 83_000);
    const fp = await engineDetection(brandA, 84_000, 85_000);
    const del = await engineDetection(brandA, 86_000, 87_000);
    await report([tp], 'truePositive');
    await ann.patch(`/api/videos/detections/${ed}/`, { coordinates: [seg(82_000, 83_000, 40)] });
    await report([fp], 'falsePositive');
    await report([del], 'delete');
    expect(await precision()).toBeCloseTo(2 / 3, 5);
    // Undoing the false positive takes it out of the measure.
    await review([fp], 'UNREVIEWED');
    expect(await precision()).toBe(1);
  });

  it('a new analysis replaces only untouched engine detections: a verdict undone or a placement change stays', async () => {
    const untouched = await engineDetection(brandB, 90_000, 91_000);
    const undone = await engineDetection(brandB, 92_000, 93_000);
    const moved = await engineDetection(brandB, 94_000, 95_000);
    const deleted = await engineDetection(brandB, 96_000, 97_000);
    await report([undone], 'truePositive');
    await review([undone], 'UNREVIEWED');
    await ann.put('/api/videos/detections/', { placementId: overlay, detectionIds: [moved] });
    await report([deleted], 'delete');
    await detectionsRepository.deleteEngineUnreviewed(s.ctx.db, videoId);
    const left = await s.ctx.db.query<{ id: number }>(
      'SELECT id FROM detections WHERE id = ANY($1::bigint[])',
      [[untouched, undone, moved, deleted]],
    );
    expect(left.map((r) => Number(r.id)).sort((x, y) => x - y)).toEqual([undone, moved, deleted]);
  });
});

describe('the review queue by confidence over the whole video', () => {
  let queueVideo: number;
  const byConf = new Map<number, number | null>();
  /** An unreviewed engine detection of the queue's video with a confidence (null: none, like a drawn one). */
  const engine = async (
    brand: number,
    placement: number,
    begin: number,
    confidence: number | null,
    review = 'UNREVIEWED',
  ) => {
    const [{ organization_id }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM videos WHERE id = $1',
      [queueVideo],
    );
    const [r] = await s.ctx.db.query<{ id: number }>(
      `INSERT INTO detections (organization_id, video_id, brand_id, placement_id, auto_placement_id,
         time_begin, time_end, coordinates, confidence, review, source)
       VALUES ($1, $2, $3, $4, $4, $5, $6, $7::jsonb, $8, $9, 'engine') RETURNING id`,
      [
        organization_id,
        queueVideo,
        brand,
        placement,
        begin,
        begin + 1000,
        JSON.stringify([seg(begin, begin + 1000)]),
        confidence,
        review,
      ],
    );
    byConf.set(Number(r.id), confidence);
    return Number(r.id);
  };
  const next = async (query = '', c: Client = ann) => {
    const r = await c.get(`/api/videos/detections/next/?videoId=${queueVideo}&order=confidence${query}`);
    expect(r.statusCode).toBe(200);
    return (r.json() as { detection: Det | null }).detection;
  };

  let early: number;
  let late: number;
  let tie: number;
  let low: number;
  let none: number;
  let hiddenBrand: number;
  let hiddenPlacement: number;
  beforeAll(async () => {
    queueVideo = (
      await ann.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name: 'Queue' }, [{ field: 'videoFile', name: 'q.mp4', data: smallVideo() }]),
      })
    ).json().id as number;
    // Ten minutes apart: an editor holding only the first minutes would rank `late` last or not at all.
    early = await engine(brandA, inScene, 1_000, 0.6);
    late = await engine(brandB, inScene, 590_000, 0.95);
    tie = await engine(brandA, inScene, 595_000, 0.6);
    low = await engine(brandA, inScene, 5_000, 0.2);
    none = await engine(brandA, inScene, 2_000, null);
    const brandC = (
      await ann.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'C' }) })
    ).json().id as number;
    hiddenBrand = await engine(brandC, inScene, 3_000, 0.99);
    hiddenPlacement = await engine(brandA, overlay, 4_000, 0.98);
    await engine(brandA, inScene, 6_000, 0.999, 'TRUE_POSITIVE');
    await engine(brandA, inScene, 7_000, 0.999, 'FALSE_POSITIVE');
  });

  it('answers the most confident unreviewed detection anywhere in the video, then the next ones', async () => {
    // Before the video is in a project, nothing is hidden.
    expect((await next())?.id).toBe(hiddenBrand);
    expect((await next(`&exclude=${hiddenBrand}`))?.id).toBe(hiddenPlacement);
    const p = (
      await ann.post('/api/videos/project/', {
        name: 'Queue project',
        description: '',
        filtered_brands: [(await next())!.brand],
        filtered_placements: [overlay],
      })
    ).json() as Array<{ id: number; name: string }>;
    const project = p.find((x) => x.name === 'Queue project')!;
    const put = await ann.put('/api/videos/create/', {
      id: queueVideo,
      name: 'Queue',
      folder: null,
      project: project.id,
    });
    expect(put.statusCode).toBe(200);
    // The project hides brand C and the overlay placement: their detections leave the queue.
    const first = await next();
    expect(first).toMatchObject({ id: late, review: 'UNREVIEWED', confidence: 0.95, time_begin: 590_000 });
    // Verdicts on their way are excluded; ties go by start time; no confidence comes last.
    expect((await next(`&exclude=${late}`))?.id).toBe(early);
    expect((await next(`&exclude=${late}&exclude=${early}`))?.id).toBe(tie);
    expect((await next(`&exclude=${late}&exclude=${early}&exclude=${tie}`))?.id).toBe(low);
    expect((await next(`&exclude=${late}&exclude=${early}&exclude=${tie}&exclude=${low}`))?.id).toBe(none);
    expect(
      await next(`&exclude=${late}&exclude=${early}&exclude=${tie}&exclude=${low}&exclude=${none}`),
    ).toBeNull();
    // A decided detection leaves the queue.
    await review([late], 'TRUE_POSITIVE');
    expect((await next())?.id).toBe(early);
    await review([late], 'UNREVIEWED');
  });

  it('answers the first `limit` detections of the queue in order, detection first', async () => {
    const r = await ann.get(
      `/api/videos/detections/next/?videoId=${queueVideo}&order=confidence&limit=3&exclude=${early}`,
    );
    expect(r.statusCode).toBe(200);
    const body = r.json() as { detection: Det | null; queue: Det[] };
    expect(body.queue.map((d) => d.id)).toEqual([late, tie, low]);
    expect(body.detection?.id).toBe(late);
    // Without limit, one; past the end, fewer.
    const one = (await ann.get(`/api/videos/detections/next/?videoId=${queueVideo}&order=confidence`)).json();
    expect((one as { queue: Det[] }).queue.map((d) => d.id)).toEqual([late]);
    const all = await ann.get(`/api/videos/detections/next/?videoId=${queueVideo}&order=confidence&limit=50`);
    expect((all.json() as { queue: Det[] }).queue.map((d) => d.id)).toEqual([late, early, tie, low, none]);
    expect(
      (await ann.get(`/api/videos/detections/next/?videoId=${queueVideo}&order=confidence&limit=51`))
        .statusCode,
    ).toBe(400);
  });

  it("applies the editor's filter: brands, placements and the confidence threshold", async () => {
    expect((await next(`&brandIds=${brandA}`))?.id).toBe(early);
    expect((await next(`&placementIds=${overlay}`))?.id ?? null).toBeNull(); // all hidden by the project
    // Below 0.5 only `low` (0.2) is left out; hand-drawn-like ones without confidence stay.
    expect((await next(`&brandIds=${brandA}&minConfidence=0.5&exclude=${early}&exclude=${tie}`))?.id).toBe(
      none,
    );
    expect((await next(`&brandIds=${brandA}&exclude=${early}&exclude=${tie}`))?.id).toBe(low);
  });

  it('refuses bad input and other organizations', async () => {
    expect((await ann.get(`/api/videos/detections/next/?videoId=${queueVideo}`)).statusCode).toBe(400);
    expect(
      (await ann.get(`/api/videos/detections/next/?videoId=${queueVideo}&order=confidence&minConfidence=2`))
        .statusCode,
    ).toBe(400);
    expect(
      (await eve.get(`/api/videos/detections/next/?videoId=${queueVideo}&order=confidence`)).statusCode,
    ).toBe(404);
    expect((await ann.get(`/api/videos/detections/next/?videoId=999999&order=confidence`)).statusCode).toBe(
      404,
    );
  });
});
