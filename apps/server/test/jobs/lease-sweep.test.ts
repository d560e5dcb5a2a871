import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '@logo-review/contract';
import { startTestServer, TEST_DB, type TestServer } from '../harness.ts';

/**
 * The lease sweep (jobs/queue.ts) on this database: pg-boss marks a job active when a worker
 * fetches it, and the worker writes the job's lease row a moment later. A worker killed in that
 * moment leaves an active job with no lease; the sweep must give it back to the queue once it has
 * been active for a lease period, and touch neither a job just taken nor one whose lease is kept.
 * (An API process runs no jobs, so nothing here is taken by a worker meanwhile.)
 */
describe(`the job lease sweep (${TEST_DB})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ role: 'api', jobLeaseSeconds: 6 });
  });
  afterAll(() => server?.close());

  it('gives back a job taken by a worker that died before it wrote the lease, and only that one', async () => {
    const { db, jobs } = server.ctx;
    const send = async (videoId: number) =>
      (await jobs.send(JOBS.analyzeChunk, { organizationId: 1, videoId, requestHash: 'h', chunk: 0 }))!;
    const orphan = await send(1); // taken a minute ago, no lease: its worker died at once
    const fresh = await send(2); // taken just now, its lease not written yet
    const leased = await send(3); // taken a minute ago, its lease renewed just now
    const taken = (id: string, ago: number) =>
      db.query(
        `UPDATE pgboss.job SET state = 'active', started_on = now() - make_interval(secs => $2)
         WHERE id = $1`,
        [id, ago],
      );
    await taken(orphan, 60);
    await taken(fresh, 0);
    await taken(leased, 60);
    await db.query('INSERT INTO job_leases (job_id, queue, owner) VALUES ($1, $2, $3)', [
      leased,
      JOBS.analyzeChunk,
      'a-live-worker',
    ]);

    expect(await jobs.sweep()).toBe(1);
    const state = async (id: string) =>
      (await db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id]))[0].state;
    expect(await state(orphan)).toBe('retry');
    expect(await state(fresh)).toBe('active');
    expect(await state(leased)).toBe('active');
    // Nothing more to give back: a second sweep finds nothing.
    expect(await jobs.sweep()).toBe(0);
  });
});
