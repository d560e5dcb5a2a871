import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery } from './process-harness.ts';
import { pngLogo, smallVideo } from './fixtures.ts';
import { loadConfig } from '../src/config.ts';
import { eventually, multipart, startTestServer, TEST_DB, type Client, type TestServer } from './harness.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** All-in-one with METRICS_TOKEN set. */
let s: TestServer;
let c: Client;
/** The API alone (no worker in this process), with METRICS_TOKEN set: jobs stay queued. */
let api: TestServer;
/** Default settings: no METRICS_TOKEN. Its database is made unreachable in the last test. */
let plain: TestServer;

beforeAll(async () => {
  [s, api, plain] = await Promise.all([
    startTestServer({ metricsToken: TOKEN }),
    startTestServer({ metricsToken: TOKEN, role: 'api' }),
    startTestServer(),
  ]);
  c = await s.user('Acme', 'ann');
});
afterAll(async () => {
  await Promise.all([s?.close(), api?.close()]);
});

const get = (server: TestServer, url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url, headers });

/** The samples of one metric in the exposition text, with their labels. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const out: { labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of `name` whose labels include `labels` (0 when there is no such series yet). */
async function metric(
  server: TestServer,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const r = await get(server, '/metrics', { authorization: `Bearer ${TOKEN}` });
  expect(r.statusCode).toBe(200);
  const hit = samples(r.body, name).find((x) => Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return hit?.value ?? 0;
}

describe('operations endpoints', () => {
  it('GET /health answers 200 {status: ok} without a token, with or without a worker in the process', async () => {
    for (const server of [s, api, plain]) {
      const r = await get(server, '/health');
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ status: 'ok' });
    }
  });

  it('GET /ready answers 200 when the database and the queue answer', async () => {
    for (const server of [s, api, plain]) {
      const r = await get(server, '/ready');
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({ status: 'ok', database: 'ok', queue: 'ok' });
    }
  });

  it('the operations endpoints are not in the OpenAPI document (the API security suite enumerates that)', async () => {
    const doc = (await get(s, '/api/openapi.json')).json();
    for (const p of ['/health', '/ready', '/metrics']) expect(doc.paths[p]).toBeUndefined();
  });

  it('X-Request-Id: a sane incoming id is echoed, a missing or unsafe one is replaced by a new UUID', async () => {
    const none = await get(s, '/health');
    expect(none.headers['x-request-id']).toMatch(UUID);
    expect((await get(s, '/health')).headers['x-request-id']).not.toBe(none.headers['x-request-id']);
    const mine = await get(s, '/health', { 'x-request-id': 'lb-7f3A_z-01' });
    expect(mine.headers['x-request-id']).toBe('lb-7f3A_z-01');
    for (const bad of ['a'.repeat(65), 'id with spaces', 'x";evil=1', '../../etc']) {
      const r = await get(s, '/health', { 'x-request-id': bad });
      expect(r.headers['x-request-id'], bad).toMatch(UUID);
    }
    // every answer carries it, an API refusal too
    const refused = await get(s, '/api/brands/', { 'x-request-id': 'refused-1' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-request-id']).toBe('refused-1');
  });
});

describe('settings', () => {
  it('METRICS_TOKEN must be long and header-safe; OPS_PORT and SHUTDOWN_GRACE_SECONDS are whole numbers', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({}).opsPort).toBeUndefined();
    expect(loadConfig({}).shutdownGraceSeconds).toBe(30);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    for (const bad of ['short', 'has a space in it 0123456789', 'x'.repeat(201)])
      expect(() => loadConfig({ METRICS_TOKEN: bad }), bad).toThrow(/METRICS_TOKEN must be/);
    expect(loadConfig({ OPS_PORT: '9101', SHUTDOWN_GRACE_SECONDS: '5' })).toMatchObject({
      opsPort: 9101,
      shutdownGraceSeconds: 5,
    });
    expect(() => loadConfig({ OPS_PORT: 'x' })).toThrow(/OPS_PORT must be a whole number/);
    expect(() => loadConfig({ SHUTDOWN_GRACE_SECONDS: '-1' })).toThrow(/SHUTDOWN_GRACE_SECONDS/);
  });
});

describe('/metrics', () => {
  it('is off (404) without METRICS_TOKEN; with it, asks for the bearer token (401) and serves the text format', async () => {
    expect((await get(plain, '/metrics')).statusCode).toBe(404);
    expect((await get(plain, '/metrics', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(404);

    const none = await get(s, '/metrics');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.body).not.toContain('logo_review_');
    for (const authorization of [
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${TOKEN}x`,
      `Token ${TOKEN}`,
      TOKEN,
      `Bearer ${TOKEN.slice(0, -1)}`,
    ]) {
      const r = await get(s, '/metrics', { authorization });
      expect(r.statusCode, authorization).toBe(401);
      expect(r.body).not.toContain('logo_review_');
    }
    // a user's session token is not the metrics token
    expect((await get(s, '/metrics', { authorization: `Bearer ${c.token}` })).statusCode).toBe(401);

    const ok = await get(s, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'logo_review_http_request_duration_seconds',
      'logo_review_job_duration_seconds',
      'logo_review_jobs_failed_total',
      'logo_review_analysis_realtime_ratio',
      'logo_review_analysis_video_seconds_total',
      'logo_review_queue_depth',
      'logo_review_queue_active',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(ok.body).toContain(`# TYPE ${name} `);
    // the security headers apply here too
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(ok.headers['x-frame-options']).toBe('DENY');
  });

  it('times requests by route pattern and status class, never by the raw URL', async () => {
    const video = (
      await c.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name: 'Clip' }, [{ field: 'videoFile', name: 'c.mp4', data: smallVideo() }]),
      })
    ).json();
    const route = { method: 'GET', route: '/api/videos/:id/' };
    const count = 'logo_review_http_request_duration_seconds_count';
    const ok0 = await metric(s, count, { ...route, status_class: '2xx' });
    const missing0 = await metric(s, count, { ...route, status_class: '4xx' });
    expect((await c.get(`/api/videos/${video.id}/`)).statusCode).toBe(200);
    expect((await c.get(`/api/videos/${video.id}/`)).statusCode).toBe(200);
    expect((await c.get('/api/videos/987654/')).statusCode).toBe(404);
    // The latency is recorded in onResponse, after the answer has left: poll until it is in.
    await expect.poll(() => metric(s, count, { ...route, status_class: '2xx' })).toBe(ok0 + 2);
    await expect.poll(() => metric(s, count, { ...route, status_class: '4xx' })).toBe(missing0 + 1);
    expect(
      await metric(s, 'logo_review_http_request_duration_seconds_sum', { ...route, status_class: '2xx' }),
    ).toBeGreaterThan(0);
    const text = (await get(s, '/metrics', { authorization: `Bearer ${TOKEN}` })).body;
    expect(text).toContain('route="/api/videos/:id/"');
    expect(text).not.toContain(`/api/videos/${video.id}/`);
    expect(text).not.toContain('987654');
    // paths that no route matches share one series
    const unmatched = { method: 'GET', route: 'unmatched', status_class: '4xx' };
    const unmatched0 = await metric(s, count, unmatched);
    await get(s, '/api/no-such-call-1/');
    await get(s, '/api/no-such-call-2/');
    await expect.poll(() => metric(s, count, unmatched)).toBe(unmatched0 + 2);
    expect((await get(s, '/metrics', { authorization: `Bearer ${TOKEN}` })).body).not.toContain(
      'no-such-call',
    );
  });

  it('counts jobs by kind: activation and analysis durations, the analysis speed, and a failed activation', async () => {
    const completed = (kind: string) =>
      metric(s, 'logo_review_job_duration_seconds_count', { kind, outcome: 'completed' });
    const activations0 = await completed('activate-brand');
    const analyses0 = await completed('analyze-video');
    const speed0 = await metric(s, 'logo_review_analysis_realtime_ratio_count');
    const seconds0 = await metric(s, 'logo_review_analysis_video_seconds_total');

    const brand = (
      await c.req({
        method: 'POST',
        url: '/api/brands/create/',
        ...multipart({ name: 'Metered' }, [
          { field: 'example_logos', name: 'logo.png', data: await pngLogo(), type: 'image/png' },
        ]),
      })
    ).json();
    await eventually(async () => (await completed('activate-brand')) === activations0 + 1);
    expect((await c.get('/api/brands/')).json().find((b: { id: number }) => b.id === brand.id).status).toBe(
      'ACTIVE',
    );

    const video = (
      await c.req({
        method: 'POST',
        url: '/api/videos/create/',
        ...multipart({ name: 'Analysed' }, [{ field: 'videoFile', name: 'a.mp4', data: smallVideo() }]),
      })
    ).json();
    await eventually(async () => (await c.get(`/api/videos/${video.id}/`)).json().status === 'OK');
    await eventually(async () => (await completed('analyze-video')) > analyses0);
    // Each analysed video counts once (the earlier test's clip may be analysed again now that a
    // brand exists); every video here is smallVideo(), 2 s of footage.
    const analysed = (await metric(s, 'logo_review_analysis_realtime_ratio_count')) - speed0;
    expect(analysed).toBeGreaterThanOrEqual(1);
    expect(await metric(s, 'logo_review_analysis_realtime_ratio_sum')).toBeGreaterThan(0);
    expect(await metric(s, 'logo_review_analysis_video_seconds_total')).toBeCloseTo(
      seconds0 + 2 * analysed,
      5,
    );

    // An example image gone from disk: the next activation fails (and is retried).
    const failed0 = await metric(s, 'logo_review_jobs_failed_total', {
      kind: 'activate-brand',
      final: 'false',
    });
    const [stored] = await s.ctx.db.query<{ stored_path: string }>(
      'SELECT stored_path FROM brand_logos WHERE brand_id = $1',
      [brand.id],
    );
    rmSync(s.ctx.storage.resolve(stored.stored_path));
    const edit = await c.req({
      method: 'PUT',
      url: '/api/brands/create/',
      ...multipart({ id: String(brand.id) }, [
        { field: 'example_logos', name: 'second.png', data: await pngLogo('#1565c0'), type: 'image/png' },
      ]),
    });
    expect(edit.statusCode).toBe(200);
    await eventually(
      async () =>
        (await metric(s, 'logo_review_jobs_failed_total', { kind: 'activate-brand', final: 'false' })) >
        failed0,
    );
    expect(
      await metric(s, 'logo_review_job_duration_seconds_count', {
        kind: 'activate-brand',
        outcome: 'failed',
      }),
    ).toBeGreaterThan(0);
  });

  it('reports the queue depth per job kind (jobs wait while no worker runs)', async () => {
    const a = await api.user('Beta', 'bob');
    const depth = (kind: string) => metric(api, 'logo_review_queue_depth', { kind });
    expect(await depth('activate-brand')).toBe(0);
    expect(await depth('analyze-video')).toBe(0);
    for (const name of ['One', 'Two'])
      expect(
        (
          await a.req({
            method: 'POST',
            url: '/api/brands/create/',
            ...multipart({ name }, [
              { field: 'example_logos', name: 'l.png', data: await pngLogo(), type: 'image/png' },
            ]),
          })
        ).statusCode,
      ).toBe(201);
    expect(await depth('activate-brand')).toBe(2);
    expect(await metric(api, 'logo_review_queue_active', { kind: 'activate-brand' })).toBe(0);
    expect(await depth('render-verification')).toBe(0);
  });
});

// PostgreSQL only: PGlite runs queries on the main thread, so a slow one would stall the timer too.
describe.runIf(TEST_DB === 'postgres')('/ready with a database that does not answer in time', () => {
  it('answers 503 with the database timed out after 2 s while the queue (its own pool) answers', async () => {
    // Every connection of the server's pool busy for 4 s: its SELECT 1 waits for one.
    const busy = Array.from({ length: 10 }, () => plain.ctx.db.query('SELECT pg_sleep(4)'));
    const started = Date.now();
    const r = await get(plain, '/ready');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({
      status: 'unavailable',
      database: 'timeout',
      queue: 'ok',
      detail: 'Not ready: database timed out.',
    });
    await Promise.all(busy);
    expect((await get(plain, '/ready')).statusCode).toBe(200);
  });
});

describe('/ready with the database gone', () => {
  it('answers 503 and names what failed', async () => {
    if (TEST_DB === 'postgres') {
      // Refuse new connections and end the open ones: the server's pool and pg-boss's both lose it.
      const db = /\/([^/]+)$/.exec(plain.ctx.config.databaseUrl!)![1];
      await adminQuery(`ALTER DATABASE ${db} ALLOW_CONNECTIONS false`);
      await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db}'`);
      try {
        const r = await get(plain, '/ready');
        expect(r.statusCode).toBe(503);
        expect(r.json()).toEqual({
          status: 'unavailable',
          database: 'error',
          queue: 'error',
          detail: 'Not ready: database unreachable, queue unreachable.',
        });
        expect((await get(plain, '/health')).statusCode).toBe(200); // alive, just not ready
      } finally {
        await adminQuery(`ALTER DATABASE ${db} ALLOW_CONNECTIONS true`);
      }
      // and ready again once the database is back
      await eventually(async () => (await get(plain, '/ready')).statusCode === 200, 20_000);
      await plain.close();
    } else {
      // The embedded database closed under the running server.
      await plain.ctx.db.close();
      const r = await get(plain, '/ready');
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ status: 'unavailable', database: 'error' });
      expect(r.json().detail).toMatch(/^Not ready: database unreachable/);
      expect((await get(plain, '/health')).statusCode).toBe(200);
      await plain.app.close();
      await plain.ctx.jobs.stop(1000).catch(() => undefined);
      rmSync(plain.dataDir, { recursive: true, force: true });
    }
  });
});
