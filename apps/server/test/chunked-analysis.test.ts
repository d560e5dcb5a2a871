import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOBS } from '@logo-review/contract';
import { DEFAULT_SAMPLE_FPS } from '@logo-review/engine';
import { logoFile, maxCornerError, videoWithLogo } from './engine-media.ts';
import { eventually, multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { analyzeVideoJob } from '../src/jobs/analyze-video.job.ts';
import { analyzeChunkJob } from '../src/jobs/analyze-chunk.job.ts';

let s: TestServer;
let c: Client;
const QUAD = [400, 30, 590, 30, 590, 125, 400, 125];
const frameMs = 1000 / DEFAULT_SAMPLE_FPS;

// 4 s chunks, two at a time (the all-in-one process on two cores).
beforeAll(async () => {
  s = await startTestServer({ analysisChunkSeconds: 4, analysisChunkConcurrency: 2 });
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

type Detection = {
  id: number;
  brand: number;
  time_begin: number;
  time_end: number;
  coordinates: { start_time: number; end_time: number; points: number[] }[];
};

describe('a video longer than a chunk', () => {
  it('is analysed as chunk jobs whose tracks are stitched across the boundaries into one detection', async () => {
    const logo = await logoFile(5);
    const created = await c.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Acme' }, [
        { field: 'example_logos', name: 'brand.svg', data: await readFile(logo) },
      ]),
    });
    const brand = created.json();
    await eventually(async () => (await c.get('/api/brands/')).json()[0].status === 'ACTIVE', 60_000);

    // 12 s: chunks 0-4, 4-8 and 8-12 s. The logo is on screen from 2.5 s to 9.5 s, across two boundaries.
    const upload = await c.req({
      method: 'POST',
      url: '/api/videos/create/',
      ...multipart({ name: 'Match' }, [
        {
          field: 'videoFile',
          name: 'match.mp4',
          data: await videoWithLogo(logo, {
            seconds: 12,
            fps: 10,
            quad: QUAD,
            shown: (i) => i >= 25 && i < 95,
          }),
        },
      ]),
    });
    const videoId = upload.json().id;
    const seen: { status: string; progress: number }[] = [];
    const video = await eventually(async () => {
      const v = (await c.get(`/api/videos/${videoId}/`)).json();
      seen.push({ status: v.status, progress: v.progress });
      return v.status === 'OK' && v;
    }, 120_000);
    expect(video.progress).toBe(100);
    // Progress is the share of chunks done: 0, 1/3, 2/3 while it runs, and 99 (never 100 before the
    // status is OK) once all three are done while the last one stores the stitched result.
    const working = seen.filter((x) => x.status === 'PROCESSING').map((x) => x.progress);
    expect(working.length).toBeGreaterThan(0);
    for (const p of working) expect([0, 33, 66, 99]).toContain(p);

    // Three chunk jobs, one per span, each run once. The queue marks the last one completed once
    // its handler has returned, a moment after that handler set the video OK: wait for that.
    const jobs = await eventually(async () => {
      const rows = await s.ctx.db.query<{ chunk: number; state: string }>(
        `SELECT (data->>'chunk')::int AS chunk, state FROM pgboss.job WHERE name = $1 AND (data->>'videoId')::int = $2 ORDER BY 1`,
        [JOBS.analyzeChunk, videoId],
      );
      return rows.every((r) => r.state !== 'active') && rows;
    }, 10_000);
    expect(jobs).toEqual([0, 1, 2].map((chunk) => ({ chunk, state: 'completed' })));
    // The chunks' rows are gone once the result is written.
    expect(await s.ctx.db.query('SELECT 1 FROM analysis_chunks WHERE video_id = $1', [videoId])).toEqual([]);

    const list = async () =>
      (
        await c.get(`/api/videos/detections/?videoId=${videoId}&startTime=0&endTime=12000`)
      ).json() as Detection[];
    const dets = await list();
    expect(dets).toHaveLength(1);
    const d = dets[0];
    expect(d.brand).toBe(brand.id);
    expect(Math.abs(d.time_begin - 2500)).toBeLessThanOrEqual(frameMs);
    expect(Math.abs(d.time_end - 9500)).toBeLessThanOrEqual(frameMs);
    // Not broken: its segments cover the span without a gap, each with the logo's quad.
    for (let i = 1; i < d.coordinates.length; i++)
      expect(d.coordinates[i].start_time).toBeLessThanOrEqual(d.coordinates[i - 1].end_time);
    for (const seg of d.coordinates) expect(maxCornerError(seg.points, QUAD)).toBeLessThanOrEqual(4);

    // The same video analysed whole finds the same detection.
    const [{ organization_id }] = await s.ctx.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM videos WHERE id = $1',
      [videoId],
    );
    const job = { organizationId: organization_id, videoId };
    const whole = { ...s.ctx, config: { ...s.ctx.config, analysisChunkSeconds: 0 } };
    await analyzeVideoJob(whole, job);
    const w = (await list())[0];
    expect((await list()).length).toBe(1);
    expect(Math.abs(w.time_begin - d.time_begin)).toBeLessThanOrEqual(frameMs);
    expect(Math.abs(w.time_end - d.time_end)).toBeLessThanOrEqual(frameMs);
    const wholeHash = (await c.get(`/api/videos/${videoId}/`)).json().request_hash;
    // The chunk length is part of the input that request_hash identifies.
    expect(wholeHash).not.toBe(video.request_hash);

    // Chunked again: the same request as the first time, so the same request_hash; a repeat of it
    // changes nothing.
    await analyzeVideoJob(s.ctx, job);
    await eventually(async () => (await c.get(`/api/videos/${videoId}/`)).json().status === 'OK', 120_000);
    expect((await c.get(`/api/videos/${videoId}/`)).json().request_hash).toBe(video.request_hash);
    const send = vi.spyOn(s.ctx.jobs, 'send');
    try {
      await analyzeVideoJob(s.ctx, job);
      expect(send).not.toHaveBeenCalled();
    } finally {
      send.mockRestore();
    }

    // Re-analysis keeps reviewed detections, and adds no new finding over the same span beside them.
    const [mine] = await list();
    await c.put('/api/videos/detections/report/', { detectionIds: [mine.id], type: 'truePositive' });
    await s.ctx.db.query("UPDATE videos SET request_hash = '' WHERE id = $1", [videoId]);
    await analyzeVideoJob(s.ctx, job);
    await eventually(async () => {
      const v = (await c.get(`/api/videos/${videoId}/`)).json();
      return v.status === 'OK' && v.request_hash === video.request_hash;
    }, 120_000);
    const after = await list();
    expect(after.map((x) => x.id)).toEqual([mine.id]);
    // Four analyses of the video, each waited for up to 120 s: the whole may take longer than the
    // suite's 120 s per test on a loaded machine (CI runs another suite beside this one).
  }, 600_000);

  it('runs each chunk once: a second attempt at a chunk held by a live worker comes back later, one at a done chunk does nothing', async () => {
    const [v] = await s.ctx.db.query<{ id: number; organization_id: number; request_hash: string }>(
      "SELECT id, organization_id, request_hash FROM videos WHERE name = 'Match'",
    );
    const job = { organizationId: v.organization_id, videoId: v.id, requestHash: v.request_hash, chunk: 1 };
    await s.ctx.db.query(
      `INSERT INTO analysis_chunks (video_id, request_hash, chunk, chunks, start_ms, end_ms, owner, beat)
       VALUES ($1, $2, 1, 3, 4000, 8000, 'live worker', now())`,
      [v.id, v.request_hash],
    );
    const send = vi.spyOn(s.ctx.jobs, 'send').mockResolvedValue(null);
    try {
      await analyzeChunkJob(s.ctx, job);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send.mock.calls[0][0]).toBe(JOBS.analyzeChunk);
      expect(send.mock.calls[0][2]?.startAfterSeconds).toBeGreaterThan(0);
      // Its holder died (no beat for longer than a lease): the next attempt takes the chunk over.
      await s.ctx.db.query(
        "UPDATE analysis_chunks SET beat = now() - interval '1 hour' WHERE video_id = $1",
        [v.id],
      );
      await analyzeChunkJob(s.ctx, job);
      const [row] = await s.ctx.db.query<{ owner: string | null; done: boolean; n: number }>(
        'SELECT owner, done_at IS NOT NULL AS done, jsonb_array_length(detections) AS n FROM analysis_chunks WHERE video_id = $1',
        [v.id],
      );
      expect(row).toEqual({ owner: null, done: true, n: 1 });
      // Done: another attempt finds nothing to do (and the other chunks are missing, so no result is written).
      send.mockClear();
      await analyzeChunkJob(s.ctx, job);
      expect(send).not.toHaveBeenCalled();
      expect((await s.ctx.db.query('SELECT 1 FROM analysis_chunks WHERE video_id = $1', [v.id])).length).toBe(
        1,
      );
    } finally {
      send.mockRestore();
      await s.ctx.db.query('DELETE FROM analysis_chunks WHERE video_id = $1', [v.id]);
    }
  });
});
