import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB } from './harness.ts';
import { freePort, killAll, login, PG_ADMIN_URL, ROOT, startServer } from './process-harness.ts';

const dirs: string[] = [];
let dbName: string | undefined;

function admin(args: string[], env: Record<string, string>) {
  return spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

afterAll(async () => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  if (dbName) {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
});

// Each mode's test runs in that mode's pass (npm test runs the server's tests on both databases).
describe.runIf(TEST_DB === 'pglite')('the start command on the embedded database', () => {
  it('creates the first user with a printed password, guards the database, and the admin command works after', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-main-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const { child, output } = await startServer(env);
    const password = /with password: (\S+)/.exec(output())?.[1];
    expect(password).toBeTruthy();
    expect((await login(port, 'admin', password!)).status).toBe(200);
    const page = await fetch(`http://127.0.0.1:${port}/videos`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);

    const refused = admin(
      ['create-user', '--organization', 'Org', '--username', 'bob', '--password', 'bob-password'],
      env,
    );
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/in use by process \d+/);

    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const created = admin(
      [
        'create-user',
        '--organization',
        'Org B',
        '--username',
        'bob',
        '--password',
        'bob-password',
        '--first-name',
        'Bob',
        '--email',
        'b@x.io',
      ],
      env,
    );
    // the new organization's API key is shown this once (stored hashed), on stderr beside the id
    const key = /^created organization 'Org B'; its API key, shown only now: (lr_[0-9a-f]{48})\n$/.exec(
      created.stderr,
    );
    expect(key, created.stderr).not.toBeNull();
    expect(created.stdout.trim()).toMatch(/^\d+$/);
    const changed = admin(['set-password', '--username', 'bob', '--password', 'new-password'], env);
    expect(changed.status).toBe(0);
    const unknown = admin(['set-password', '--username', 'nobody', '--password', 'new-password'], env);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toMatch(/No user named 'nobody'/);
    const usage = admin(['create-user', '--username', 'x'], env);
    expect(usage.stderr).toMatch(/--organization is required/);

    const again = await startServer({ ...env, PORT: String(await freePort()) });
    const port2 = again.port;
    expect(again.output()).not.toMatch(/with password/);
    const r = await login(port2, 'bob', 'new-password');
    expect(r.status).toBe(200);
    expect((await r.json()).organization.name).toBe('Org B');
    again.child.kill('SIGTERM');
  });
});

describe.runIf(TEST_DB === 'postgres')('several servers on one PostgreSQL database', () => {
  it('two servers starting at once migrate once and create one first user', async () => {
    dbName = `lr_main_${process.pid}`;
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${dbName}`);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lr-main-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, DATABASE_URL: url, ADMIN_PASSWORD: 'first-password' };
    const [a, b] = await Promise.all([
      startServer({ ...env, PORT: String(await freePort()) }),
      startServer({ ...env, PORT: String(await freePort()), ROLE: 'api' }),
    ]);
    const check = new pg.Client({ connectionString: url });
    await check.connect();
    const users = await check.query('SELECT username FROM users');
    const migrations = await check.query('SELECT name FROM schema_migrations');
    await check.end();
    expect(users.rows).toEqual([{ username: 'admin' }]);
    expect(new Set(migrations.rows.map((r) => r.name)).size).toBe(migrations.rows.length);
    expect((await login(b.port, 'admin', 'first-password')).status).toBe(200);
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
  });
});
