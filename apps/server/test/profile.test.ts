import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { accountsRepository } from '../src/repositories/accounts.repository.ts';
import { tokenHash } from '../src/auth/tokens.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const login = (username: string, password: string, ip = '10.0.0.1') =>
  s.app.inject({
    method: 'POST',
    url: '/api/profile/login/',
    payload: { username, password },
    remoteAddress: ip,
  });

describe('accounts and sessions', () => {
  it('the first start created an organization and the admin user', async () => {
    const r = await login('admin', 'admin-password-1');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['organization', 'token', 'user']);
    expect(body.user.username).toBe('admin');
    expect(body.organization.name).toBe('My organization');
    expect(body.organization.api_key).toMatch(/^•{12}[0-9a-f]{4}$/); // masked (see api-keys.test.ts)
    // At least 128 random bits, and only the hash is stored.
    expect(Buffer.from(body.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await s.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.map((x) => x.token_hash)).toContain(tokenHash(body.token));
    expect(rows.map((x) => x.token_hash)).not.toContain(body.token);
  });

  it('stores the password as an argon2id hash with explicit parameters', async () => {
    const u = await accountsRepository.userByUsername(s.ctx.db, 'admin');
    expect(u!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('answers 400 to wrong credentials and to an unknown user, 400 naming the field when one is missing', async () => {
    expect((await login('admin', 'nope')).statusCode).toBe(400);
    expect((await login('ghost', 'nope')).json().detail).toMatch(/credentials/);
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/profile/login/',
      payload: { username: 'admin' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().detail).toBe('password: is required.');
    const wrongType = await s.app.inject({
      method: 'POST',
      url: '/api/profile/login/',
      payload: { username: 5, password: 'x' },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().detail).toMatch(/^username: /);
  });

  it('rate-limits guessing from one address without locking the user out elsewhere', async () => {
    await s.user('Acme', 'victim'); // logs in from 127.0.0.1: a known address of the user
    for (let i = 0; i < 10; i++) expect((await login('victim', 'guess', '10.9.9.9')).statusCode).toBe(400);
    const blocked = await login('victim', 'victim-password', '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().detail).toMatch(/Too many login attempts/);
    // The account is slowed now (see login-throttle.test.ts), except from where the user logs in.
    expect((await login('victim', 'victim-password', '10.1.1.1')).statusCode).toBe(429);
    expect((await login('victim', 'victim-password', '127.0.0.1')).statusCode).toBe(200);
  });

  it('GET and PUT /api/profile/ with the token; 401 without', async () => {
    const c = await s.user('Acme', 'ann');
    expect((await s.app.inject({ method: 'GET', url: '/api/profile/' })).statusCode).toBe(401);
    expect(
      (
        await s.app.inject({
          method: 'GET',
          url: '/api/profile/',
          headers: { authorization: 'Token abcdefghijklmnopqrstuvwxyz' },
        })
      ).statusCode,
    ).toBe(401);
    const p = await c.get('/api/profile/');
    expect(p.statusCode).toBe(200);
    expect(p.json().user).toMatchObject({ username: 'ann', first_name: 'ann' });
    expect(p.json().organization.name).toBe('Acme');
    const u = await c.put('/api/profile/', {
      user: { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' },
    });
    expect(u.statusCode).toBe(200);
    expect(u.json().user).toMatchObject({
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.com',
      username: 'ann',
    });
    const bad = await c.put('/api/profile/', { user: { first_name: 'Ann', email: 'not-an-email' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^user\.email: /);
    const missing = await c.put('/api/profile/', { user: { first_name: 'Ann' } });
    expect(missing.json().detail).toBe('user.email: is required.');
  });

  it('logout revokes the token', async () => {
    const r = await login('admin', 'admin-password-1');
    const token = r.json().token;
    const auth = { authorization: `Token ${token}` };
    expect(
      (await s.app.inject({ method: 'POST', url: '/api/profile/logout/', headers: auth })).statusCode,
    ).toBe(200);
    expect((await s.app.inject({ method: 'GET', url: '/api/profile/', headers: auth })).statusCode).toBe(401);
  });

  it('serves the OpenAPI document and its UI without a token', async () => {
    const doc = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/profile/login/', '/api/videos/detections/', '/api/brands/create/']),
    );
    expect((await s.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('answers unknown API paths with 404 and a detail, and app routes with the page', async () => {
    const c = await s.user('Acme', 'ann');
    const r = await c.get('/api/nothing/here/');
    expect(r.statusCode).toBe(404);
    expect(r.json().detail).toBe('Not found.');
    const page = await s.app.inject({ method: 'GET', url: '/brands' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});
