import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { acquireDirLock, type DirLock } from './dir-lock.ts';

/** Anything that runs a parameterised query: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs fn while holding a database-wide lock (a session advisory lock on PostgreSQL), so that
   * servers starting at the same time run their start-up steps one after the other.
   */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** pg-boss's `db` option: the same connection for the job queue. */
  bossAdapter(): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database in `dataDir/db` is used. */
  url?: string;
  dataDir: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

// int8 (bigserial ids, counts) as JS numbers: ids stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  constructor(private readonly pool: pg.Pool) {}

  async query<T>(text: string, params?: unknown[]): Promise<T[]> {
    const r = await this.pool.query(text, params as unknown[]);
    return r.rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const tx: Queryable = {
        query: async <R>(text: string, params?: unknown[]) =>
          (await client.query(text, params as unknown[])).rows as R[],
        exec: async (sql: string) => {
          await client.query(sql);
        },
      };
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async withLock<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [key]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    } finally {
      client.release();
    }
  }

  bossAdapter() {
    return null; // pg-boss opens its own pool from the same URL
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

class EmbeddedDatabase implements Database {
  readonly kind = 'pglite' as const;
  constructor(
    private readonly db: PGlite,
    private readonly lock: DirLock,
  ) {}

  async query<T>(text: string, params?: unknown[]): Promise<T[]> {
    const r = await this.db.query<T>(text, params as unknown[]);
    return r.rows;
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (t) =>
      fn({
        query: async <R>(text: string, params?: unknown[]) => (await t.query<R>(text, params)).rows,
        exec: async (sql: string) => {
          await t.exec(sql);
        },
      }),
    );
  }

  async withLock<T>(_key: number, fn: () => Promise<T>): Promise<T> {
    return fn(); // one process owns the embedded database (the lock file)
  }

  bossAdapter() {
    return {
      executeSql: async (text: string, values?: unknown[]) => {
        // pg-boss sends multi-statement scripts without values: PGlite runs those through exec().
        if (values && values.length > 0) return { rows: (await this.db.query(text, values)).rows };
        const results = await this.db.exec(text);
        return { rows: results.length > 0 ? results[results.length - 1].rows : [] };
      },
    };
  }

  async close(): Promise<void> {
    await this.db.close();
    this.lock.release();
  }
}

/** Opens PostgreSQL (url given) or the embedded PGlite database (inside dataDir, guarded by a lock file). */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    if (!/^postgres(ql)?:\/\//.test(opts.url)) {
      throw new Error(`DATABASE_URL must start with postgres:// (got '${opts.url.split(':')[0]}:')`);
    }
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    pool.on('error', () => undefined); // an idle client's error must not crash the process
    await pool.query('SELECT 1');
    return new PostgresDatabase(pool);
  }
  mkdirSync(opts.dataDir, { recursive: true });
  const lock = acquireDirLock(opts.dataDir);
  try {
    const db = await PGlite.create(path.join(opts.dataDir, 'db'), { extensions: { btree_gist } });
    return new EmbeddedDatabase(db, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}
