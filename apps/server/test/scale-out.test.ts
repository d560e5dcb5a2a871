import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, TEST_DB } from './harness.ts';
import { logoFile, videoWithLogo } from './engine-media.ts';
import {
  adminQuery,
  cleanUpProcesses,
  freePort,
  login,
  PG_ADMIN_URL,
  startServer,
} from './process-harness.ts';

const dbName = `lr_scale_${process.pid}`;
let dataDir: string | undefined;

afterAll(() => cleanUpProcesses(dataDir, TEST_DB === 'postgres' ? dbName : undefined));

// Several processes need a server database: this runs in the PostgreSQL pass of `npm test`.
describe.runIf(TEST_DB === 'postgres')('analysis on separate worker processes', () => {
  it('a worker killed in the middle of a video loses nothing: another finishes it, without duplicates', async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-scale-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`),
      ADMIN_PASSWORD: 'admin-password-1',
      JOB_LEASE_SECONDS: '6', // the queue's expiry stays at its default hour
      ANALYSIS_CHUNK_SECONDS: '0', // the whole video as one job (chunks: the test below)
    };
    const api = await startServer({ ...env, ROLE: 'api', PORT: String(await freePort()) });
    let worker = await startServer({ ...env, ROLE: 'worker' });
    const token = (await (await login(api.port, 'admin', 'admin-password-1')).json()).token;
    const call = (url: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${api.port}${url}`, {
        ...init,
        headers: { authorization: `Token ${token}`, ...(init.headers ?? {}) },
      });

    const logo = await logoFile(5);
    const brandForm = new FormData();
    brandForm.set('name', 'Acme');
    brandForm.append('example_logos', new Blob([new Uint8Array(readFileSync(logo))]), 'logo.svg');
    const brand = await (await call('/api/brands/create/', { method: 'POST', body: brandForm })).json();
    await eventually(async () => (await (await call('/api/brands/')).json())[0].status === 'ACTIVE', 60_000);

    // 40 s of video: long enough to kill the worker while it analyses.
    const quad = [400, 30, 590, 30, 590, 125, 400, 125];
    const video = await videoWithLogo(logo, {
      seconds: 40,
      fps: 10,
      quad,
      shown: (i) => i >= 100 && i < 300,
    });
    const form = new FormData();
    form.set('name', 'Long match');
    form.append('videoFile', new Blob([new Uint8Array(video)]), 'match.mp4');
    const v = await (await call('/api/videos/create/', { method: 'POST', body: form })).json();
    const get = async () => (await call(`/api/videos/${v.id}/`)).json();

    const midway = await eventually(async () => {
      const x = await get();
      return x.status === 'PROCESSING' && x.progress > 5 && x;
    }, 120_000);
    expect(midway.progress).toBeLessThan(100);
    worker.child.kill('SIGKILL');
    await new Promise((r) => worker.child.once('exit', r));
    expect((await get()).status).toBe('PROCESSING'); // nobody is working on it now

    worker = await startServer({ ...env, ROLE: 'worker' });
    const done = await eventually(async () => {
      const x = await get();
      return x.status === 'OK' && x;
    }, 180_000);
    expect(done.progress).toBe(100);
    const dets = await (
      await call(`/api/videos/detections/?videoId=${v.id}&startTime=0&endTime=40000`)
    ).json();
    expect(dets).toHaveLength(1);
    expect(dets[0].brand).toBe(brand.id);
    expect(Math.abs(dets[0].time_begin - 10_000)).toBeLessThanOrEqual(250);
    expect(Math.abs(dets[0].time_end - 30_000)).toBeLessThanOrEqual(250);
    // Its waits add up to 5 minutes: on a busy machine the default 2 minutes is not enough.
  }, 420_000);

  it('in 10 s chunks, a worker killed in the middle loses only its chunk: it runs again, no chunk twice, and the track across the 20 s boundary is one detection', async () => {
    const chunkDb = `${dbName}_chunks`;
    await adminQuery(`CREATE DATABASE ${chunkDb}`);
    const env = {
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'lr-scale-chunks-')),
      DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${chunkDb}`),
      ADMIN_PASSWORD: 'admin-password-1',
      JOB_LEASE_SECONDS: '6',
      ANALYSIS_CHUNK_SECONDS: '10',
      ANALYSIS_CHUNK_CONCURRENCY: '1', // one chunk at a time: the kill hits exactly one
    };
    try {
      const api = await startServer({ ...env, ROLE: 'api', PORT: String(await freePort()) });
      const first = await startServer({ ...env, ROLE: 'worker' });
      const token = (await (await login(api.port, 'admin', 'admin-password-1')).json()).token;
      const call = (url: string, init: RequestInit = {}) =>
        fetch(`http://127.0.0.1:${api.port}${url}`, {
          ...init,
          headers: { authorization: `Token ${token}`, ...(init.headers ?? {}) },
        });
      const logo = await logoFile(5);
      const brandForm = new FormData();
      brandForm.set('name', 'Acme');
      brandForm.append('example_logos', new Blob([new Uint8Array(readFileSync(logo))]), 'logo.svg');
      const brand = await (await call('/api/brands/create/', { method: 'POST', body: brandForm })).json();
      await eventually(
        async () => (await (await call('/api/brands/')).json())[0].status === 'ACTIVE',
        60_000,
      );

      // 40 s: chunks 0-10, 10-20, 20-30 and 30-40 s; the logo from 10 to 30 s crosses the 20 s boundary.
      const quad = [400, 30, 590, 30, 590, 125, 400, 125];
      const video = await videoWithLogo(logo, {
        seconds: 40,
        fps: 10,
        quad,
        shown: (i) => i >= 100 && i < 300,
      });
      const form = new FormData();
      form.set('name', 'Long match');
      form.append('videoFile', new Blob([new Uint8Array(video)]), 'match.mp4');
      const v = await (await call('/api/videos/create/', { method: 'POST', body: form })).json();
      const get = async () => (await call(`/api/videos/${v.id}/`)).json();

      // Killed once a chunk is done and the next one is under way: while the worker holds a chunk
      // (its row claimed), not in the moment between two chunks, where it holds none (chunks that
      // take kept threads run in about a second, so a kill at the moment a chunk is done often
      // came before the next one was taken).
      const held = async () => {
        const c = new pg.Client({ connectionString: env.DATABASE_URL });
        await c.connect();
        try {
          const { rows } = await c.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM analysis_chunks WHERE owner IS NOT NULL AND done_at IS NULL',
          );
          return rows[0].n > 0;
        } finally {
          await c.end();
        }
      };
      const midway = await eventually(async () => {
        const x = await get();
        return x.status === 'PROCESSING' && x.progress >= 25 && (await held()) && x;
      }, 180_000);
      expect(midway.progress).toBeLessThan(100);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      const before = first.output();
      const doneBefore = [...before.matchAll(/chunk (\d)\/4 /g)].map((m) => Number(m[1]));
      expect(doneBefore.length).toBeGreaterThanOrEqual(1);
      expect(doneBefore.length).toBeLessThan(4);
      expect((await get()).status).toBe('PROCESSING'); // nobody is working on it now

      const second = await startServer({ ...env, ROLE: 'worker' });
      const done = await eventually(async () => {
        const x = await get();
        return x.status === 'OK' && x;
      }, 240_000);
      expect(done.progress).toBe(100);
      // The second worker ran only the chunks not done before the kill, each once.
      const doneAfter = [...second.output().matchAll(/chunk (\d)\/4 /g)].map((m) => Number(m[1]));
      expect([...doneBefore, ...doneAfter].sort()).toEqual([1, 2, 3, 4]);
      // The one chunk it held runs again, whether the kill came while it ran the chunk (its lease
      // written) or just after it took the next chunk from the queue, as the last one finished (the
      // lease not yet written). The second worker fails that job back at its first lease sweep
      // after the lease ran out.
      const reruns = await eventually(async () => second.output().match(/job\(s\) run again/g), 60_000);
      expect(reruns).toHaveLength(1);
      // still no chunk twice
      expect([...second.output().matchAll(/chunk (\d)\/4 /g)].map((m) => Number(m[1]))).toEqual(doneAfter);
      expect(second.output()).toMatch(
        /1 analyze-chunk job\(s\) run again: the worker (running this job|that took this job) stopped/,
      );
      const dets = await (
        await call(`/api/videos/detections/?videoId=${v.id}&startTime=0&endTime=40000`)
      ).json();
      expect(dets).toHaveLength(1);
      expect(dets[0].brand).toBe(brand.id);
      expect(Math.abs(dets[0].time_begin - 10_000)).toBeLessThanOrEqual(250);
      expect(Math.abs(dets[0].time_end - 30_000)).toBeLessThanOrEqual(250);
    } finally {
      await cleanUpProcesses(env.DATA_DIR, chunkDb);
    }
  }, 600_000);
});
