import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { JOBS, type JobName, type JobPayloads } from '@logo-review/contract';
import type { Database } from '@logo-review/db';

export interface JobInfo {
  id: string;
  /** True on the last try: a failure now is final. */
  lastAttempt: boolean;
}
export type JobHandler<N extends JobName> = (data: JobPayloads[N], job: JobInfo) => Promise<void>;
/** Runs when a job has failed for the last time (its handler threw, or its process died). */
export type FinalFailure<N extends JobName> = (data: JobPayloads[N], err: Error) => Promise<void>;

export interface JobQueueOptions {
  db: Database;
  databaseUrl?: string;
  /** pg-boss's expiry: the last resort for a job that never got a lease row. */
  expireSeconds: number;
  /** A running job's lease is renewed every third of this; one this old belongs to a dead process. */
  leaseSeconds: number;
}

/**
 * The job queue: pg-boss on the same database (PostgreSQL, or PGlite through pg-boss's `db`
 * option). Jobs are retried with backoff.
 *
 * Recovery does not wait for pg-boss's expiry (an hour by default, since a whole match takes long):
 * each running job has a row in `job_leases` that its process renews every third of the lease. Every
 * working process sweeps for leases older than one period and fails those jobs back to the queue,
 * which retries them within seconds; a video is thus taken up again within about two lease periods
 * after its worker died. On the embedded database no other process can be running, so at start-up
 * every job left running is failed back at once.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  /** This process, as the owner of the leases of the jobs it runs. */
  readonly instance = randomUUID();
  private readonly finalFailures = new Map<string, (data: unknown, err: Error) => Promise<void>>();
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly opts: JobQueueOptions) {
    const adapter = opts.db.bossAdapter();
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

  /**
   * On the embedded database (this process's alone): fails back every job that a previous process
   * left running, so it runs again now. Call before `work`.
   */
  async recoverAfterRestart(): Promise<number> {
    const { db } = this.opts;
    if (db.kind !== 'pglite') return 0;
    const left = await db.query<{ id: string; name: string }>(
      "SELECT id, name FROM pgboss.job WHERE state = 'active'",
    );
    await db.query('DELETE FROM job_leases');
    await this.failBack(left, 'the server stopped while this job ran');
    return left.length;
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

  /**
   * Runs `handler` on up to `concurrency` jobs of this queue at once, each under a lease. When the
   * last try fails (the handler throws, or its process dies), `onFinalFailure` records it.
   */
  async work<N extends JobName>(
    name: N,
    concurrency: number,
    handler: JobHandler<N>,
    onFinalFailure?: FinalFailure<N>,
  ): Promise<void> {
    if (onFinalFailure)
      this.finalFailures.set(name, onFinalFailure as (data: unknown, err: Error) => Promise<void>);
    this.startLeases();
    const { db } = this.opts;
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<JobPayloads[N]>(
        name,
        { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) {
            await db.query(
              `INSERT INTO job_leases (job_id, queue, owner) VALUES ($1, $2, $3)
               ON CONFLICT (job_id) DO UPDATE SET owner = EXCLUDED.owner, beat = now()`,
              [job.id, name, this.instance],
            );
            const lastAttempt = job.retryCount >= job.retryLimit;
            try {
              await handler(job.data, { id: job.id, lastAttempt });
            } catch (err) {
              if (lastAttempt && onFinalFailure) await onFinalFailure(job.data, err as Error);
              throw err;
            } finally {
              await db
                .query('DELETE FROM job_leases WHERE job_id = $1 AND owner = $2', [job.id, this.instance])
                .catch(() => undefined);
            }
          }
        },
      );
    }
  }

  /** Beats for this process's jobs, and sweeps for jobs of dead processes. */
  private startLeases(): void {
    if (this.timers.length) return;
    const { db, leaseSeconds } = this.opts;
    const beat = setInterval(
      () => {
        db.query('UPDATE job_leases SET beat = now() WHERE owner = $1', [this.instance]).catch((err) =>
          console.error('job lease renewal failed:', (err as Error).message),
        );
      },
      (leaseSeconds * 1000) / 3,
    );
    const sweep = setInterval(
      () => {
        this.sweep().catch((err) => console.error('job lease sweep failed:', (err as Error).message));
      },
      (leaseSeconds * 1000) / 2,
    );
    this.timers = [beat, sweep];
    for (const t of this.timers) t.unref();
  }

  /** Fails back the jobs whose process stopped renewing their lease; returns how many. */
  async sweep(): Promise<number> {
    const dead = await this.opts.db.query<{ id: string; name: string }>(
      `DELETE FROM job_leases WHERE beat < now() - make_interval(secs => $1)
       RETURNING job_id AS id, queue AS name`,
      [this.opts.leaseSeconds],
    );
    await this.failBack(dead, 'the worker running this job stopped');
    return dead.length;
  }

  /** Fails jobs so that pg-boss retries them; those out of retries get their final-failure record. */
  private async failBack(jobs: { id: string; name: string }[], message: string): Promise<void> {
    if (jobs.length === 0) return;
    const byQueue = new Map<string, string[]>();
    for (const j of jobs) byQueue.set(j.name, [...(byQueue.get(j.name) ?? []), j.id]);
    for (const [name, ids] of byQueue) {
      console.warn(`job queue: ${ids.length} ${name} job(s) run again: ${message}`);
      for (const id of ids) await this.boss.fail(name, id, { message });
    }
    const final = await this.opts.db.query<{ name: string; data: unknown }>(
      "SELECT name, data FROM pgboss.job WHERE id = ANY($1::uuid[]) AND state = 'failed'",
      [jobs.map((j) => j.id)],
    );
    for (const f of final) await this.finalFailures.get(f.name)?.(f.data, new Error(message));
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.boss.stop({ graceful: true, close: true, wait: true, timeout: 10_000 });
    await this.opts.db
      .query('DELETE FROM job_leases WHERE owner = $1', [this.instance])
      .catch(() => undefined);
  }
}
