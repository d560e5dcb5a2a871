import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { inject } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { closeContext, createContext } from '../src/server.ts';
import { createUser } from '../src/services/accounts.service.ts';
import { smallVideo } from './fixtures.ts';

/** Which database the integration tests run on: TEST_DB=postgres (the local server) or pglite (default). */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  /** Logs in (creating the user and organization when needed) and returns a caller. */
  user(org: string, username: string): Promise<Client>;
  close(): Promise<void>;
}

export interface Client {
  token: string;
  req(opts: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  del(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

let counter = 0;

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-test-'));
  let databaseUrl: string | undefined;
  let dbName: string | undefined;
  if (TEST_DB === 'postgres') {
    dbName = `lr_test_${process.pid}_${++counter}_${Date.now() % 100000}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
  } else {
    cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
  }
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl,
    adminPassword: 'admin-password-1',
    // What closing a test server waited for a running job before this setting existed.
    shutdownGraceSeconds: 10,
    ...overrides,
  };
  const ctx = await createContext(config, () => undefined);
  const app = await buildApp(ctx);
  await app.ready();
  const clients = new Map<string, Client>();

  const client = (token: string): Client => {
    const req = (opts: InjectOptions) =>
      app.inject({ ...opts, headers: { authorization: `Token ${token}`, ...(opts.headers ?? {}) } });
    return {
      token,
      req,
      get: (url) => req({ method: 'GET', url }),
      post: (url, payload) => req({ method: 'POST', url, payload: payload as InjectOptions['payload'] }),
      put: (url, payload) => req({ method: 'PUT', url, payload: payload as InjectOptions['payload'] }),
      del: (url, payload) => req({ method: 'DELETE', url, payload: payload as InjectOptions['payload'] }),
      patch: (url, payload) => req({ method: 'PATCH', url, payload: payload as InjectOptions['payload'] }),
    };
  };

  return {
    app,
    ctx,
    dataDir,
    async user(org, username) {
      const key = `${org}/${username}`;
      const existing = clients.get(key);
      if (existing) return existing;
      await createUser(ctx.db, {
        organization: org,
        username,
        password: `${username}-password`,
        firstName: username,
      });
      const r = await app.inject({
        method: 'POST',
        url: '/api/profile/login/',
        payload: { username, password: `${username}-password` },
      });
      if (r.statusCode !== 200) throw new Error(`login failed: ${r.body}`);
      const c = client(r.json().token);
      clients.set(key, c);
      return c;
    },
    async close() {
      await app.close();
      await closeContext(ctx);
      rmSync(dataDir, { recursive: true, force: true });
      if (dbName) {
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

/** Polls until fn returns a truthy value (jobs run in the background). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A multipart body for inject. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; name: string; data: Buffer; type?: string }[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----lrtest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads the small test video under `name` through the API and returns its id. */
export async function uploadSmallVideo(c: Client, name = 'V'): Promise<number> {
  const res = await c.req({
    method: 'POST',
    url: '/api/videos/create/',
    ...multipart({ name }, [{ field: 'videoFile', name: 'v.mp4', data: smallVideo() }]),
  });
  return res.json().id;
}
