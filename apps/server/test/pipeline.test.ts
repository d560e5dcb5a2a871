import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOBS } from '@logo-review/contract';
import { DEFAULT_SAMPLE_FPS } from '@logo-review/engine';
import { logoFile, maxCornerError, videoWithLogo } from './engine-media.ts';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { analyzeVideoJob } from '../src/jobs/analyze-video.job.ts';

let s: TestServer;
let c: Client;
const QUAD = [400, 30, 590, 30, 590, 125, 400, 125];

beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

describe('upload to detections, through the real engine', () => {
  it('finds the brand for the span it is shown, with its quad, and a repeated request changes nothing', async () => {
    const logo = await logoFile(5);
    const decoy = await logoFile(99);
    const created = await c.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Acme' }, [
        { field: 'example_logos', name: 'brand.svg', data: await readFile(logo) },
      ]),
    });
    const other = await c.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Other' }, [
        { field: 'example_logos', name: 'other.svg', data: await readFile(decoy) },
      ]),
    });
    const brand = created.json();
    const progress = new Set<number>();
    await eventually(async () => {
      const list = (await c.get('/api/brands/')).json() as {
        id: number;
        status: string;
        activation_progress: number;
      }[];
      for (const b of list) progress.add(b.activation_progress);
      return list.every((b) => b.status === 'ACTIVE');
    }, 60_000);
    expect(progress.has(100)).toBe(true);

    const upload = await c.req({
      method: 'POST',
      url: '/api/videos/create/',
      ...multipart({ name: 'Match' }, [
        {
          field: 'videoFile',
          name: 'match.mp4',
          data: await videoWithLogo(logo, {
            seconds: 3,
            fps: 10,
            quad: QUAD,
            shown: (i) => i >= 5 && i < 25,
          }),
        },
      ]),
    });
    expect(upload.statusCode).toBe(201);
    const videoId = upload.json().id;
    const statuses = new Set<string>();
    const video = await eventually(async () => {
      const v = (await c.get(`/api/videos/${videoId}/`)).json();
      statuses.add(v.status);
      return v.status === 'OK' && v;
    }, 120_000);
    expect([...statuses].every((x) => ['QUEUED', 'PROCESSING', 'OK'].includes(x))).toBe(true);
    expect(video.progress).toBe(100);
    expect(video.request_hash).toMatch(/^[0-9a-f]{32}$/);

    const dets = (await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=0&endTime=3000`)).json();
    expect(dets).toHaveLength(1);
    const d = dets[0];
    expect(d.brand).toBe(brand.id);
    expect(d.brand).not.toBe(other.json().id);
    expect(d.source).toBe('engine');
    expect(d.placement.localized_name).toBe('Broadcast overlay');
    const frameMs = 1000 / DEFAULT_SAMPLE_FPS;
    expect(Math.abs(d.time_begin - 500)).toBeLessThanOrEqual(frameMs);
    expect(Math.abs(d.time_end - 2500)).toBeLessThanOrEqual(frameMs);
    for (const seg of d.coordinates) expect(maxCornerError(seg.points, QUAD)).toBeLessThanOrEqual(4);
    // The example that found it is credited, for its precision.
    const [row] = await s.ctx.db.query<{ logo_id: number }>('SELECT logo_id FROM detections WHERE id = $1', [
      d.id,
    ]);
    expect(row.logo_id).toBe(brand.logos[0].id);

    // The same request again (a retried job) reuses the result: no duplicates.
    const [{ organization_id }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM videos WHERE id = $1',
      [videoId],
    );
    await analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId });
    expect((await c.get(`/api/videos/${videoId}/`)).json().request_hash).toBe(video.request_hash);
    expect(
      (await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=0&endTime=3000`)).json(),
    ).toHaveLength(1);

    // Two attempts at once (the queue reruns a job that ran past its expiry while its worker is
    // still alive): one analyses, the other finds the lease held and comes back later.
    await s.ctx.db.query("UPDATE videos SET request_hash = '' WHERE id = $1", [videoId]);
    const send = vi.spyOn(s.ctx.jobs, 'send').mockResolvedValue(null);
    try {
      await Promise.all([
        analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId }),
        analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId }),
      ]);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send.mock.calls[0][0]).toBe(JOBS.analyzeVideo);
      expect(send.mock.calls[0][2]?.startAfterSeconds).toBeGreaterThan(0);
    } finally {
      send.mockRestore();
    }
    const again = (await c.get(`/api/videos/${videoId}/`)).json();
    expect([again.status, again.progress, again.request_hash]).toEqual(['OK', 100, video.request_hash]);
    expect(
      (await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=0&endTime=3000`)).json(),
    ).toHaveLength(1);
    // A lease not renewed for longer than it lasts belongs to a dead worker: the next attempt takes it.
    await s.ctx.db.query(
      "UPDATE videos SET request_hash = '', analysis_owner = 'dead worker', analysis_beat = now() - interval '1 hour' WHERE id = $1",
      [videoId],
    );
    await analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId });
    const [lease] = await s.ctx.db.query<{ request_hash: string; analysis_owner: string | null }>(
      'SELECT request_hash, analysis_owner FROM videos WHERE id = $1',
      [videoId],
    );
    expect(lease).toEqual({ request_hash: video.request_hash, analysis_owner: null });
    const [redone] = (
      await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=0&endTime=3000`)
    ).json();
    expect([redone.brand, redone.time_begin, redone.time_end]).toEqual([d.brand, d.time_begin, d.time_end]);

    // Review feeds the example's precision.
    await c.put('/api/videos/detections/report/', { detectionIds: [redone.id], type: 'truePositive' });
    const b = (await c.get('/api/brands/')).json().find((x: { id: number }) => x.id === brand.id);
    expect(b.logos[0].precision).toBe(1);

    // While a brand activates, a rerun waits; it shows "waiting" only when no live attempt is at work.
    await s.ctx.db.query("UPDATE brands SET status = 'ACTIVATING', updated_at = now() WHERE id = $1", [
      brand.id,
    ]);
    const waitSend = vi.spyOn(s.ctx.jobs, 'send').mockResolvedValue(null);
    try {
      await s.ctx.db.query(
        "UPDATE videos SET request_hash = '', status = 'PROCESSING', progress = 40, analysis_owner = 'live worker', analysis_beat = now() WHERE id = $1",
        [videoId],
      );
      await analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId });
      const busy = (await c.get(`/api/videos/${videoId}/`)).json();
      expect([busy.status, busy.progress]).toEqual(['PROCESSING', 40]);
      await s.ctx.db.query(
        "UPDATE videos SET analysis_owner = NULL, status = 'OK', progress = 100 WHERE id = $1",
        [videoId],
      );
      await analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId });
      const idle = (await c.get(`/api/videos/${videoId}/`)).json();
      expect([idle.status, idle.status_reason]).toEqual([
        'QUEUED',
        'Waiting for brands to finish activating.',
      ]);
      expect(waitSend).toHaveBeenCalledTimes(2);
    } finally {
      waitSend.mockRestore();
      await s.ctx.db.query("UPDATE brands SET status = 'ACTIVE' WHERE id = $1", [brand.id]);
    }
    await analyzeVideoJob(s.ctx, { organizationId: organization_id, videoId });
    expect((await c.get(`/api/videos/${videoId}/`)).json().status).toBe('OK');
  });
});

describe('an upload right after a new brand', () => {
  it('waits for the brand to finish activating, then finds it', async () => {
    const logo = await logoFile(11);
    const video = await videoWithLogo(logo, { seconds: 2, fps: 10, quad: QUAD, shown: () => true });
    const created = await c.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Fresh' }, [
        { field: 'example_logos', name: 'fresh.svg', data: await readFile(logo) },
      ]),
    });
    const upload = await c.req({
      method: 'POST',
      url: '/api/videos/create/',
      ...multipart({ name: 'Right away' }, [{ field: 'videoFile', name: 'now.mp4', data: video }]),
    });
    const id = upload.json().id;
    await eventually(async () => (await c.get(`/api/videos/${id}/`)).json().status === 'OK');
    const dets = (await c.get(`/api/videos/detections/?videoId=${id}&startTime=0&endTime=2000`)).json();
    expect(dets.map((d: { brand: number }) => d.brand)).toContain(created.json().id);
  });
});

describe('an engine upgrade', () => {
  it('rebuilds indexes of an older format on start and on refresh, and analyses skip them meanwhile', async () => {
    const [b] = await s.ctx.db.query<{ id: number }>(
      "SELECT id FROM brands WHERE status = 'ACTIVE' ORDER BY id LIMIT 1",
    );
    await s.ctx.db.query("UPDATE brands SET index_format = 'old-format' WHERE id = $1", [b.id]);
    const brand = () =>
      c.get('/api/brands/').then((r) => r.json().find((x: { id: number }) => x.id === b.id));
    const refreshed = (await c.get('/api/brands/?refresh=true'))
      .json()
      .find((x: { id: number }) => x.id === b.id);
    expect(['QUEUED', 'ACTIVATING', 'ACTIVE']).toContain(refreshed.status);
    await eventually(async () => (await brand()).status === 'ACTIVE');
    const [row] = await s.ctx.db.query<{ index_format: string }>(
      'SELECT index_format FROM brands WHERE id = $1',
      [b.id],
    );
    expect(row.index_format).not.toBe('old-format');
  });
});
