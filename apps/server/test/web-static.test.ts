import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
const dist = mkdtempSync(path.join(os.tmpdir(), 'lr-dist-'));
beforeAll(async () => {
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><title>app</title><script src="/assets/a.js"></script>',
  );
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets/a.js'), 'console.log(1)');
  s = await startTestServer({ webDist: dist });
});
afterAll(async () => {
  await s.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the web app on the same port', () => {
  it("serves index.html at / and for the app's routes, and its assets", async () => {
    for (const url of ['/', '/brands', '/editor', '/videos?x=1']) {
      const r = await s.app.inject({ method: 'GET', url });
      expect({ url, status: r.statusCode, body: r.body }).toMatchObject({
        status: 200,
        body: expect.stringContaining('<title>app</title>'),
      });
    }
    const js = await s.app.inject({ method: 'GET', url: '/assets/a.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
  });

  it('serves files of a rebuild without a restart; unknown API paths stay 404 JSON', async () => {
    writeFileSync(path.join(dist, 'assets/b.js'), 'console.log(2)');
    expect((await s.app.inject({ method: 'GET', url: '/assets/b.js' })).body).toBe('console.log(2)');
    const api = await s.app.inject({ method: 'GET', url: '/api/nope/' });
    expect(api.statusCode).toBe(401); // the token check comes first for API paths
    const media = await s.app.inject({ method: 'GET', url: '/media/videos/1/x.mp4' });
    expect(media.statusCode).toBe(403);
  });
});
