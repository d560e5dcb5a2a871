/**
 * Per-video aggregates of the exposure measures (table video_brand_stats, migration 012) and the
 * per-video review counts (video_review_stats). Triggers mark a video dirty (analytics_dirty) when
 * its detections, frame size or project's hidden brands and placements change; `refreshDirty`
 * rebuilds the marked videos of an organization with exposure.ts before the dashboard reads.
 */
import { LISTED_REVIEW_STATES, REVIEW_STATE } from '@logo-review/contract';
import type { Database, Queryable } from '@logo-review/db';
import { projectsRepository } from '../repositories/projects.repository.ts';
import {
  ClutterIndex,
  countedReviews,
  VideoExposure,
  type Segment,
  type VideoStatsRow,
} from './exposure.ts';

interface DetectionForStats {
  id: number;
  brand_id: number;
  placement_id: number;
  time_begin: number;
  time_end: number;
  coordinates: Segment[];
  review: string;
}

export interface VideoGeometry {
  id: number;
  organization_id: number;
  width: number;
  height: number;
  project_id: number | null;
}

/** Hidden brands and placements of a video's project (left out of every measure, as in the report). */
export async function hiddenOf(
  db: Queryable,
  org: number,
  projectId: number | null,
): Promise<{ brandIds: number[]; placementIds: number[] }> {
  return projectId ? projectsRepository.hidden(db, org, projectId) : { brandIds: [], placementIds: [] };
}

/**
 * Measures one video's counted, shown detections, given in id order: both counting modes when
 * `detections` holds every listed one. Pure: no database.
 */
export function measureVideo(
  video: { width: number; height: number },
  detections: readonly DetectionForStats[],
  includeUnreviewed: boolean,
  hidden: { brandIds: number[]; placementIds: number[] },
): VideoStatsRow[] {
  const counted = new Set<string>(countedReviews(includeUnreviewed));
  const hiddenBrands = new Set(hidden.brandIds);
  const hiddenPlacements = new Set(hidden.placementIds);
  const rows = detections.filter(
    (d) => counted.has(d.review) && !hiddenBrands.has(d.brand_id) && !hiddenPlacements.has(d.placement_id),
  );
  const exposure = new VideoExposure(video.width, video.height, new ClutterIndex(rows));
  for (const d of rows) exposure.add(d);
  return exposure.rows();
}

const STAT_COLUMNS = [
  'detections',
  'exposure_s',
  'size_weighted_s',
  'valued_s',
  'share_w',
  'weight',
  'max_share',
  'position_w',
  'clutter_w',
  'clutter_factor_w',
  'duration_ms',
  'best_share',
] as const;

/** Rebuilds one video's aggregates. Returns false when the video no longer exists. */
export async function refreshVideo(db: Database, videoId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Lock the dirty mark: a concurrent refresh of the same video waits, then finds it done.
    const mark = await tx.query<{ version: number }>(
      'SELECT version FROM analytics_dirty WHERE video_id = $1 FOR UPDATE',
      [videoId],
    );
    const [video] = await tx.query<VideoGeometry>(
      'SELECT id, organization_id, width, height, project_id FROM videos WHERE id = $1',
      [videoId],
    );
    if (!video) {
      await tx.query('DELETE FROM analytics_dirty WHERE video_id = $1', [videoId]);
      return false;
    }
    const hidden = await hiddenOf(tx, video.organization_id, video.project_id);
    const detections = (
      await tx.query<DetectionForStats>(
        `SELECT id, brand_id, placement_id, time_begin, time_end, coordinates, review FROM detections
         WHERE video_id = $1 AND review = ANY($2::text[]) ORDER BY id`,
        [videoId, LISTED_REVIEW_STATES],
      )
    ).map((d) => ({ ...d, id: Number(d.id) }));
    const reviewed = detections.filter((d) => d.review !== REVIEW_STATE.UNREVIEWED).length;
    await tx.query('DELETE FROM video_brand_stats WHERE video_id = $1', [videoId]);
    for (const mode of [true, false]) {
      const rows = measureVideo(video, detections, mode, hidden);
      if (rows.length === 0) continue;
      const params: unknown[] = [
        videoId,
        video.organization_id,
        mode,
        rows.map((r) => r.brand_id),
        rows.map((r) => r.placement_id),
        rows.map((r) => r.best_detection_id),
        ...STAT_COLUMNS.map((c) => rows.map((r) => r[c])),
      ];
      await tx.query(
        `INSERT INTO video_brand_stats (video_id, organization_id, with_unreviewed, brand_id, placement_id,
           best_detection_id, ${STAT_COLUMNS.join(', ')})
         SELECT $1, $2, $3, u.* FROM unnest($4::int[], $5::int[], $6::bigint[], $7::int[],
           ${STAT_COLUMNS.slice(1)
             .map((_, i) => `$${i + 8}::float8[]`)
             .join(', ')}) AS u`,
        params,
      );
    }
    await tx.query(
      `INSERT INTO video_review_stats (video_id, total, reviewed) VALUES ($1, $2, $3)
       ON CONFLICT (video_id) DO UPDATE SET total = EXCLUDED.total, reviewed = EXCLUDED.reviewed`,
      [videoId, detections.length, reviewed],
    );
    // Changed again meanwhile (a new version): the mark stays for the next refresh.
    if (mark.length) {
      await tx.query('DELETE FROM analytics_dirty WHERE video_id = $1 AND version = $2', [
        videoId,
        mark[0].version,
      ]);
    }
    return true;
  });
}

/** Rebuilds every dirty video of the organization (and drops marks of deleted videos). */
export async function refreshDirty(db: Database, org: number): Promise<number> {
  const dirty = await db.query<{ video_id: number }>(
    `SELECT a.video_id FROM analytics_dirty a LEFT JOIN videos v ON v.id = a.video_id
     WHERE v.organization_id = $1 OR v.id IS NULL ORDER BY a.video_id`,
    [org],
  );
  for (const { video_id } of dirty) await refreshVideo(db, video_id);
  return dirty.length;
}
