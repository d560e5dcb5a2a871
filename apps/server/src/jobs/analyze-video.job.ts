import { VIDEO_STATUS, type AnalyzeVideoJob } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { libraryRepository as repo, type VideoRow } from '../repositories/library.repository.ts';
import { renderThumbnailSprite } from '../media/thumbnails.ts';

/** The editor's hover previews; a failure here does not fail the analysis. */
async function ensureThumbnails(ctx: AppContext, video: VideoRow): Promise<void> {
  if (video.thumbnails) return;
  const rel = ctx.storage.newPath(video.organization_id, 'thumbnails', '.jpg');
  try {
    const sprite = await renderThumbnailSprite(ctx.storage.resolve(video.stored_path), ctx.storage.resolve(rel), video);
    await repo.setThumbnails(ctx.db, video.id, { path: rel, ...sprite });
  } catch (err) {
    await ctx.storage.remove(rel);
    console.warn(`thumbnails of video ${video.id} failed: ${(err as Error).message}`);
  }
}

/**
 * STAND-IN until the detection engine (packages/engine) is wired in: it renders the thumbnails and
 * marks a probed video OK with no detections. It finds no logos; the README says so too.
 */
export async function analyzeVideoJob(ctx: AppContext, job: AnalyzeVideoJob): Promise<void> {
  const video = await repo.videoById(ctx.db, job.videoId);
  if (!video || video.organization_id !== job.organizationId) return; // deleted meanwhile
  if (video.status === VIDEO_STATUS.ERROR && !video.frames) return;
  await repo.setStatus(ctx.db, video.id, { status: VIDEO_STATUS.PROCESSING, progress: 0 });
  await ensureThumbnails(ctx, video);
  await repo.setStatus(ctx.db, video.id, {
    status: VIDEO_STATUS.OK,
    progress: 100,
    status_reason: '',
    request_hash: `stand-in:${video.content_sha256}`,
  });
}
