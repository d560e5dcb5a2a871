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
  type ServerProcess,
} from './process-harness.ts';

const dbName = `lr_shutdown_${process.pid}`;
let dataDir: string | undefined;

afterAll(() => cleanUpProcesses(dataDir, TEST_DB === 'postgres' ? dbName : undefined));

const TOKEN = 'metrics-token-0123456789abcdef';
const quad = [400, 30, 590, 30, 590, 125, 400, 125];

/** Sends SIGTERM and resolves with the exit code (null when a signal ended it instead). */
async function terminate(server: ServerProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
  server.child.kill('SIGTERM');
  return { code: await exited, ms: Date.now() - started };
}

/**
 * Real server processes on one data directory (and on PostgreSQL one database): the all-in-one
 * server is stopped with SIGTERM while it analyses a video, first with a grace period long enough
 * to finish it, then with one too short; a worker-only process (its only listener on OPS_PORT)
 * picks the released job up; a last all-in-one start shows each video analysed once.
 */
describe(`graceful shutdown (${TEST_DB})`, () => {
  it('SIGTERM: HTTP stops, the running analysis finishes within the grace period or is released and run again, exit 0', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-shutdown-'));
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'admin-password-1',
      HOST: '127.0.0.1',
      METRICS_TOKEN: TOKEN,
    };
    if (TEST_DB === 'postgres') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await adminQuery(`CREATE DATABASE ${dbName}`);
      env.DATABASE_URL = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
    }
    const start = async (extra: Record<string, string>) =>
      startServer({ ...env, PORT: String(await freePort()), ...extra });

    // 1. All-in-one, grace period 60 s: the analysis under way when SIGTERM comes finishes first.
    let server = await start({ SHUTDOWN_GRACE_SECONDS: '60' });
    const base = () => `http://127.0.0.1:${server.port}`;
    let token = (await (await login(server.port, 'admin', 'admin-password-1')).json()).token;
    const call = (url: string, init: RequestInit = {}) =>
      fetch(`${base()}${url}`, {
        ...init,
        headers: { authorization: `Token ${token}`, ...(init.headers ?? {}) },
      });
    const json = async (url: string) => (await call(url)).json();

    const health = await fetch(`${base()}/health`, { headers: { 'x-request-id': 'probe-1' } });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toBe('probe-1');
    expect(await health.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base()}/ready`)).status).toBe(200);

    const logo = await logoFile(5);
    const brandForm = new FormData();
    brandForm.set('name', 'Acme');
    brandForm.append('example_logos', new Blob([new Uint8Array(readFileSync(logo))]), 'logo.svg');
    const brand = await (await call('/api/brands/create/', { method: 'POST', body: brandForm })).json();
    await eventually(async () => (await json('/api/brands/'))[0].status === 'ACTIVE', 60_000);

    const upload = async (name: string, seconds: number, requestId: string) => {
      const form = new FormData();
      form.set('name', name);
      const file = await videoWithLogo(logo, {
        seconds,
        fps: 10,
        quad,
        shown: (i) => i >= 20 && i < 80,
      });
      form.append('videoFile', new Blob([new Uint8Array(file)]), `${name}.mp4`);
      const r = await call('/api/videos/create/', {
        method: 'POST',
        body: form,
        headers: { 'x-request-id': requestId },
      });
      expect(r.headers.get('x-request-id')).toBe(requestId);
      return r.json();
    };
    const analysing = (id: number) =>
      eventually(async () => {
        const v = await json(`/api/videos/${id}/`);
        return v.status === 'PROCESSING' && v.progress > 0 && v;
      }, 120_000);

    const first = await upload('first', 12, 'upload-first');
    await analysing(first.id);
    const one = await terminate(server);
    expect(one.code).toBe(0);
    const out1 = server.output();
    expect(out1).toMatch(/SIGTERM: shutting down \(running jobs get up to 60 s\)/);
    // the job's log line carries the id of the request that queued it
    const done = /job analyze-video \S+ \(request upload-first\) completed in [\d.]+ s/.exec(out1);
    expect(done, out1).not.toBeNull();
    expect(out1.indexOf('shut down cleanly')).toBeGreaterThan(done!.index);
    expect(out1).not.toMatch(/released at shutdown|job queue error/);
    // the HTTP listener is gone
    await expect(fetch(`${base()}/health`)).rejects.toThrow();

    // 2. Grace period 1 s: a longer analysis is stopped and handed back to the queue.
    server = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
    token = (await (await login(server.port, 'admin', 'admin-password-1')).json()).token;
    expect((await json(`/api/videos/${first.id}/`)).status).toBe('OK');
    const second = await upload('second', 40, 'upload-second');
    await analysing(second.id);
    const two = await terminate(server);
    expect(two.code).toBe(0);
    expect(two.ms).toBeLessThan(15_000);
    const out2 = server.output();
    expect(out2).toMatch(
      /job analyze-video \S+ \(request upload-second\) still running after the 1 s grace period/,
    );
    expect(out2).toMatch(
      /job analyze-video \S+ \(request upload-second\) released at shutdown after [\d.]+ s: queued to run again/,
    );
    expect(out2).toMatch(/shut down cleanly/);
    expect(out2).not.toMatch(/job queue error/);

    // 3. A worker-only process: /health, /ready and /metrics on OPS_PORT; it runs the released job.
    const opsPort = await freePort();
    const worker = await startServer({ ...env, ROLE: 'worker', OPS_PORT: String(opsPort) });
    expect(worker.port).toBe(opsPort);
    const ops = (url: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${opsPort}${url}`, { headers });
    expect((await ops('/health')).status).toBe(200);
    expect(await (await ops('/ready')).json()).toEqual({ status: 'ok', database: 'ok', queue: 'ok' });
    expect((await ops('/metrics')).status).toBe(401);
    expect((await ops('/api/brands/')).status).toBe(404); // only the operations endpoints here
    const analysed = async () => {
      const text = await (await ops('/metrics', { authorization: `Bearer ${TOKEN}` })).text();
      return /^logo_review_job_duration_seconds_count\{kind="analyze-video",outcome="completed"\} (\d+)$/m.exec(
        text,
      )?.[1];
    };
    await eventually(async () => (await analysed()) === '1', 180_000);
    const three = await terminate(worker);
    expect(three.code).toBe(0);
    expect(worker.output()).toMatch(/job analyze-video \S+ \(request upload-second\) completed in/);
    expect(worker.output()).toMatch(/shut down cleanly/);

    // 4. Each video analysed once: one detection each, nothing duplicated.
    server = await start({});
    token = (await (await login(server.port, 'admin', 'admin-password-1')).json()).token;
    for (const v of [first, second]) {
      expect((await json(`/api/videos/${v.id}/`)).status).toBe('OK');
      const dets = await json(`/api/videos/detections/?videoId=${v.id}&startTime=0&endTime=60000`);
      expect(dets).toHaveLength(1);
      expect(dets[0].brand).toBe(brand.id);
      expect(Math.abs(dets[0].time_begin - 2_000)).toBeLessThanOrEqual(250);
    }
    expect((await terminate(server)).code).toBe(0);
  }, 600_000);
});
