import PgBoss from 'pg-boss';
import { JOBS, type JobName, type JobPayloads } from '@logo-review/contract';
import type { Database } from '@logo-review/db';

export interface JobInfo {
  id: string;
  /** True on the last try: a failure now is final. */
  lastAttempt: boolean;
}
export type JobHandler<N extends JobName> = (data: JobPayloads[N], job: JobInfo) => Promise<void>;

export interface JobQueueOptions {
  db: Database;
  databaseUrl?: string;
  expireSeconds: number;
}

/**
 * The job queue: pg-boss on the same database (PostgreSQL, or PGlite through pg-boss's `db`
 * option). Jobs are retried with backoff; a job whose worker died expires and runs again.
 */
export class JobQueue {
  private readonly boss: PgBoss;

  constructor(private readonly opts: JobQueueOptions) {
    const adapter = opts.db.bossAdapter();
    // Expired jobs (their worker died) are found by pg-boss's maintenance: run it often enough.
    const maintenanceIntervalSeconds = Math.max(1, Math.min(120, Math.floor(opts.expireSeconds / 2)));
    this.boss = adapter
      ? new PgBoss({
          db: adapter,
          schema: 'pgboss',
          supervise: true,
          migrate: true,
          maintenanceIntervalSeconds,
        })
      : new PgBoss({
          connectionString: opts.databaseUrl,
          schema: 'pgboss',
          max: 4,
          maintenanceIntervalSeconds,
        });
    this.boss.on('error', (err) => console.error('job queue error:', err.message));
  }

  async start(): Promise<void> {
    await this.boss.start();
    for (const name of Object.values(JOBS)) {
      // createQueue is idempotent; the options apply to jobs sent afterwards.
      await this.boss.createQueue(name, {
        name,
        retryLimit: 3,
        retryDelay: 5,
        retryBackoff: true,
        expireInSeconds: this.opts.expireSeconds,
      });
    }
  }

  async send<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    opts: { startAfterSeconds?: number } = {},
  ): Promise<string | null> {
    return this.boss.send(
      name,
      data as object,
      opts.startAfterSeconds ? { startAfter: opts.startAfterSeconds } : {},
    );
  }

  async work<N extends JobName>(name: N, concurrency: number, handler: JobHandler<N>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<JobPayloads[N]>(
        name,
        { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) {
            await handler(job.data, { id: job.id, lastAttempt: job.retryCount >= job.retryLimit });
          }
        },
      );
    }
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: true, wait: true, timeout: 10_000 });
  }
}
