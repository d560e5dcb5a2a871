import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** Failed logins allowed per (username, address) before 429 (see LoginLimiter). */
const PAIR_LIMIT = 10;

const attempt = (s: TestServer, peer: string, forwardedFor?: string, username = 'target') =>
  s.app.inject({
    method: 'POST',
    url: '/api/profile/login/',
    payload: { username, password: 'wrong guess' },
    remoteAddress: peer,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

describe('TRUST_PROXY', () => {
  it('is off by default, takes a list of addresses and CIDRs, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });
});

describe('login throttling behind no trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.user('Acme', 'target');
  });
  afterAll(() => s.close());

  it('counts the connection, not a made-up X-Forwarded-For: spoofing the header does not reset the count', async () => {
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect((await attempt(s, '203.0.113.7', `198.51.100.${i}`)).statusCode).toBe(400);
    for (let i = 0; i < 30; i++) {
      const r = await attempt(s, '203.0.113.7', `198.51.100.${100 + i}`);
      expect(r.statusCode).toBe(429);
    }
  });
});

describe('login throttling behind a trusted proxy', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ trustProxy: ['10.1.0.0/16'] });
    await s.user('Acme', 'target');
  });
  afterAll(() => s.close());

  it('counts the client that the trusted proxy names, and ignores the header from any other peer', async () => {
    // through the proxy: each client has its own count
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect((await attempt(s, '10.1.2.3', '198.51.100.1')).statusCode).toBe(400);
    const pair = await attempt(s, '10.1.2.3', '198.51.100.1');
    expect(pair.statusCode).toBe(429);
    expect(pair.json().detail).toMatch(/Too many login attempts/);
    // another client of the proxy has its own count; the account itself is slowed for everyone
    expect((await attempt(s, '10.1.2.3', '198.51.100.2', 'other')).statusCode).toBe(400);
    const account = await attempt(s, '10.1.2.3', '198.51.100.2');
    expect(account.statusCode).toBe(429);
    expect(account.json().detail).toMatch(/for this account/);
    // a peer that is not the proxy cannot name a client
    for (let i = 0; i < PAIR_LIMIT; i++)
      expect((await attempt(s, '203.0.113.9', `198.51.100.${50 + i}`, 'third')).statusCode).toBe(400);
    const spoofed = await attempt(s, '203.0.113.9', '198.51.100.99', 'third');
    expect(spoofed.statusCode).toBe(429);
    expect(spoofed.json().detail).toMatch(/Too many login attempts/);
  });
});
