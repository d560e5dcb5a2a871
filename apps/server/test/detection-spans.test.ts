import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeSpans } from '../src/services/detection-spans.ts';
import { multipart, startTestServer, type Client, type TestServer, uploadSmallVideo } from './harness.ts';

describe('mergeSpans', () => {
  it('joins overlapping and touching spans and keeps separate ones apart', () => {
    expect(
      mergeSpans(
        [
          [5000, 6000],
          [0, 1000],
          [500, 2000],
          [2000, 2500],
          [9000, 9100],
        ],
        10,
      ),
    ).toEqual([
      [0, 2500],
      [5000, 6000],
      [9000, 9100],
    ]);
  });

  it('closes the shortest gaps first until at most max segments remain', () => {
    // gaps: 100 (1000..1100), 3900 (1200..5100), 50 (5200..5250)
    const spans: [number, number][] = [
      [0, 1000],
      [1100, 1200],
      [5100, 5200],
      [5250, 6000],
    ];
    expect(mergeSpans(spans, 3)).toEqual([
      [0, 1000],
      [1100, 1200],
      [5100, 6000],
    ]);
    expect(mergeSpans(spans, 2)).toEqual([
      [0, 1200],
      [5100, 6000],
    ]);
    expect(mergeSpans(spans, 1)).toEqual([[0, 6000]]);
  });

  it('bounds thousands of spans and still covers each one', () => {
    const spans: [number, number][] = Array.from({ length: 5000 }, (_, i) => [i * 1000, i * 1000 + 400]);
    const out = mergeSpans(spans, 200);
    expect(out.length).toBeLessThanOrEqual(200);
    for (const [a, b] of spans) expect(out.some(([x, y]) => x <= a && b <= y)).toBe(true);
    expect(mergeSpans([], 5)).toEqual([]);
  });
});

describe('GET /api/videos/detections/spans/', () => {
  let s: TestServer;
  let c: Client;
  let videoId: number;
  let brandA: number;
  let brandB: number;
  let placement: number;
  const quad = [10, 10, 30, 10, 30, 20, 10, 20];
  const det = (brand: number, begin: number, end: number) => ({
    video: videoId,
    brand,
    placement,
    time_begin: begin,
    time_end: end,
    coordinates: [{ start_time: begin, end_time: end, points: quad }],
  });
  const spans = async (query: string) => c.get(`/api/videos/detections/spans/?${query}`);

  beforeAll(async () => {
    s = await startTestServer();
    c = await s.user('Acme', 'ann');
    videoId = await uploadSmallVideo(c);
    const brand = async (name: string) =>
      (await c.req({ method: 'POST', url: '/api/brands/create/', ...multipart({ name }) })).json().id;
    brandA = await brand('A');
    brandB = await brand('B');
    placement = (await c.get('/api/videos/placements/')).json()[0].id;
  });
  afterAll(() => s.close());

  it('answers per brand its count and merged spans; false positives are left out', async () => {
    const created = (
      await c.post('/api/videos/detections/', {
        detections: [
          det(brandA, 0, 1000),
          det(brandA, 800, 1500),
          det(brandA, 4000, 5000),
          det(brandB, 2000, 3000),
          det(brandB, 7000, 8000),
        ],
      })
    ).json() as { id: number; brand: number; time_begin: number }[];
    const fp = created.find((d) => d.brand === brandB && d.time_begin === 7000)!;
    expect(
      (await c.put('/api/videos/detections/report/', { detectionIds: [fp.id], type: 'falsePositive' }))
        .statusCode,
    ).toBe(200);

    const r = await spans(`videoId=${videoId}`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual([
      {
        brand: brandA,
        count: 3,
        spans: [
          [0, 1500],
          [4000, 5000],
        ],
      },
      { brand: brandB, count: 1, spans: [[2000, 3000]] },
    ]);
    expect((await spans(`videoId=${videoId}&segments=1`)).json()[0].spans).toEqual([[0, 5000]]);
  });

  it('rejects a bad query and hides other organizations’ videos', async () => {
    expect((await spans('videoId=abc')).statusCode).toBe(400);
    expect((await spans(`videoId=${videoId}&segments=0`)).statusCode).toBe(400);
    expect((await spans(`videoId=${videoId}&segments=100000`)).statusCode).toBe(400);
    expect((await spans('videoId=999999')).statusCode).toBe(404);
    const other = await s.user('Other', 'olga');
    expect((await other.get(`/api/videos/detections/spans/?videoId=${videoId}`)).statusCode).toBe(404);
  });
});
