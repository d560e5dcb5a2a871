import { randomUUID } from 'node:crypto';
import { DEFAULT_SAMPLE_FPS, INDEX_FORMAT, type EngineDetection } from '@logo-review/engine';
import { JOBS, VIDEO_STATUS, type AnalyzeChunkJob } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { brandsRepository } from '../repositories/brands.repository.ts';
import { libraryRepository as repo, type VideoRow } from '../repositories/library.repository.ts';
import { refreshVideo } from '../analytics/analytics-store.ts';
import { ensureThumbnails, requestHash, writeResult } from './analyze-video.job.ts';
import { runEngineTask } from './engine-client.ts';
import { chunkSpans, stitchChunks } from './stitch.ts';

/**
 * The chunks of a video longer than a chunk (ANALYSIS_CHUNK_SECONDS), or null: analysed whole.
 * Each chunk starts on the sample grid, so together they sample the frames one analysis would.
 */
export function chunkPlan(ctx: AppContext, video: VideoRow): { start: number; end: number }[] | null {
  const chunkSeconds = ctx.config.analysisChunkSeconds;
  if (!(chunkSeconds > 0) || !(video.duration > chunkSeconds)) return null;
  const sampleFps = Math.min(ctx.config.analysisSampleFps ?? DEFAULT_SAMPLE_FPS, video.fps || Infinity);
  const spans = chunkSpans(video.duration * 1000, chunkSeconds * 1000, 1000 / sampleFps);
  return spans.length > 1 ? spans : null;
}

/** Sets the video's progress to the share of its analysis's chunks that are done (at most 99). */
async function chunkProgress(ctx: AppContext, videoId: number, hash: string): Promise<void> {
  await ctx.db.query(
    `UPDATE videos SET updated_at = now(), progress = LEAST(99, (
        SELECT floor(100.0 * count(done_at) / count(*)) FROM analysis_chunks WHERE video_id = $1 AND request_hash = $2))
      WHERE id = $1 AND status = $3`,
    [videoId, hash, VIDEO_STATUS.PROCESSING],
  );
}

/**
 * The analyze-video job of a long video: records its chunks (keeping those of the same analysis
 * already done, dropping those of an earlier one) and queues a job for each chunk not done yet.
 * The video is PROCESSING, its progress the share of chunks done.
 */
export async function planChunks(
  ctx: AppContext,
  video: VideoRow,
  hash: string,
  spans: { start: number; end: number }[],
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.query('SELECT id FROM videos WHERE id = $1 FOR UPDATE', [video.id]);
    await tx.query('DELETE FROM analysis_chunks WHERE video_id = $1 AND request_hash <> $2', [
      video.id,
      hash,
    ]);
    await tx.query(
      `INSERT INTO analysis_chunks (video_id, request_hash, chunk, chunks, start_ms, end_ms)
       SELECT $1, $2, c - 1, $3, s, e FROM unnest($4::int[], $5::int[]) WITH ORDINALITY AS t(s, e, c)
       ON CONFLICT DO NOTHING`,
      [video.id, hash, spans.length, spans.map((s) => s.start), spans.map((s) => s.end)],
    );
    await tx.query(
      `UPDATE videos SET status = $2, status_reason = '', updated_at = now(), progress = LEAST(99, (
          SELECT floor(100.0 * count(done_at) / count(*)) FROM analysis_chunks WHERE video_id = $1 AND request_hash = $3))
        WHERE id = $1`,
      [video.id, VIDEO_STATUS.PROCESSING, hash],
    );
  });
  const todo = await ctx.db.query<{ chunk: number }>(
    'SELECT chunk FROM analysis_chunks WHERE video_id = $1 AND request_hash = $2 AND done_at IS NULL ORDER BY chunk',
    [video.id, hash],
  );
  for (const { chunk } of todo)
    await ctx.jobs.send(JOBS.analyzeChunk, {
      organizationId: video.organization_id,
      videoId: video.id,
      requestHash: hash,
      chunk,
    });
  // Every chunk was done already (this analysis was interrupted before its result was written).
  if (todo.length === 0) await finishChunks(ctx, video.id, hash);
  // Other workers take the chunks meanwhile.
  await ensureThumbnails(ctx, video);
}

/**
 * Analyses one chunk: decodes only its span, keeps the detections found there in its row, and when
 * it is the last chunk to finish, stitches every chunk's tracks and writes the video's result.
 * One worker at a time holds a chunk (a lease renewed while it runs); a rerun whose chunk is held
 * by a live worker comes back later, one whose holder died takes it over; only the holder writes.
 */
export async function analyzeChunkJob(
  ctx: AppContext,
  job: AnalyzeChunkJob,
  signal?: AbortSignal,
): Promise<void> {
  const video = await repo.videoById(ctx.db, job.videoId);
  if (!video || video.organization_id !== job.organizationId) return; // deleted meanwhile
  const lease = ctx.config.jobLeaseSeconds;
  const owner = randomUUID();
  const [claimed] = await ctx.db.query<{ start_ms: number; end_ms: number; chunks: number }>(
    `UPDATE analysis_chunks SET owner = $4, beat = now()
      WHERE video_id = $1 AND request_hash = $2 AND chunk = $3 AND done_at IS NULL
        AND (owner IS NULL OR beat < now() - make_interval(secs => $5))
      RETURNING start_ms, end_ms, chunks`,
    [video.id, job.requestHash, job.chunk, owner, lease],
  );
  if (!claimed) {
    const [row] = await ctx.db.query<{ done: boolean }>(
      'SELECT done_at IS NOT NULL AS done FROM analysis_chunks WHERE video_id = $1 AND request_hash = $2 AND chunk = $3',
      [video.id, job.requestHash, job.chunk],
    );
    // Held by a live worker: come back when its lease would have run out, in case it dies.
    if (row && !row.done) await ctx.jobs.send(JOBS.analyzeChunk, job, { startAfterSeconds: lease });
    // Done: the result may still be unwritten if the worker that did it died just after.
    else if (row?.done) await finishChunks(ctx, video.id, job.requestHash);
    return;
  }
  const release = () =>
    ctx.db.query(
      'UPDATE analysis_chunks SET owner = NULL, beat = NULL WHERE video_id = $1 AND request_hash = $2 AND chunk = $3 AND owner = $4',
      [video.id, job.requestHash, job.chunk, owner],
    );
  const brands = await brandsRepository.indexed(ctx.db, video.organization_id, INDEX_FORMAT);
  const settings = { sampleFps: ctx.config.analysisSampleFps, analysisHeight: ctx.config.analysisHeight };
  if (requestHash(video, brands, settings, ctx.config.analysisChunkSeconds * 1000) !== job.requestHash) {
    // The brands or settings changed since the plan: the new analysis's own jobs do the work.
    await release();
    return;
  }
  const beat = setInterval(
    () =>
      void ctx.db
        .query(
          'UPDATE analysis_chunks SET beat = now() WHERE video_id = $1 AND request_hash = $2 AND chunk = $3 AND owner = $4',
          [video.id, job.requestHash, job.chunk, owner],
        )
        .catch(() => undefined),
    (lease * 1000) / 3,
  );
  const started = performance.now();
  let detections: EngineDetection[];
  try {
    const analysis = await runEngineTask(
      {
        kind: 'analyze',
        file: ctx.storage.resolve(video.stored_path),
        indexFiles: brands.map((b) => ctx.storage.resolve(b.index_path!)),
        ...settings,
        startMs: claimed.start_ms,
        endMs: claimed.end_ms,
        // One detector thread per chunk: a process runs ANALYSIS_CHUNK_CONCURRENCY chunks at once.
        workers: 1,
      },
      () => undefined,
      // the next chunk (of this video, or another with the same brands) takes the threads warm
      { signal, keepWarmMs: ctx.config.analysisKeepWarmSeconds * 1000 },
    );
    detections = analysis.detections;
  } catch (err) {
    await release();
    throw err;
  } finally {
    clearInterval(beat);
  }
  const engineSeconds = (performance.now() - started) / 1000;
  const stored0 = performance.now();
  const [stored] = await ctx.db.query(
    `UPDATE analysis_chunks SET detections = $5::jsonb, done_at = now(), owner = NULL, beat = NULL, engine_seconds = $6
      WHERE video_id = $1 AND request_hash = $2 AND chunk = $3 AND owner = $4 AND done_at IS NULL
      RETURNING chunk`,
    [video.id, job.requestHash, job.chunk, owner, JSON.stringify(detections), engineSeconds],
  );
  if (!stored) return; // taken over by a rerun that thought this worker dead: it writes the chunk
  const storeMs = performance.now() - stored0;
  const spanSeconds = (claimed.end_ms - claimed.start_ms) / 1000;
  ctx.metrics.analysis(spanSeconds, engineSeconds);
  console.log(
    `analysis of video ${video.id}: chunk ${job.chunk + 1}/${claimed.chunks} (${(claimed.start_ms / 1000).toFixed(1)}-${(claimed.end_ms / 1000).toFixed(1)} s) analysed in ${engineSeconds.toFixed(1)} s, ${detections.length} detection(s) stored in ${storeMs.toFixed(0)} ms`,
  );
  // After the line above: a chunk counts in the progress once its line is out (the tests rely on it).
  await chunkProgress(ctx, video.id, job.requestHash);
  await finishChunks(ctx, video.id, job.requestHash);
}

/**
 * When every chunk of the analysis is done and its result is not written yet: stitches the
 * chunks' tracks and writes the video's detections, once (the video's row lock makes finishers
 * take turns, and the second finds the result written). The chunk rows are then dropped.
 */
export async function finishChunks(ctx: AppContext, videoId: number, hash: string): Promise<boolean> {
  const t0 = performance.now();
  let stitchMs = 0;
  let count = 0;
  let chunks = 0;
  const written = await ctx.db.transaction(async (tx) => {
    const [video] = await tx.query<VideoRow>('SELECT * FROM videos WHERE id = $1 FOR UPDATE', [videoId]);
    if (!video || (video.status === VIDEO_STATUS.OK && video.request_hash === hash)) return false;
    const rows = await tx.query<{ start_ms: number; end_ms: number; detections: EngineDetection[] | null }>(
      'SELECT start_ms, end_ms, detections FROM analysis_chunks WHERE video_id = $1 AND request_hash = $2 ORDER BY chunk',
      [videoId, hash],
    );
    if (rows.length === 0 || rows.some((r) => r.detections === null)) return false;
    chunks = rows.length;
    const s0 = performance.now();
    const detections = stitchChunks(rows.map((r) => ({ ...r, detections: r.detections! })));
    stitchMs = performance.now() - s0;
    const brands = await tx.query<{ id: number }>('SELECT id FROM brands WHERE organization_id = $1', [
      video.organization_id,
    ]);
    count = await writeResult(tx, video, brands, detections, hash);
    await tx.query('DELETE FROM analysis_chunks WHERE video_id = $1', [videoId]);
    return true;
  });
  // The dashboard's aggregates of this video, now rather than at the next dashboard call.
  if (written) await refreshVideo(ctx.db, videoId).catch(() => undefined); // stays marked: the dashboard retries
  if (written)
    console.log(
      `analysis of video ${videoId}: ${chunks} chunks stitched in ${stitchMs.toFixed(1)} ms, ${count} detection(s) written in ${(performance.now() - t0 - stitchMs).toFixed(0)} ms`,
    );
  return written;
}

/** After a chunk's last retry: the video ends as 'ERROR PROCESSING' with the reason. */
export async function analyzeChunkFailed(ctx: AppContext, job: AnalyzeChunkJob, err: Error): Promise<void> {
  await repo.setStatus(ctx.db, job.videoId, {
    status: VIDEO_STATUS.ERROR,
    status_reason: `Analysis failed: ${err.message}`,
    progress: 0,
  });
}
