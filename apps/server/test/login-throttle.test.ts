import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delaySeconds, FREE_FAILURES, MAX_DELAY_SECONDS } from '../src/auth/account-throttle.ts';
import { startTestServer, type TestServer } from './harness.ts';

const login = (s: TestServer, username: string, password: string, address: string) =>
  s.app.inject({
    method: 'POST',
    url: '/api/profile/login/',
    payload: { username, password },
    remoteAddress: address,
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the per-account slowdown', () => {
  it('waits nothing for the first failures, then doubles from 1 s up to 15 minutes', () => {
    expect(FREE_FAILURES).toBe(10);
    expect([0, 9, 10, 11, 12, 19, 20, 50].map(delaySeconds)).toEqual([0, 0, 1, 2, 4, 512, 900, 900]);
    expect(MAX_DELAY_SECONDS).toBe(900);
  });
});

describe('login throttling per account, from many addresses', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.user('Acme', 'victim'); // logs in from 127.0.0.1: an address the user is known at
  });
  afterAll(() => s.close());

  it('slows guessing one account from a new address each time, and says how long to wait', async () => {
    for (let i = 0; i < FREE_FAILURES; i++)
      expect((await login(s, 'victim', `guess ${i}`, `198.51.100.${i}`)).statusCode).toBe(400);
    const slowed = await login(s, 'victim', 'guess x', '198.51.100.200');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json().detail).toBe('Too many failed logins for this account. Try again in 1 second.');
    // Even the right password is not checked while the account is slowed, from an unknown address.
    expect((await login(s, 'victim', 'victim-password', '198.51.100.201')).statusCode).toBe(429);
    await sleep(1100);
    expect((await login(s, 'victim', 'guess y', '198.51.100.202')).statusCode).toBe(400);
    const longer = await login(s, 'victim', 'guess z', '198.51.100.203');
    expect(longer.statusCode).toBe(429);
    expect(longer.headers['retry-after']).toBe('2');
  });

  it('never keeps the real user out: the right password works from an address the user logged in from', async () => {
    const blocked = await login(s, 'victim', 'victim-password', '198.51.100.204');
    expect(blocked.statusCode).toBe(429);
    const ok = await login(s, 'victim', 'victim-password', '127.0.0.1');
    expect(ok.statusCode).toBe(200);
    // and that success clears the count: a new address is not slowed any more
    expect((await login(s, 'victim', 'victim-password', '198.51.100.205')).statusCode).toBe(200);
  });

  it('slows names that match no user the same way, so a refusal tells nothing about which accounts exist', async () => {
    for (let i = 0; i < FREE_FAILURES; i++)
      expect((await login(s, 'ghost', 'guess', `203.0.113.${i}`)).statusCode).toBe(400);
    const slowed = await login(s, 'ghost', 'guess', '203.0.113.100');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().detail).toBe('Too many failed logins for this account. Try again in 1 second.');
  });

  it('counts in the database, so every API process sees the same failures', async () => {
    const rows = await s.ctx.db.query<{ failures: number }>(
      'SELECT failures FROM login_failures WHERE username = $1',
      ['ghost'],
    );
    expect(rows).toEqual([{ failures: FREE_FAILURES }]);
  });
});
