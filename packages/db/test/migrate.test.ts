import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/index.ts';

const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('embedded database', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates once and refuses a second opener while held', async () => {
    const db = await openDatabase({ dataDir: dir });
    expect((await migrate(db)).length).toBeGreaterThan(0);
    expect(await migrate(db)).toEqual([]);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by process/);
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    expect(row.n).toBe(0);
    await db.close();
    const again = await openDatabase({ dataDir: dir });
    expect(await migrate(again)).toEqual([]);
    await again.close();
  });
});

describe('PostgreSQL', () => {
  const name = `lr_migrate_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  });

  it('two servers migrating at once apply each migration exactly once', async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
    const [a, b] = await Promise.all([
      openDatabase({ url, dataDir: '' }),
      openDatabase({ url, dataDir: '' }),
    ]);
    const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
    expect([...ra, ...rb].sort()).toEqual([...new Set([...ra, ...rb])].sort());
    expect(ra.length + rb.length).toBeGreaterThan(0);
    const rows = await a.query<{ name: string }>('SELECT name FROM schema_migrations');
    expect(rows.length).toBe(ra.length + rb.length);
    await Promise.all([a.close(), b.close()]);
  });
});
