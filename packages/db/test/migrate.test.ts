import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../src/index.ts';

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

describe('brand names unique per organization (008)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every brand of a database that holds duplicates, renaming the later ones, and refuses new ones', async () => {
    const db = await openDatabase({ dataDir: dir });
    await migrate(db, { before: '008' });
    const [a] = await db.query<{ id: number }>(
      "INSERT INTO organizations(name, api_key) VALUES ('A', 'ka') RETURNING id",
    );
    const [b] = await db.query<{ id: number }>(
      "INSERT INTO organizations(name, api_key) VALUES ('B', 'kb') RETURNING id",
    );
    for (const [org, name] of [
      [a.id, 'Inter'],
      [a.id, 'inter '],
      [a.id, 'INTER'],
      [a.id, 'Milan'],
      [b.id, 'Inter'],
    ] as const)
      await db.query('INSERT INTO brands(organization_id, name) VALUES ($1, $2)', [org, name]);
    expect(await migrate(db)).toContain('008_brand_unique_name.sql');
    const rows = await db.query<{ id: number; organization_id: number; name: string }>(
      'SELECT id, organization_id, name FROM brands ORDER BY id',
    );
    expect(rows.map((r) => r.name)).toEqual([
      'Inter',
      `inter (#${rows[1].id})`,
      `INTER (#${rows[2].id})`,
      'Milan',
      'Inter',
    ]);
    await expect(
      db.query('INSERT INTO brands(organization_id, name) VALUES ($1, $2)', [a.id, ' milan']),
    ).rejects.toThrow(/unique|duplicate/i);
    await db.close();
  });
});

describe('API keys stored hashed (009)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes existing plaintext keys (they keep working) and drops the plaintext', async () => {
    const db = await openDatabase({ dataDir: dir });
    await migrate(db, { before: '009' });
    const key = 'a'.repeat(44) + '3f9a';
    await db.query("INSERT INTO organizations(name, api_key) VALUES ('A', $1)", [key]);
    expect(await migrate(db)).toContain('009_api_keys.sql');
    const [org] = await db.query<Record<string, unknown>>('SELECT * FROM organizations');
    expect(org.api_key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(org.api_key_hint).toBe('3f9a');
    expect(JSON.stringify(org)).not.toContain(key);
    await db.close();
  });
});

/** Migration 011 on data written before it, on the database that `open` gives. */
async function reviewLoopOnOldData(db: Database): Promise<void> {
  await migrate(db, { before: '011' });
  {
    const [org] = await db.query<{ id: number }>(
      "INSERT INTO organizations(name, api_key_hash, api_key_hint) VALUES ('A', 'h', 'x') RETURNING id",
    );
    const [video] = await db.query<{ id: number }>(
      "INSERT INTO videos(organization_id, name, file_name, stored_path) VALUES ($1, 'V', 'v.mp4', 'v') RETURNING id",
      [org.id],
    );
    const [brand] = await db.query<{ id: number }>(
      "INSERT INTO brands(organization_id, name) VALUES ($1, 'B') RETURNING id",
      [org.id],
    );
    const [pl] = await db.query<{ id: number }>(
      "INSERT INTO placements(organization_id, localized_name) VALUES ($1, 'P') RETURNING id",
      [org.id],
    );
    const old = [
      ['manual', 'TRUE_POSITIVE'],
      ['manual', 'FALSE_POSITIVE'],
      ['engine', 'TRUE_POSITIVE'],
      ['engine', 'UNREVIEWED'],
      ['engine', 'FALSE_POSITIVE'],
    ];
    for (const [source, review] of old)
      await db.query(
        `INSERT INTO detections(organization_id, video_id, brand_id, placement_id, auto_placement_id,
           time_begin, time_end, coordinates, review, source) VALUES ($1, $2, $3, $4, $4, 0, 1, '[]', $5, $6)`,
        [org.id, video.id, brand.id, pl.id, review, source],
      );
    expect(await migrate(db)).toContain('011_review_loop.sql');
    const rows = await db.query<{ review: string; reviewed_by: number | null; reviewed_at: Date | null }>(
      'SELECT review, reviewed_by, reviewed_at FROM detections ORDER BY id',
    );
    expect(rows.map((r) => r.review)).toEqual([
      'MANUAL',
      'FALSE_POSITIVE',
      'TRUE_POSITIVE',
      'UNREVIEWED',
      'FALSE_POSITIVE',
    ]);
    expect(rows.every((r) => r.reviewed_by === null && r.reviewed_at === null)).toBe(true);
    await expect(db.query("UPDATE detections SET review = 'MAYBE'")).rejects.toThrow(/check/i);
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM detection_history');
    expect(n).toBe(0);
  }
}

describe('review loop (011)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'db-test-'));
  const name = `lr_migrate_011_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  });

  it('PGlite: makes hand-drawn true positives MANUAL, keeps every other state, refuses unknown states', async () => {
    const db = await openDatabase({ dataDir: dir });
    await reviewLoopOnOldData(db);
    await db.close();
  });

  it('PostgreSQL: the same', async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const db = await openDatabase({ url: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), dataDir: '' });
    await reviewLoopOnOldData(db);
    await db.close();
  });
});
