import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, TEST_DB } from './harness.ts';
import { logoFile, videoWithLogo } from './engine-media.ts';
import {
  freePort,
  adminQuery,
  cleanUpProcesses,
  LIFTOFF_ONLY,
  login,
  PG_ADMIN_URL,
  reportServersOnFailure,
  startServer,
  type ServerProcess,
} from './process-harness.ts';

const dbName = `lr_crash_${process.pid}`;
let dataDir: string | undefined;

afterAll(() => cleanUpProcesses(dataDir, TEST_DB === 'postgres' ? dbName : undefined));

const TWO_MINUTES = 120_000;
/**
 * The servers keep the database's Wasm on Liftoff ({@link LIFTOFF_ONLY}): on Node 24 a restart on
 * this test's data otherwise peaks at ~920 MB for a few seconds (~490 MB on Node 20, ~435 MB with
 * the flag), and a server lost to that compile fails a poll as `fetch failed` (ECONNRESET when the
 * request was still unread as the process died). What this test tests is the jobs' recovery.
 */
const NODE_ARGS = LIFTOFF_ONLY;

/**
 * The all-in-one server is killed (SIGKILL) while it activates a brand, while it analyses a video
 * with another queued, and while it renders a verification video; each time it is started again.
 * The queue's expiry stays at its default (an hour): recovery must not wait for it. On the embedded
 * database the restarted process fails back what was left running at once; on PostgreSQL (where
 * other processes may share the queue) the restarted process finds the dead process's leases
 * stale after one lease period and retries those jobs.
 */
describe(`crash recovery of the all-in-one server (${TEST_DB})`, () => {
  it('a SIGKILLed server finishes the activation, the analyses and the render it was running after a restart, with nothing duplicated', async () => {
    reportServersOnFailure();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-crash-'));
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'admin-password-1',
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      // The 40 s video is analysed as four 10 s chunks, two at a time; the 12 s one whole.
      ANALYSIS_CHUNK_SECONDS: '10',
      ANALYSIS_CHUNK_CONCURRENCY: '2',
    };
    // Embedded: recovery at start-up, so the lease keeps its default (30 s) and is not what helps.
    // PostgreSQL: the restarted process sweeps the dead one's leases after a 6 s lease.
    if (TEST_DB === 'postgres') env.JOB_LEASE_SECONDS = '6';
    const recovered = (kind: string, n = '1') =>
      new RegExp(
        `${n} ${kind} job\\(s\\) run again: ${TEST_DB === 'postgres' ? 'the worker running this job stopped' : 'the server stopped while this job ran'}`,
      );
    if (TEST_DB === 'postgres') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await adminQuery(`CREATE DATABASE ${dbName}`);
      env.DATABASE_URL = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
    }
    let server = await startServer(env, NODE_ARGS);
    let token = '';
    const call = async (url: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${server.port}${url}`, {
        ...init,
        headers: { authorization: `Token ${token}`, ...(init.headers ?? {}) },
      }).catch((err: Error) => {
        // fetch names neither the request nor the server; the server's output is printed below.
        throw new Error(`${init.method ?? 'GET'} ${url} (server pid ${server.child.pid}): ${err.message}`, {
          cause: err,
        });
      });
    const json = async (url: string) => (await call(url)).json();
    const relogin = async () => {
      token = (await (await login(server.port, 'admin', 'admin-password-1')).json()).token;
    };
    let killedOutput = '';
    /** Kills the server at once, checks the state it left, and starts a new one on the same data. */
    const killAndRestart = async (): Promise<ServerProcess> => {
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
      killedOutput = server.output();
      server = await startServer(env, NODE_ARGS);
      await relogin();
      return server;
    };
    await relogin();

    // 1. Activation. Twelve examples make the index take long enough to be killed midway.
    const logos = await Promise.all([5, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21].map((s) => logoFile(s)));
    const brandForm = new FormData();
    brandForm.set('name', 'Acme');
    for (const l of logos)
      brandForm.append('example_logos', new Blob([new Uint8Array(readFileSync(l))]), path.basename(l));
    const brand = await (await call('/api/brands/create/', { method: 'POST', body: brandForm })).json();
    await eventually(async () => (await json('/api/brands/'))[0].status === 'ACTIVATING', 30_000);
    await killAndRestart();
    const restartedAt = Date.now();
    await eventually(async () => (await json('/api/brands/'))[0].status === 'ACTIVE', TWO_MINUTES);
    expect(Date.now() - restartedAt).toBeLessThan(TWO_MINUTES);
    expect(server.output()).toMatch(recovered('activate-brand'));

    // 2. Analysis: a 40 s video in chunks killed midway, a second (whole) one queued beside it.
    const quad = [400, 30, 590, 30, 590, 125, 400, 125];
    const long = await videoWithLogo(logos[0], {
      seconds: 40,
      fps: 10,
      quad,
      shown: (i) => i >= 100 && i < 300,
    });
    const short = await videoWithLogo(logos[0], {
      seconds: 12,
      fps: 10,
      quad,
      shown: (i) => i >= 20 && i < 80,
    });
    const upload = async (name: string, file: Buffer) => {
      const form = new FormData();
      form.set('name', name);
      form.append('videoFile', new Blob([new Uint8Array(file)]), `${name}.mp4`);
      return (await call('/api/videos/create/', { method: 'POST', body: form })).json();
    };
    const a = await upload('long', long);
    const b = await upload('short', short);
    const latest = new Map<number, unknown>();
    const video = async (id: number) => {
      const v = await json(`/api/videos/${id}/`);
      latest.set(id, { status: v.status, progress: v.progress });
      return v;
    };
    // Killed once a chunk is done (progress is the share of chunks done), with the next ones under way.
    await eventually(async () => {
      const v = await video(a.id);
      return v.status === 'PROCESSING' && v.progress >= 25 && v;
    }, TWO_MINUTES * 2);
    await killAndRestart();
    const chunksIn = (out: string) =>
      [...out.matchAll(new RegExp(`analysis of video ${a.id}: chunk (\\d)/4 `, 'g'))].map((m) =>
        Number(m[1]),
      );
    const doneBefore = chunksIn(killedOutput);
    expect(doneBefore.length).toBeGreaterThanOrEqual(1);
    expect(doneBefore.length).toBeLessThan(4);
    const restarted = Date.now();
    for (const v of [a, b])
      await eventually(async () => (await video(v.id)).status === 'OK', TWO_MINUTES).catch((e: Error) => {
        throw new Error(
          `${e.message}: video ${v.id} is ${JSON.stringify(latest.get(v.id))}; the restarted server said:\n${server.output().slice(-6000)}`,
        );
      });
    expect(Date.now() - restarted).toBeLessThan(TWO_MINUTES);
    // Only the chunks that were running when it was killed ran again: each chunk was done once.
    expect(server.output()).toMatch(recovered('analyze-chunk', '[12]'));
    expect([...doneBefore, ...chunksIn(server.output())].sort()).toEqual([1, 2, 3, 4]);
    const detections = async (id: number) =>
      json(`/api/videos/detections/?videoId=${id}&startTime=0&endTime=60000`);
    const [da, db] = [await detections(a.id), await detections(b.id)];
    expect(da).toHaveLength(1);
    expect(da[0].brand).toBe(brand.id);
    expect(Math.abs(da[0].time_begin - 10_000)).toBeLessThanOrEqual(250);
    expect(Math.abs(da[0].time_end - 30_000)).toBeLessThanOrEqual(250);
    expect(db).toHaveLength(1);
    expect(Math.abs(db[0].time_begin - 2_000)).toBeLessThanOrEqual(250);
    expect(Math.abs(db[0].time_end - 8_000)).toBeLessThanOrEqual(250);

    // 3. A verification render killed midway.
    await call('/api/videos/verification/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Check', video: a.id }),
    });
    const verification = async () => (await json('/api/videos/verification/'))[0];
    await eventually(async () => {
      const v = await verification();
      return v.status === 'PROCESSING' && v.progress > 0 && v;
    }, TWO_MINUTES);
    await killAndRestart();
    const renderRestart = Date.now();
    const finished = await eventually(async () => {
      const v = await verification();
      return v.status === 'FINISHED' && v;
    }, TWO_MINUTES);
    expect(Date.now() - renderRestart).toBeLessThan(TWO_MINUTES);
    expect(finished.progress).toBe(100);
    expect(server.output()).toMatch(recovered('render-verification'));
    expect((await fetch(`http://127.0.0.1:${server.port}${finished.file_path}`)).status).toBe(200);
    expect(server.output()).not.toMatch(/job queue error/);
  }, 600_000);
});
