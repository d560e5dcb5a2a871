import { createHash, randomUUID } from 'node:crypto';
import { ENGINE_VERSION, INDEX_FORMAT, type EngineDetection, type MediaAnalysis } from '@logo-review/engine';
import type { Queryable } from '@logo-review/db';
import { JOBS, REVIEW_STATE, VIDEO_STATUS, type AnalyzeVideoJob } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { brandsRepository } from '../repositories/brands.repository.ts';
import { detectionsRepository, type NewDetectionRow } from '../repositories/detections.repository.ts';
import { libraryRepository as repo, type VideoRow } from '../repositories/library.repository.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';
import { renderThumbnailSprite } from '../media/thumbnails.ts';
import { runEngineTask } from './engine-client.ts';
import { throttledProgress } from './progress.ts';
import { refreshVideo } from '../analytics/analytics-store.ts';
import { chunkPlan, planChunks } from './analyze-chunk.job.ts';

/** The editor's hover previews; a failure here does not fail the analysis. */
export async function ensureThumbnails(ctx: AppContext, video: VideoRow): Promise<void> {
  if (video.thumbnails) return;
  const rel = ctx.storage.newPath(video.organization_id, 'thumbnails', '.jpg');
  try {
    const sprite = await renderThumbnailSprite(
      ctx.storage.resolve(video.stored_path),
      ctx.storage.resolve(rel),
      video,
    );
    await repo.setThumbnails(ctx.db, video.id, { path: rel, ...sprite });
  } catch (err) {
    await ctx.storage.remove(rel);
    console.warn(`thumbnails of video ${video.id} failed: ${(err as Error).message}`);
  }
}

/** Identifies an analysis by its input: the video's content, the brand indexes used, the engine. */
export function requestHash(
  video: VideoRow,
  brands: { id: number; index_version: number }[],
  settings: { sampleFps?: number; analysisHeight?: number },
  chunkMs?: number,
): string {
  const h = createHash('sha256').update(
    `engine ${ENGINE_VERSION}\nvideo ${video.content_sha256}\nsettings ${settings.sampleFps ?? 'default'} ${settings.analysisHeight ?? 'default'}\n`,
  );
  // Chunk boundaries may move a track's ends by a sample: the chunk length is part of the input.
  // A video analysed whole keeps the hash it had before chunks existed.
  if (chunkMs !== undefined) h.update(`chunks ${chunkMs}\n`);
  for (const b of brands) h.update(`brand ${b.id}:${b.index_version}\n`);
  return h.digest('hex').slice(0, 32);
}

/** Time overlap of two spans as a share of the shorter one. */
const overlapShare = (
  a: { time_begin: number; time_end: number },
  b: { time_begin: number; time_end: number },
) => {
  const inter = Math.min(a.time_end, b.time_end) - Math.max(a.time_begin, b.time_begin);
  const shorter = Math.max(1, Math.min(a.time_end - a.time_begin, b.time_end - b.time_begin));
  return inter / shorter;
};

/**
 * Writes an analysis's detections as the video's result, inside the caller's transaction (which
 * holds the video's row): the earlier unreviewed engine detections are replaced; reviewed ones (a
 * person's work) stay, and new findings of the same brand over the same span are not added again
 * beside them. The video is then OK at 100 % with the analysis's request_hash.
 */
export async function writeResult(
  tx: Queryable,
  video: VideoRow,
  brands: { id: number }[],
  detections: EngineDetection[],
  hash: string,
): Promise<number> {
  const auto = await placementsRepository.automaticIds(tx, video.organization_id);
  const known = new Set(brands.map((b) => b.id));
  await detectionsRepository.deleteEngineUnreviewed(tx, video.id);
  const reviewed = await tx.query<{ brand_id: number; time_begin: number; time_end: number }>(
    "SELECT brand_id, time_begin, time_end FROM detections WHERE video_id = $1 AND (review <> 'UNREVIEWED' OR source <> 'engine' OR reviewed_at IS NOT NULL)",
    [video.id],
  );
  const fresh = detections.filter(
    (d) =>
      known.has(Number(d.brandId)) &&
      !reviewed.some((r) => r.brand_id === Number(d.brandId) && overlapShare(r, d) > 0.5),
  );
  const rows: NewDetectionRow[] = fresh.map((d) => {
    const placement = auto[d.placement] ?? auto.IN_SCENE;
    return {
      video_id: video.id,
      brand_id: Number(d.brandId),
      placement_id: placement,
      auto_placement_id: placement,
      logo_id: d.exampleId === null ? null : Number(d.exampleId),
      time_begin: d.time_begin,
      time_end: d.time_end,
      coordinates: d.coordinates,
      confidence: d.confidence,
      review: REVIEW_STATE.UNREVIEWED,
      source: 'engine',
    };
  });
  await detectionsRepository.insertMany(tx, video.organization_id, rows);
  await repo.setStatus(tx, video.id, {
    status: VIDEO_STATUS.OK,
    progress: 100,
    status_reason: '',
    request_hash: hash,
  });
  // The dashboard's ETA uses the measured speed (analytics/dashboard.ts): the wall time from the
  // analysis's start (its first chunk's) to its result.
  await tx.query(
    'UPDATE videos SET analysis_wall_seconds = EXTRACT(EPOCH FROM now() - analysis_started_at), analysis_finished_at = now() WHERE id = $1',
    [video.id],
  );
  return rows.length;
}

/**
 * Finds every active brand of the organization in the video and writes the detections. A repeated
 * request with the same input (request_hash) reuses the result; a new one replaces the earlier
 * unreviewed engine detections in one transaction, so a worker killed midway leaves nothing half
 * written and the retried job ends with no duplicates. Reviewed detections (a person's work) stay,
 * and new findings of the same brand over the same span are not added again beside them.
 * A video longer than ANALYSIS_CHUNK_SECONDS is not analysed here: this job queues its chunks
 * (analyze-chunk.job.ts), and the last chunk to finish writes the result the same way.
 */
export async function analyzeVideoJob(
  ctx: AppContext,
  job: AnalyzeVideoJob,
  signal?: AbortSignal,
): Promise<void> {
  const video = await repo.videoById(ctx.db, job.videoId);
  if (!video || video.organization_id !== job.organizationId) return; // deleted meanwhile
  if (video.status === VIDEO_STATUS.ERROR && !video.frames) return; // unreadable file: nothing to do
  const org = video.organization_id;
  // A brand created just before the upload is still building its index: wait for it rather than
  // analyse without it (an activation stuck for an hour no longer holds videos back).
  const lease = ctx.config.jobLeaseSeconds;
  if ((await brandsRepository.activating(ctx.db, org)) > 0) {
    await repo.setQueuedUnlessLeased(ctx.db, video.id, 'Waiting for brands to finish activating.', lease);
    await ctx.jobs.send(JOBS.analyzeVideo, job, { startAfterSeconds: 3 });
    return;
  }
  const brands = await brandsRepository.indexed(ctx.db, org, INDEX_FORMAT);
  const settings = { sampleFps: ctx.config.analysisSampleFps, analysisHeight: ctx.config.analysisHeight };
  const spans = chunkPlan(ctx, video);
  const hash = requestHash(
    video,
    brands,
    settings,
    spans ? ctx.config.analysisChunkSeconds * 1000 : undefined,
  );
  if (video.status === VIDEO_STATUS.OK && video.request_hash === hash) return;
  // The dashboard's ETA uses the measured speed (analytics/dashboard.ts).
  await ctx.db.query('UPDATE videos SET analysis_started_at = now() WHERE id = $1', [video.id]);
  // A video longer than a chunk: one job per chunk, which any worker can take.
  if (spans) return planChunks(ctx, video, hash, spans);

  // One attempt at a time per video. The queue reruns a job that ran past its expiry even when its
  // worker is alive; such a rerun finds the lease renewed and comes back later instead.
  const owner = randomUUID();
  if (!(await repo.claimAnalysis(ctx.db, video.id, owner, lease))) {
    await ctx.jobs.send(JOBS.analyzeVideo, job, { startAfterSeconds: lease });
    return;
  }
  const beat = setInterval(
    () => void repo.renewAnalysis(ctx.db, video.id, owner).catch(() => undefined),
    (lease * 1000) / 3,
  );
  const progress = throttledProgress((p) => repo.setProgress(ctx.db, video.id, Math.min(99, p), owner));
  const started = performance.now();
  let analysis: MediaAnalysis;
  try {
    await ensureThumbnails(ctx, video);
    analysis = await runEngineTask(
      {
        kind: 'analyze',
        file: ctx.storage.resolve(video.stored_path),
        indexFiles: brands.map((b) => ctx.storage.resolve(b.index_path!)),
        ...settings,
      },
      progress,
      // the next analysis with the same brands and settings takes the threads warm
      { signal, keepWarmMs: ctx.config.analysisKeepWarmSeconds * 1000 },
    );
  } catch (err) {
    await repo.releaseAnalysis(ctx.db, video.id, owner);
    throw err;
  } finally {
    clearInterval(beat);
    await progress.flush();
  }
  const written = await ctx.db.transaction(async (tx) => {
    // The row lock makes writers of one video's result take turns; an attempt whose lease was
    // taken over (it looked dead) leaves the result to the one that holds it.
    if (!(await repo.holdsAnalysis(tx, video.id, owner))) return false;
    await writeResult(tx, video, brands, analysis.detections, hash);
    await repo.releaseAnalysis(tx, video.id, owner);
    return true;
  });
  // Speed in x real time: the video's length over the wall time from its decoding to its result.
  if (written) ctx.metrics.analysis(video.frames / video.fps, (performance.now() - started) / 1000);
  // The dashboard's aggregates of this video, now rather than at the next dashboard call.
  if (written) await refreshVideo(ctx.db, video.id).catch(() => undefined); // stays marked: the dashboard retries
}

/** After the last retry: the video ends as 'ERROR PROCESSING' with the reason. */
export async function analyzeVideoFailed(ctx: AppContext, job: AnalyzeVideoJob, err: Error): Promise<void> {
  await repo.setStatus(ctx.db, job.videoId, {
    status: VIDEO_STATUS.ERROR,
    status_reason: `Analysis failed: ${err.message}`,
    progress: 0,
  });
}
