import { JOBS } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import type { JobHandler } from './queue.ts';
import type { JobName, JobPayloads } from '@logo-review/contract';
import { analyzeVideoFailed, analyzeVideoJob } from './analyze-video.job.ts';
import { activateBrandJob } from './activate-brand.job.ts';
import { renderVerificationFailed, renderVerificationJob } from './render-verification.job.ts';

/** A handler that, when its last retry fails too, records the failure (status and reason) first. */
function withFinalFailure<N extends JobName>(
  run: (data: JobPayloads[N]) => Promise<void>,
  onFinalFailure: (data: JobPayloads[N], err: Error) => Promise<void>,
): JobHandler<N> {
  return async (data, job) => {
    try {
      await run(data);
    } catch (err) {
      if (job.lastAttempt) await onFinalFailure(data, err as Error);
      throw err;
    }
  };
}

/** Registers every job handler on the queue: this process now works jobs. */
export async function startWorker(ctx: AppContext): Promise<void> {
  const n = ctx.config.workerConcurrency;
  await ctx.jobs.work(
    JOBS.analyzeVideo,
    n,
    withFinalFailure(
      (data) => analyzeVideoJob(ctx, data),
      (data, err) => analyzeVideoFailed(ctx, data, err),
    ),
  );
  await ctx.jobs.work(JOBS.activateBrand, n, (data) => activateBrandJob(ctx, data));
  // One render uses both cores: one at a time per worker process.
  await ctx.jobs.work(
    JOBS.renderVerification,
    1,
    withFinalFailure(
      (data) => renderVerificationJob(ctx, data),
      (data, err) => renderVerificationFailed(ctx, data, err),
    ),
  );
}
