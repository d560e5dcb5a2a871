import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startTestServer, type Client, type TestServer, uploadSmallVideo } from './harness.ts';

let s: TestServer;
let c: Client;
let videoId: number;
let brandA: number;
let brandB: number;
let overlay: number;
let inScene: number;
let shirt: number;

const quad = (x: number, y: number, w = 20, h = 10) => [x, y, x + w, y, x + w, y + h, x, y + h];
const det = (brand: number, placement: number, begin: number, end: number) => ({
  video: videoId,
  brand,
  placement,
  time_begin: begin,
  time_end: end,
  coordinates: [{ start_time: begin, end_time: end, points: quad(10, 10) }],
});
const window = async (start: number, end: number) =>
  (await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=${start}&endTime=${end}`)).json() as {
    id: number;
    brand: number;
    placement: { id: number; localized_name: string; color: string };
  }[];

beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
  videoId = await uploadSmallVideo(c);
  brandA = (await c.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'A' }) })).json()
    .id;
  brandB = (await c.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'B' }) })).json()
    .id;
  const pl = (await c.post('/api/videos/placements/', { localized_name: 'Shirt', color: '#ff0000' })).json();
  [overlay, inScene, shirt] = pl.map((p: { id: number }) => p.id);
});
afterAll(() => s.close());

describe('detections', () => {
  it('uploads finished new detections and returns them with the placement object', async () => {
    const r = await c.post('/api/videos/detections/', {
      detections: [
        det(brandA, overlay, 0, 1000),
        det(brandB, inScene, 5000, 8000),
        det(brandA, shirt, 20_000, 21_000),
      ],
    });
    expect(r.statusCode).toBe(201);
    const list = r.json();
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({
      brand: brandA,
      video: videoId,
      time_begin: 0,
      time_end: 1000,
      placement: { id: overlay, localized_name: 'Broadcast overlay', color: '#1e88e5' },
      source: 'manual',
      coordinates: [{ start_time: 0, end_time: 1000, points: quad(10, 10) }],
    });
  });

  it('the window query returns detections whose span overlaps the window', async () => {
    expect((await window(0, 500)).map((d) => d.brand)).toEqual([brandA]);
    expect((await window(1000, 5000)).map((d) => d.brand)).toEqual([brandA, brandB]); // touching ends count
    expect(await window(1001, 4999)).toEqual([]);
    expect((await window(6000, 6500)).map((d) => d.brand)).toEqual([brandB]);
    expect(await window(30_000, 40_000)).toEqual([]);
  });

  it('changes the placement of selected detections', async () => {
    const [d] = await window(0, 10);
    const r = await c.put('/api/videos/detections/', { placementId: shirt, detectionIds: [d.id] });
    expect(r.statusCode).toBe(200);
    expect(r.json()[0].placement).toMatchObject({ id: shirt, localized_name: 'Shirt', color: '#ff0000' });
  });

  it('changes the placement of all matching detections of a video (empty lists mean all)', async () => {
    let r = await c.put('/api/videos/detections/change/', {
      brandIds: [brandB],
      placementIds: [],
      newPlacementId: overlay,
      videoId,
    });
    expect(r.json()).toMatchObject({ count: 1 });
    expect((await window(6000, 6001))[0].placement.id).toBe(overlay);
    r = await c.put('/api/videos/detections/change/', {
      brandIds: [],
      placementIds: [],
      newPlacementId: inScene,
      videoId,
    });
    expect(r.json().count).toBe(3);
    expect((await window(0, 100_000)).every((d) => d.placement.id === inScene)).toBe(true);
  });

  it('deleting a manual placement returns its detections to the automatic placement', async () => {
    const [d] = await window(0, 10);
    await c.put('/api/videos/detections/', { placementId: shirt, detectionIds: [d.id] });
    await c.del(`/api/videos/placements/${shirt}/`);
    expect((await window(0, 10))[0].placement.localized_name).toBe('Broadcast overlay');
  });

  it('moves and resizes a detection with PATCH, which persists', async () => {
    const [d] = await window(0, 10);
    const moved = [
      { start_time: 0, end_time: 500, points: quad(50, 60) },
      { start_time: 500, end_time: 1000, points: quad(55, 60, 30, 12) },
    ];
    const r = await c.patch(`/api/videos/detections/${d.id}/`, { coordinates: moved });
    expect(r.statusCode).toBe(200);
    expect(r.json().coordinates).toEqual(moved);
    expect((await window(0, 10))[0]).toMatchObject({ coordinates: moved });
    // With a new span (a trim) the segments are cut to it, not refused.
    const cut = await c.patch(`/api/videos/detections/${d.id}/`, {
      coordinates: [{ start_time: 0, end_time: 900, points: quad(0, 0) }],
      time_begin: 100,
      time_end: 800,
    });
    expect(cut.statusCode).toBe(200);
    expect(cut.json()).toMatchObject({
      time_begin: 100,
      time_end: 800,
      coordinates: [{ start_time: 100, end_time: 800, points: quad(0, 0) }],
    });
    const out = await c.patch(`/api/videos/detections/${d.id}/`, {
      coordinates: [{ start_time: 0, end_time: 900, points: quad(0, 0) }],
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ time_begin: 0, time_end: 900 });
    expect(
      (
        await c.patch(`/api/videos/detections/${d.id}/`, {
          coordinates: [{ start_time: 0, end_time: 1, points: [1, 2, 3] }],
        })
      ).statusCode,
    ).toBe(400);
    expect((await c.patch('/api/videos/detections/999999/', { coordinates: moved })).statusCode).toBe(404);
  });

  it('reports true positive (kept), false positive and delete (hidden, kept)', async () => {
    const all = await window(0, 100_000);
    expect(all).toHaveLength(3);
    let r = await c.put('/api/videos/detections/report/', {
      detectionIds: [all[0].id],
      type: 'truePositive',
    });
    expect(r.json()).toMatchObject({ count: 1 });
    expect(await window(0, 100_000)).toHaveLength(3);
    r = await c.put('/api/videos/detections/report/', { detectionIds: [all[1].id], type: 'falsePositive' });
    expect((await window(0, 100_000)).map((d) => d.id)).toEqual([all[0].id, all[2].id]);
    const kept = await s.ctx.db.query<{ review: string }>('SELECT review FROM detections WHERE id = $1', [
      all[1].id,
    ]);
    expect(kept[0].review).toBe('FALSE_POSITIVE');
    r = await c.put('/api/videos/detections/report/', { detectionIds: [all[2].id], type: 'delete' });
    expect(r.json().count).toBe(1);
    expect(r.json().detail).toBe('Deleted 1 detections.');
    expect((await window(0, 100_000)).map((d) => d.id)).toEqual([all[0].id]);
    // A soft delete: kept, so that it can be undone.
    const gone = await s.ctx.db.query<{ review: string }>('SELECT review FROM detections WHERE id = $1', [
      all[2].id,
    ]);
    expect(gone[0].review).toBe('DELETED');
    expect(
      (await c.put('/api/videos/detections/report/', { detectionIds: [all[0].id], type: 'maybe' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await c.put('/api/videos/detections/report/', { detectionIds: [], type: 'delete' })).statusCode,
    ).toBe(400);
    expect(
      (await c.put('/api/videos/detections/report/', { detectionIds: [999999], type: 'delete' })).statusCode,
    ).toBe(404);
  });

  it('rejects bad input with a detail naming the field', async () => {
    const bad = async (payload: unknown) => (await c.post('/api/videos/detections/', payload)).json().detail;
    expect(await bad({})).toBe('detections: is required.');
    expect(await bad({ detections: [] })).toMatch(/^detections: /);
    expect(await bad({ detections: [{ ...det(brandA, overlay, 10, 5) }] })).toBe(
      'detections.0: time_begin must not be after time_end.',
    );
    expect(
      await bad({
        detections: [
          {
            ...det(brandA, overlay, 0, 10),
            coordinates: [{ start_time: 0, end_time: 20, points: quad(0, 0) }],
          },
        ],
      }),
    ).toBe('detections.0.coordinates.0: the segment lies outside time_begin..time_end.');
    expect(
      await bad({
        detections: [
          { ...det(brandA, overlay, 0, 10), coordinates: [{ start_time: 0, end_time: 10, points: [1, 2] }] },
        ],
      }),
    ).toMatch(/^detections\.0\.coordinates\.0\.points: /);
    expect(await bad({ detections: [det(999999, overlay, 0, 10)] })).toBe('brand: unknown id 999999.');
    expect(await bad({ detections: [{ ...det(brandA, overlay, 0, 10), video: 999999 }] })).toBe(
      'video: unknown id 999999.',
    );
    expect(await bad({ detections: [det(brandA, 999999, 0, 10)] })).toBe('placement: unknown id 999999.');
    const q = await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=abc&endTime=10`);
    expect(q.statusCode).toBe(400);
    expect(q.json().detail).toMatch(/^startTime: /);
    expect((await c.get(`/api/videos/detections/?videoId=${videoId}&endTime=10`)).json().detail).toBe(
      'startTime: is required in the querystring.',
    );
    expect(
      (await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=10&endTime=5`)).statusCode,
    ).toBe(400);
    expect((await c.get('/api/videos/detections/?videoId=999999&startTime=0&endTime=5')).statusCode).toBe(
      404,
    );
    expect(
      (await c.put('/api/videos/detections/change/', { brandIds: [], placementIds: [], videoId })).json()
        .detail,
    ).toBe('newPlacementId: is required.');
  });

  it('deleting a brand removes its detections', async () => {
    await c.post('/api/videos/detections/', { detections: [det(brandB, overlay, 0, 100)] });
    expect((await window(0, 100)).some((d) => d.brand === brandB)).toBe(true);
    await c.del('/api/brands/deactivate/', { id: brandB });
    expect((await window(0, 100)).some((d) => d.brand === brandB)).toBe(false);
    expect((await s.ctx.db.query('SELECT id FROM detections WHERE brand_id = $1', [brandB])).length).toBe(0);
  });
});
