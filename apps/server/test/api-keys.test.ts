import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../src/auth/tokens.ts';
import { multipart, startTestServer, type Client, type TestServer } from './harness.ts';

let s: TestServer;
let ann: Client;
let bob: Client;
beforeAll(async () => {
  s = await startTestServer();
  ann = await s.user('Acme', 'ann');
  bob = await s.user('Other', 'bob');
});
afterAll(() => s.close());

const withKey = (key: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  s.app.inject({ method, url, headers: { authorization: `Api-Key ${key}` }, payload: payload as string });

describe('organization API keys', () => {
  let key: string;

  it('a rotated key is shown once, stored only as a hash, and masked in the profile after', async () => {
    const r = await ann.post('/api/profile/api-key/rotate/');
    expect(r.statusCode).toBe(200);
    key = r.json().api_key;
    expect(key).toMatch(/^lr_[0-9a-f]{48}$/);
    const profile = (await ann.get('/api/profile/')).json();
    expect(profile.organization.api_key).toBe(`••••••••••••${key.slice(-4)}`);
    const rows = await s.ctx.db.query<Record<string, unknown>>('SELECT * FROM organizations');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(rows.map((o) => o.api_key_hash)).toContain(tokenHash(key));
  });

  it('authenticates calls as the organization: lists, creates, and sees what its users see', async () => {
    const brand = await ann.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Keyed' }),
    });
    expect(brand.statusCode).toBe(201);
    const list = await withKey(key, 'GET', '/api/brands/');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((b: { name: string }) => b.name)).toContain('Keyed');
    const created = await withKey(key, 'POST', '/api/videos/placements/', {
      localized_name: 'By script',
      color: '#00ff00',
    });
    expect(created.statusCode).toBe(201);
    expect(
      (await ann.get('/api/videos/placements/'))
        .json()
        .some((p: { localized_name: string }) => p.localized_name === 'By script'),
    ).toBe(true);
  });

  it('keeps tenancy: another organization and its ids stay out of reach', async () => {
    const theirs = await bob.req({
      method: 'POST',
      url: '/api/brands/create/',
      ...multipart({ name: 'Bob brand' }),
    });
    const id = theirs.json().id;
    expect((await withKey(key, 'GET', '/api/brands/')).json().some((b: { id: number }) => b.id === id)).toBe(
      false,
    );
    const deact = await withKey(key, 'PUT', '/api/brands/deactivate/', { id });
    expect(deact.statusCode).toBe(404);
    expect((await bob.get('/api/brands/')).json().find((b: { id: number }) => b.id === id).status).not.toBe(
      'DEACTIVATED',
    );
  });

  it('acts for the organization, not a person: no profile, no logout, no rotation with a key', async () => {
    for (const [method, url] of [
      ['GET', '/api/profile/'],
      ['POST', '/api/profile/logout/'],
      ['POST', '/api/profile/api-key/rotate/'],
    ] as const) {
      const r = await withKey(key, method, url);
      expect(r.statusCode).toBe(403);
      expect(r.json().detail).toMatch(/API key acts for the organization/);
    }
  });

  it('after a rotation the old key fails (401) and the new one works', async () => {
    const fresh = (await ann.post('/api/profile/api-key/rotate/')).json().api_key;
    expect(fresh).not.toBe(key);
    const old = await withKey(key, 'GET', '/api/brands/');
    expect(old.statusCode).toBe(401);
    expect(old.json().detail).toBe('Invalid API key.');
    expect((await withKey(fresh, 'GET', '/api/brands/')).statusCode).toBe(200);
    expect((await withKey('lr_' + '0'.repeat(48), 'GET', '/api/brands/')).statusCode).toBe(401);
    // a key is not a session token, and a token is not a key
    expect(
      (
        await s.app.inject({
          method: 'GET',
          url: '/api/brands/',
          headers: { authorization: `Token ${fresh}` },
        })
      ).statusCode,
    ).toBe(401);
    expect((await withKey(ann.token, 'GET', '/api/brands/')).statusCode).toBe(401);
  });

  it('the audit trail names the key, not a user, for changes made with it', async () => {
    const fresh = (await ann.post('/api/profile/api-key/rotate/')).json().api_key;
    const r = await withKey(fresh, 'POST', '/api/videos/placements/', {
      localized_name: 'Audited',
      color: '#0000ff',
    });
    expect(r.statusCode).toBe(201);
    const rows = await s.ctx.db.query<{
      user_id: number | null;
      api_key: string | null;
      route: string;
      method: string;
    }>('SELECT user_id, api_key, route, method FROM audit_log ORDER BY id');
    const last = rows[rows.length - 1];
    expect(last).toEqual({
      user_id: null,
      api_key: `••••••••••••${fresh.slice(-4)}`,
      route: '/api/videos/placements/',
      method: 'POST',
    });
    // the rotation just before was made by ann, as ann
    const [annRow] = await s.ctx.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'ann'");
    expect(rows[rows.length - 2]).toEqual({
      user_id: annRow.id,
      api_key: null,
      route: '/api/profile/api-key/rotate/',
      method: 'POST',
    });
    // failed calls change nothing and are not entries
    const before = rows.length;
    expect((await withKey(fresh, 'POST', '/api/videos/placements/', { color: 'red' })).statusCode).toBe(400);
    expect((await s.ctx.db.query('SELECT id FROM audit_log')).length).toBe(before);
  });
});
