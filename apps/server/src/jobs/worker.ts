import { JOBS } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { analyzeVideoFailed, analyzeVideoJob } from './analyze-video.job.ts';
import { analyzeChunkFailed, analyzeChunkJob } from './analyze-chunk.job.ts';
import { activateBrandFailed, activateBrandJob } from './activate-brand.job.ts';
import { renderVerificationFailed, renderVerificationJob } from './render-verification.job.ts';

/**
 * Registers every job handler on the queue: this process now works jobs. Each kind records its
 * final failure (status and reason) when its last try fails or its process dies on the last try.
 */
export async function startWorker(ctx: AppContext): Promise<void> {
  const n = ctx.config.workerConcurrency;
  await ctx.jobs.work(
    JOBS.analyzeVideo,
    n,
    (data, job) => analyzeVideoJob(ctx, data, job.signal),
    (data, err) => analyzeVideoFailed(ctx, data, err),
  );
  // A long video's chunks: each on about one core, so by default as many at once as there are cores.
  await ctx.jobs.work(
    JOBS.analyzeChunk,
    ctx.config.analysisChunkConcurrency,
    (data, job) => analyzeChunkJob(ctx, data, job.signal),
    (data, err) => analyzeChunkFailed(ctx, data, err),
  );
  await ctx.jobs.work(
    JOBS.activateBrand,
    n,
    (data, job) => activateBrandJob(ctx, data, job.signal),
    (data, err) => activateBrandFailed(ctx, data, err),
  );
  // One render uses both cores: one at a time per worker process.
  await ctx.jobs.work(
    JOBS.renderVerification,
    1,
    (data, job) => renderVerificationJob(ctx, data, job.signal),
    (data, err) => renderVerificationFailed(ctx, data, err),
  );
}
