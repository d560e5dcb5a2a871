import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  });
});
