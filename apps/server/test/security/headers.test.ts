import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, startTestServer, type Client, type TestServer } from '../harness.ts';
import { pngLogo } from '../fixtures.ts';
import { attack } from './ledger.ts';

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

// OWASP ASVS 5.0, V3.4 Browser Security Mechanisms (CSP, nosniff, Referrer-Policy, framing).
describe('security headers', () => {
  it('V3.4.3 V3.4.4 V3.4.5 V3.4.6: CSP, nosniff, Referrer-Policy and no framing on the app page, API answers (also errors and 401s) and the API docs', async () => {
    for (const url of [
      '/',
      '/brands',
      '/api/brands/',
      '/api/no-such-call/',
      '/api/docs/',
      '/api/openapi.json',
      '/health',
      '/ready',
      '/metrics',
    ])
      await attack(`headers on ${url}`, async () =>
        expectAppHeaders((await s.app.inject({ method: 'GET', url })).headers),
      );
    await attack('headers on a signed-in API answer', async () =>
      expectAppHeaders((await c.get('/api/brands/')).headers),
    );
    expect((await s.app.inject({ method: 'GET', url: '/api/brands/' })).statusCode).toBe(401);
  });

  it('V3.4.3 V5.3.x: media files get their own sandboxing policy instead (an SVG logo cannot run a script)', async () => {
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
