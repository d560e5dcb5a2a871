import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { JOBS, type JobName, type JobPayloads } from '@logo-review/contract';
import type { Database } from '@logo-review/db';
import type { Metrics, QueueCounts } from '../ops/metrics.ts';
import { currentRequestId, withRequestId } from '../ops/request-id.ts';

export interface JobInfo {
  id: string;
  /** True on the last try: a failure now is final. */
  lastAttempt: boolean;
  /**
   * Aborted when a shutdown's grace period ends with the job still running: the handler stops its
   * work, lets go of what it holds (a video's analysis lease) and throws; the job runs again.
   */
  signal: AbortSignal;
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
  metrics: Metrics;
  /** Where a job's completion line goes (failures and releases go to console.warn). */
  log?: (line: string) => void;
}

/** After the grace period, jobs get this long to stop and hand themselves back before pg-boss fails them. */
const RELEASE_MS = 10_000;

/** A job sent during a request carries that request's id, for the worker's log lines. */
type Tagged = { requestId?: unknown };
const requestIdIn = (data: unknown): string | undefined => {
  const id = (data as Tagged | null)?.requestId;
  return typeof id === 'string' ? id : undefined;
};

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
  /** Aborted at the end of a shutdown's grace period (see JobInfo.signal). */
  private readonly shutdown = new AbortController();
  private stopping = false;
  /** The jobs this process runs now, by id, as named in log lines. */
  private readonly running = new Map<string, string>();

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
    const requestId = currentRequestId();
    return this.boss.send(
      name,
      requestId ? { ...data, requestId } : (data as object),
      opts.startAfterSeconds ? { startAfter: opts.startAfterSeconds } : {},
    );
  }

  /** Jobs waiting and running per kind (pg-boss's queue sizes), for the metrics. */
  async counts(): Promise<QueueCounts[]> {
    return Promise.all(
      Object.values(JOBS).map(async (kind) => {
        const waiting = await this.boss.getQueueSize(kind); // created or waiting to retry
        const started = await this.boss.getQueueSize(kind, { before: 'completed' });
        return { kind, waiting, active: Math.max(0, started - waiting) };
      }),
    );
  }

  /** Resolves when the queue answers (through pg-boss's own connection). */
  async ping(): Promise<void> {
    await this.boss.getQueueSize(JOBS.analyzeVideo);
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
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<JobPayloads[N]>(
        name,
        { batchSize: 1, pollingIntervalSeconds: 1, includeMetadata: true },
        async (jobs) => {
          for (const job of jobs) await this.run(name, job, handler, onFinalFailure);
        },
      );
    }
  }

  /**
   * Runs one job under its lease and settles it here: completed, failed (pg-boss retries it), or
   * released at shutdown (a fresh copy is queued, so no try is used up). pg-boss 10 does not await
   * its own completion write after a handler returns; writing it here means a shutdown right
   * after a job cannot close the database under it. pg-boss's own write then finds the job no
   * longer active and changes nothing.
   */
  private async run<N extends JobName>(
    name: N,
    job: PgBoss.JobWithMetadata<JobPayloads[N]>,
    handler: JobHandler<N>,
    onFinalFailure: FinalFailure<N> | undefined,
  ): Promise<void> {
    const { db, metrics } = this.opts;
    const requestId = requestIdIn(job.data);
    const label = `job ${name} ${job.id}${requestId ? ` (request ${requestId})` : ''}`;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const lastAttempt = job.retryCount >= job.retryLimit;
    this.running.set(job.id, label);
    // A job fetched just as the shutdown began is handed back at once rather than started.
    let began = false;
    const release = () => this.stopping && (!began || this.shutdown.signal.aborted);
    try {
      if (this.stopping) throw new Error('the worker is shutting down');
      began = true;
      await db.query(
        `INSERT INTO job_leases (job_id, queue, owner) VALUES ($1, $2, $3)
         ON CONFLICT (job_id) DO UPDATE SET owner = EXCLUDED.owner, beat = now()`,
        [job.id, name, this.instance],
      );
      await withRequestId(requestId, () =>
        handler(job.data, { id: job.id, lastAttempt, signal: this.shutdown.signal }),
      );
      await this.boss.complete(name, job.id);
      metrics.jobRun(name, 'completed', seconds());
      (this.opts.log ?? console.log)(`${label} completed in ${seconds().toFixed(1)} s`);
    } catch (err) {
      if (release()) {
        await this.boss.send(name, job.data as object);
        await this.boss.complete(name, job.id);
        metrics.jobRun(name, 'released', seconds());
        console.warn(`${label} released at shutdown after ${seconds().toFixed(1)} s: queued to run again`);
        return;
      }
      metrics.jobRun(name, 'failed', seconds());
      metrics.jobFailed(name, lastAttempt);
      console.warn(
        `${label} failed after ${seconds().toFixed(1)} s${lastAttempt ? ' (its last try)' : ''}: ${(err as Error).message}`,
      );
      if (lastAttempt && onFinalFailure) await onFinalFailure(job.data, err as Error);
      await this.boss.fail(name, job.id, err as object);
    } finally {
      this.running.delete(job.id);
      await db
        .query('DELETE FROM job_leases WHERE job_id = $1 AND owner = $2', [job.id, this.instance])
        .catch(() => undefined);
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

  /**
   * Fails back the jobs whose process stopped renewing their lease, and the jobs that a process
   * took from the queue but died before it wrote their lease (pg-boss marks a job active when it
   * fetches it; the lease row follows a moment later): active for over a lease period with no
   * lease row, such a job would otherwise wait for pg-boss's expiry (an hour). Returns how many.
   */
  async sweep(): Promise<number> {
    const { db, leaseSeconds } = this.opts;
    const dead = await db.query<{ id: string; name: string }>(
      `DELETE FROM job_leases WHERE beat < now() - make_interval(secs => $1)
       RETURNING job_id AS id, queue AS name`,
      [leaseSeconds],
    );
    await this.failBack(dead, 'the worker running this job stopped');
    const unleased = await db.query<{ id: string; name: string }>(
      `SELECT j.id, j.name FROM pgboss.job j
       WHERE j.state = 'active' AND j.name = ANY($2::text[])
         AND j.started_on < now() - make_interval(secs => $1)
         AND NOT EXISTS (SELECT 1 FROM job_leases l WHERE l.job_id = j.id)`,
      [leaseSeconds, Object.values(JOBS)],
    );
    await this.failBack(unleased, 'the worker that took this job stopped before it began');
    return dead.length + unleased.length;
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
    const final = await this.opts.db.query<{ id: string; name: string; data: unknown }>(
      "SELECT id, name, data FROM pgboss.job WHERE id = ANY($1::uuid[]) AND state = 'failed'",
      [jobs.map((j) => j.id)],
    );
    for (const j of jobs)
      this.opts.metrics.jobFailed(
        j.name,
        final.some((f) => f.id === j.id),
      );
    for (const f of final) await this.finalFailures.get(f.name)?.(f.data, new Error(message));
  }

  /**
   * Stops working jobs and closes the queue: no job is taken any more, the running ones get
   * `graceMs` to finish, then their signal asks them to stop and they are queued again (a job that
   * does not stop within RELEASE_MS more is failed back by pg-boss, which uses up one of its tries).
   * Leases are renewed until the end, so no other worker takes a job that is still finishing here.
   */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    const release = setTimeout(() => {
      for (const label of this.running.values())
        console.warn(`${label} still running after the ${graceMs / 1000} s grace period: releasing it`);
      this.shutdown.abort(new Error('the worker is shutting down'));
    }, graceMs);
    try {
      // pg-boss stops fetching, waits while its workers have a job in hand, then fails back any left.
      await this.boss.stop({ graceful: true, close: true, wait: true, timeout: graceMs + RELEASE_MS });
    } finally {
      clearTimeout(release);
      for (const t of this.timers) clearInterval(t);
      this.timers = [];
    }
    await this.opts.db
      .query('DELETE FROM job_leases WHERE owner = $1', [this.instance])
      .catch(() => undefined);
  }
}
