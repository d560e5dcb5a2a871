/**
 * Per-video aggregates of the exposure measures (tables video_brand_stats and video_placement_stats, migration 012) and the
 * per-video review counts (video_review_stats). Triggers mark a video dirty (analytics_dirty) when
 * its detections, frame size or project's hidden brands and placements change; `refreshDirty`
 * rebuilds the marked videos of an organization with exposure.ts before the dashboard reads.
 */
import { LISTED_REVIEW_STATES, REVIEW_STATE } from '@logo-review/contract';
import type { Database, Queryable } from '@logo-review/db';
import { projectsRepository } from '../repositories/projects.repository.ts';
import {
  ALL_PLACEMENTS,
  ClutterIndex,
  countedReviews,
  mediaValue,
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
  coordinates: readonly Segment[];
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

const BRAND_COLUMNS = [
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
  'media_value',
] as const;

/** Lock key of an organization's aggregates: rate changes rewrite media values under it (PostgreSQL). */
const RATES_LOCK = 727_274_012;

/** Takes the organization's rates lock, shared (a refresh) or exclusive (a change of rates). */
export async function lockRates(db: Database, tx: Queryable, org: number, exclusive: boolean): Promise<void> {
  if (db.kind !== 'postgres') return; // PGlite: one connection, transactions never interleave
  await tx.query(`SELECT ${exclusive ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared'}($1, $2)`, [
    RATES_LOCK,
    org,
  ]);
}

/**
 * Rewrites the media values of the organization's aggregates from its current rates: per
 * placement rate x valued seconds, per brand their sum (exposure.ts, mediaValue).
 */
export async function rewriteMediaValues(db: Database, org: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockRates(db, tx, org, true);
    await tx.query(
      `UPDATE video_placement_stats s SET media_value = s.valued_s * coalesce(r.rate_per_second, 0)
       FROM placements p LEFT JOIN placement_rates r ON r.placement_id = p.id
       WHERE p.id = s.placement_id AND s.organization_id = $1`,
      [org],
    );
    await tx.query(
      `UPDATE video_brand_stats b SET media_value = coalesce(x.value, 0)
       FROM (SELECT video_id, with_unreviewed, brand_id, sum(media_value) AS value FROM video_placement_stats
             WHERE organization_id = $1 GROUP BY video_id, with_unreviewed, brand_id) x
       WHERE b.organization_id = $1 AND x.video_id = b.video_id AND x.with_unreviewed = b.with_unreviewed
         AND x.brand_id = b.brand_id`,
      [org],
    );
  });
}

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
    const org = video.organization_id;
    await lockRates(db, tx, org, false);
    const hidden = await hiddenOf(tx, org, video.project_id);
    const rates = new Map(
      (
        await tx.query<{ placement_id: number; rate_per_second: number }>(
          'SELECT placement_id, rate_per_second FROM placement_rates WHERE organization_id = $1',
          [org],
        )
      ).map((r) => [r.placement_id, r.rate_per_second]),
    );
    const detections = (
      await tx.query<DetectionForStats>(
        `SELECT id, brand_id, placement_id, time_begin, time_end, coordinates, review FROM detections
         WHERE video_id = $1 AND review = ANY($2::text[]) ORDER BY id`,
        [videoId, LISTED_REVIEW_STATES],
      )
    ).map((d) => ({ ...d, id: Number(d.id) }));
    const reviewed = detections.filter((d) => d.review !== REVIEW_STATE.UNREVIEWED).length;
    await tx.query('DELETE FROM video_brand_stats WHERE video_id = $1', [videoId]);
    await tx.query('DELETE FROM video_placement_stats WHERE video_id = $1', [videoId]);
    for (const mode of [true, false]) {
      const rows = measureVideo(video, detections, mode, hidden);
      const perPlacement = rows.filter((r) => r.placement_id !== ALL_PLACEMENTS);
      const brands = rows
        .filter((r) => r.placement_id === ALL_PLACEMENTS)
        .map((r) => ({
          ...r,
          media_value: mediaValue(
            perPlacement.filter((p) => p.brand_id === r.brand_id),
            rates,
          ),
        }));
      if (brands.length === 0) continue;
      await tx.query(
        `INSERT INTO video_brand_stats (video_id, organization_id, with_unreviewed, brand_id, ${BRAND_COLUMNS.join(', ')})
         SELECT $1, $2, $3, u.* FROM unnest($4::int[], $5::int[], ${BRAND_COLUMNS.slice(1)
           .map((_, i) => `$${i + 6}::float8[]`)
           .join(', ')}) AS u`,
        [
          videoId,
          org,
          mode,
          brands.map((r) => r.brand_id),
          ...BRAND_COLUMNS.map((c) => brands.map((r) => r[c])),
        ],
      );
      await tx.query(
        `INSERT INTO video_placement_stats (video_id, organization_id, with_unreviewed, brand_id, placement_id,
           detections, exposure_s, valued_s, media_value)
         SELECT $1, $2, $3, u.* FROM unnest($4::int[], $5::int[], $6::int[], $7::float8[], $8::float8[], $9::float8[]) AS u`,
        [
          videoId,
          org,
          mode,
          perPlacement.map((r) => r.brand_id),
          perPlacement.map((r) => r.placement_id),
          perPlacement.map((r) => r.detections),
          perPlacement.map((r) => r.exposure_s),
          perPlacement.map((r) => r.valued_s),
          perPlacement.map((r) => (rates.get(r.placement_id) ?? 0) * r.valued_s),
        ],
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
