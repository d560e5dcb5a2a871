import { VERIFICATION_STATUS, type RenderVerificationJob } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { brandsRepository } from '../repositories/brands.repository.ts';
import { streamDetections } from '../repositories/detections.repository.ts';
import { libraryRepository } from '../repositories/library.repository.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';
import { verificationRepository as repo } from '../repositories/verification.repository.ts';
import { renderVerificationVideo, type RenderDetection } from '../reports/verification-render.ts';
import { throttledProgress } from './progress.ts';

/**
 * Renders a verification video: the source footage with every listed detection's quad drawn in its
 * placement's colour and labelled with the brand, plus a timecode, as H.264 MP4.
 * SUBMITTED -> PROCESSING (progress) -> FINISHED, or 'ERROR PROCESSING' with the reason.
 */
export async function renderVerificationJob(
  ctx: AppContext,
  job: RenderVerificationJob,
  signal?: AbortSignal,
): Promise<void> {
  const org = job.organizationId;
  const ver = await repo.get(ctx.db, org, job.verificationId);
  if (!ver) return; // deleted meanwhile
  const video = await libraryRepository.video(ctx.db, org, ver.video_id);
  if (!video) return;
  await repo.setState(ctx.db, ver.id, {
    status: VERIFICATION_STATUS.PROCESSING,
    progress: 0,
    status_reason: '',
  });
  const [brands, placements] = await Promise.all([
    brandsRepository.list(ctx.db, org),
    placementsRepository.list(ctx.db, org),
  ]);
  const brandName = new Map(brands.map((b) => [b.id, b.localized_name || b.name]));
  const color = new Map(placements.map((p) => [p.id, p.color]));
  const detections: RenderDetection[] = [];
  const all = streamDetections(ctx.db, org, {
    videoId: video.id,
    brandIds: [],
    placementIds: [],
    hiddenBrandIds: [],
    hiddenPlacementIds: [],
  });
  for await (const d of all) {
    detections.push({
      brandName: brandName.get(d.brand_id) ?? `Brand ${d.brand_id}`,
      color: color.get(d.placement_id) ?? '#ffffff',
      time_begin: d.time_begin,
      time_end: d.time_end,
      coordinates: d.coordinates,
    });
  }
  const rel = ctx.storage.newPath(org, 'renders', '.mp4');
  const progress = throttledProgress((p) => repo.setProgress(ctx.db, ver.id, Math.min(99, p)));
  try {
    await renderVerificationVideo({
      input: ctx.storage.resolve(video.stored_path),
      output: ctx.storage.resolve(rel),
      width: video.width,
      height: video.height,
      fps: video.fps,
      duration: video.frames / video.fps,
      detections,
      onProgress: progress,
      signal,
    });
  } catch (err) {
    await ctx.storage.remove(rel);
    throw err;
  } finally {
    await progress.flush();
  }
  const still = await repo.get(ctx.db, org, ver.id);
  if (!still) {
    await ctx.storage.remove(rel); // deleted while rendering
    return;
  }
  await repo.setState(ctx.db, ver.id, {
    status: VERIFICATION_STATUS.FINISHED,
    progress: 100,
    stored_path: rel,
  });
  await ctx.storage.remove(still.stored_path);
}

export async function renderVerificationFailed(
  ctx: AppContext,
  job: RenderVerificationJob,
  err: Error,
): Promise<void> {
  await repo.setState(ctx.db, job.verificationId, {
    status: VERIFICATION_STATUS.ERROR,
    status_reason: err.message,
    progress: 0,
  });
}
