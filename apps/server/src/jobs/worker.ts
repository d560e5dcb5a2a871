import { JOBS } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { analyzeVideoFailed, analyzeVideoJob } from './analyze-video.job.ts';
import { activateBrandJob } from './activate-brand.job.ts';

/** Registers every job handler on the queue: this process now works jobs. */
export async function startWorker(ctx: AppContext): Promise<void> {
  const n = ctx.config.workerConcurrency;
  await ctx.jobs.work(JOBS.analyzeVideo, n, async (data, job) => {
    try {
      await analyzeVideoJob(ctx, data);
    } catch (err) {
      if (job.lastAttempt) await analyzeVideoFailed(ctx, data, err as Error);
      throw err;
    }
  });
  await ctx.jobs.work(JOBS.activateBrand, n, (data) => activateBrandJob(ctx, data));
}
