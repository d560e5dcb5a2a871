import { JOBS } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { analyzeVideoJob } from './analyze-video.job.ts';
import { activateBrandJob } from './activate-brand.job.ts';

/** Registers every job handler on the queue: this process now works jobs. */
export async function startWorker(ctx: AppContext): Promise<void> {
  const n = ctx.config.workerConcurrency;
  await ctx.jobs.work(JOBS.analyzeVideo, n, (data) => analyzeVideoJob(ctx, data));
  await ctx.jobs.work(JOBS.activateBrand, n, (data) => activateBrandJob(ctx, data));
}
