import { VIDEO_STATUS, type AnalyzeVideoJob } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { libraryRepository as repo } from '../repositories/library.repository.ts';

/**
 * STAND-IN until the detection engine (packages/engine) is wired in: it marks a probed video OK
 * with no detections. It finds no logos; the README says so too.
 */
export async function analyzeVideoJob(ctx: AppContext, job: AnalyzeVideoJob): Promise<void> {
  const video = await repo.videoById(ctx.db, job.videoId);
  if (!video || video.organization_id !== job.organizationId) return; // deleted meanwhile
  if (video.status === VIDEO_STATUS.ERROR && !video.frames) return;
  await repo.setStatus(ctx.db, video.id, { status: VIDEO_STATUS.PROCESSING, progress: 0 });
  await repo.setStatus(ctx.db, video.id, {
    status: VIDEO_STATUS.OK,
    progress: 100,
    status_reason: '',
    request_hash: `stand-in:${video.content_sha256}`,
  });
}
