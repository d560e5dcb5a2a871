import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startTestServer, type Client, type TestServer } from './harness.ts';
import { pngLogo } from './fixtures.ts';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await s.user('Acme', 'ann');
});
afterAll(() => s.close());

/** The headers every page and API answer carries. */
function expectAppHeaders(h: Record<string, unknown>) {
  const csp = String(h['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('upgrade-insecure-requests');
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['referrer-policy']).toBe('same-origin');
  expect(h['x-content-type-options']).toBe('nosniff');
}

describe('security headers', () => {
  it('are on the app page, on API answers (also errors and 401s), and on the API docs', async () => {
    for (const r of [
      await s.app.inject({ method: 'GET', url: '/' }),
      await s.app.inject({ method: 'GET', url: '/brands' }),
      await c.get('/api/brands/'),
      await s.app.inject({ method: 'GET', url: '/api/brands/' }),
      await s.app.inject({ method: 'GET', url: '/api/no-such-call/' }),
      await s.app.inject({ method: 'GET', url: '/api/docs/' }),
      await s.app.inject({ method: 'GET', url: '/api/openapi.json' }),
    ]) {
      expectAppHeaders(r.headers);
    }
    expect((await s.app.inject({ method: 'GET', url: '/api/brands/' })).statusCode).toBe(401);
  });

  it('give media files their own sandboxing policy instead (an SVG logo cannot run a script)', async () => {
    const r = await c.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Headers' }, [
        { field: 'example_logos', name: 'logo.png', data: await pngLogo(), type: 'image/png' },
      ]),
    });
    expect(r.statusCode).toBe(201);
    const media = await s.app.inject({ method: 'GET', url: r.json().icon_url });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(media.headers['x-content-type-options']).toBe('nosniff');
    expect(media.headers['x-frame-options']).toBe('DENY');
  });
});
