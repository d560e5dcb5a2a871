import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetectionJsonCache } from '../src/repositories/detection-json-cache.ts';
import { detectionsRepository } from '../src/repositories/detections.repository.ts';
import { multipart, startTestServer, type Client, type TestServer, uploadSmallVideo } from './harness.ts';

describe('DetectionJsonCache', () => {
  it('serves an entry only at the version it was stored at', () => {
    const c = new DetectionJsonCache(1 << 20);
    expect(c.get(1, '5.1.')).toBeUndefined();
    c.set(1, '5.1.', Buffer.from('{"id":1}'));
    expect(c.get(1, '5.1.')).toEqual(Buffer.from('{"id":1}'));
    expect(c.get(1, '6.1.')).toBeUndefined();
    c.set(1, '6.1.', Buffer.from('{"id":1,"x":2}'));
    expect(c.get(1, '6.1.')).toEqual(Buffer.from('{"id":1,"x":2}'));
    expect(c.count).toBe(1);
    expect([c.hits, c.misses]).toEqual([2, 2]);
  });

  it('stays within its bytes, dropping the least recently used first', () => {
    const json = Buffer.from('x'.repeat(2000)); // 2,064 bytes an entry
    const c = new DetectionJsonCache(3 * 2064);
    c.set(1, 'a', json);
    c.set(2, 'a', json);
    c.set(3, 'a', json);
    expect(c.get(1, 'a')).toBe(json); // 1 is now the most recent
    c.set(4, 'a', json);
    expect(c.count).toBe(3);
    expect(c.bytes).toBeLessThanOrEqual(3 * 2064);
    expect(c.get(2, 'a')).toBeUndefined();
    expect([1, 3, 4].map((id) => c.get(id, 'a'))).toEqual([json, json, json]);
    c.set(5, 'a', Buffer.from('y'.repeat(10_000))); // larger than the whole cache: not kept, nothing dropped
    expect(c.count).toBe(3);
  });
});

describe('the window query through the cache', () => {
  let s: TestServer;
  let c: Client;
  let videoId: number;
  let org: number;
  const url = (start: number, end: number) =>
    `/api/videos/detections/?videoId=${videoId}&startTime=${start}&endTime=${end}`;
  const window = async (start: number, end: number) => (await c.get(url(start, end))).body;
  /** The same window built by the database in one query, without the cache. */
  const direct = async (start: number, end: number) =>
    (await detectionsRepository.windowJson(s.ctx.db, org, videoId, start, end, null))!.toString();

  beforeAll(async () => {
    s = await startTestServer();
    c = await s.user('Acme', 'ann');
    videoId = await uploadSmallVideo(c);
    const brand = (
      await c.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name: 'A' }) })
    ).json().id;
    const placement = (await c.get('/api/videos/placements/')).json()[0].id;
    const detections = Array.from({ length: 30 }, (_, i) => ({
      video: videoId,
      brand,
      placement,
      time_begin: i * 1000,
      time_end: i * 1000 + 2500,
      confidence: 0.5,
      coordinates: [
        { start_time: i * 1000, end_time: i * 1000 + 2500, points: [i, 1, i + 20, 1, i + 20, 11, i, 11] },
      ],
    }));
    expect((await c.post('/api/videos/detections/', { detections })).statusCode).toBe(201);
    // As the engine leaves them: unreviewed, with a confidence.
    await s.ctx.db.query(
      `UPDATE detections SET review = 'UNREVIEWED', source = 'engine', reviewed_by = NULL, reviewed_at = NULL
       WHERE video_id = $1`,
      [videoId],
    );
    [{ org }] = await s.ctx.db.query<{ org: number }>(
      'SELECT organization_id AS org FROM videos WHERE id = $1',
      [videoId],
    );
  });
  afterAll(() => s.close());

  it('is on by default and answers exactly what the database builds without it', async () => {
    expect(s.ctx.windowCache).not.toBeNull();
    const first = await window(0, 10_000);
    expect(JSON.parse(first)).toHaveLength(11);
    expect(first).toBe(await direct(0, 10_000));
    const hits = s.ctx.windowCache!.hits;
    const misses = s.ctx.windowCache!.misses;
    // The same window again: every detection from the cache, the same bytes.
    expect(await window(0, 10_000)).toBe(first);
    expect(s.ctx.windowCache!.hits - hits).toBe(11);
    expect(s.ctx.windowCache!.misses).toBe(misses);
    expect(await window(5000, 15_000)).toBe(await direct(5000, 15_000));
  });

  it('tells a window with no detection from a video that is not there, in the same query', async () => {
    // past the last detection: the video, and nothing in the window
    expect(await window(100_000, 110_000)).toBe('[]');
    expect(await direct(100_000, 110_000)).toBe('[]');
    for (const cache of [s.ctx.windowCache, null]) {
      expect(
        await detectionsRepository.windowJson(s.ctx.db, org, videoId + 1000, 0, 10_000, cache),
      ).toBeNull();
      // another organization's video is not there either
      expect(
        await detectionsRepository.windowJson(s.ctx.db, org + 1000, videoId, 0, 10_000, cache),
      ).toBeNull();
    }
    expect(
      (await c.get(url(0, 10_000).replace(`videoId=${videoId}`, `videoId=${videoId + 1000}`))).statusCode,
    ).toBe(404);
  });

  it('never serves a detection changed by any path, even behind the API', async () => {
    const before = JSON.parse(await window(0, 10_000)) as { id: number; confidence: number }[];
    const [a, b, d] = [before[0].id, before[1].id, before[2].id];
    // Another process (a worker, or SQL by hand) changing a row: no call of this API saw it.
    await s.ctx.db.query('UPDATE detections SET confidence = 0.9 WHERE id = $1', [a]);
    // Through the API: a move, a verdict (reviewed_by joins the user), and a placement renamed.
    const moved = [{ start_time: 1000, end_time: 3500, points: [50, 60, 80, 60, 80, 70, 50, 70] }];
    expect((await c.patch(`/api/videos/detections/${b}/`, { coordinates: moved })).statusCode).toBe(200);
    expect(
      (await c.put('/api/videos/detections/report/', { detectionIds: [d], type: 'truePositive' })).statusCode,
    ).toBe(200);
    const pl = (await c.get('/api/videos/placements/')).json()[0];
    expect(
      (await c.put('/api/videos/placements/', { id: pl.id, localized_name: 'Renamed', color: pl.color }))
        .statusCode,
    ).toBe(200);

    const after = await window(0, 10_000);
    expect(after).toBe(await direct(0, 10_000));
    const byId = new Map(
      (
        JSON.parse(after) as {
          id: number;
          confidence: number;
          coordinates: unknown;
          review: string;
          reviewed_by: string;
          placement: { localized_name: string };
        }[]
      ).map((x) => [x.id, x]),
    );
    expect(byId.get(a)!.confidence).toBeCloseTo(0.9, 5);
    expect(byId.get(b)!.coordinates).toEqual(moved);
    expect(byId.get(d)!).toMatchObject({ review: 'TRUE_POSITIVE', reviewed_by: 'ann' });
    expect([...byId.values()].every((x) => x.placement.localized_name === 'Renamed')).toBe(true);

    // A false positive leaves the window, cached or not.
    await c.put('/api/videos/detections/report/', { detectionIds: [a], type: 'falsePositive' });
    const left = JSON.parse(await window(0, 10_000)) as { id: number }[];
    expect(left.map((x) => x.id)).not.toContain(a);
    expect(left).toHaveLength(before.length - 1);
  });

  it('can be turned off (WINDOW_CACHE_MB=0)', async () => {
    const off = await startTestServer({ windowCacheBytes: 0 });
    try {
      expect(off.ctx.windowCache).toBeNull();
    } finally {
      await off.close();
    }
  });
});
