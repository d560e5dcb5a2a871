import { VIDEO_STATUS, type Dashboard, type Processing } from '@logo-review/contract';
import type { Database, Queryable } from '@logo-review/db';
import { refreshDirty } from './analytics-store.ts';
import { addTotals, emptyTotals, means, type ExposureTotals } from './exposure.ts';
import { scopeSql, type Scope } from './scope.ts';
import { getSettings, placementRates } from './settings.ts';

/** Videos whose measured speed makes the ETA. */
const SPEED_SAMPLE = 20;
const TOP_VIDEOS = 5;
const FAILED_MAX = 50;

const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Seconds to the millisecond (the detections' own precision), for the long per-video lists:
 * 1,000 videos make the answer a third smaller without 15-digit floats.
 */
const roundMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Brands whose exposure per video the timeline carries (the scope's largest). */
const TIMELINE_BRANDS = 5;

interface BrandSums extends ExposureTotals {
  brand_id: number;
  videos: number;
  media_value: number;
}

/**
 * Everything the dashboard shows for a scope. Reads the per-video aggregates (refreshing the
 * organization's dirty videos first) and sums them in SQL, never the detections themselves.
 * Additive measures are summed over videos and means re-weighted, as exposure.ts defines.
 */
export async function dashboard(db: Database, scope: Scope): Promise<Dashboard> {
  await refreshDirty(db, scope.org);
  const videoWhere = scopeSql(scope, 1);
  const where = scopeSql(scope, 2);
  const mode = [scope.includeUnreviewed, ...where.params];
  const [
    settings,
    rates,
    videos,
    brandRows,
    placementRows,
    videoTotals,
    topRows,
    brands,
    placements,
    processing,
  ] = await Promise.all([
    getSettings(db, scope.org),
    placementRates(db, scope.org),
    db.query<{
      id: number;
      name: string;
      created_at: string;
      duration: number;
      total: number;
      reviewed: number;
    }>(
      `SELECT v.id, v.name, ${iso('v.created_at')} AS created_at, v.duration,
           coalesce(r.total, 0) AS total, coalesce(r.reviewed, 0) AS reviewed
         FROM videos v LEFT JOIN video_review_stats r ON r.video_id = v.id
         WHERE ${videoWhere.sql} ORDER BY v.created_at, v.id`,
      videoWhere.params,
    ),
    db.query<BrandSums>(
      `SELECT s.brand_id, sum(s.detections)::int AS detections, count(*)::int AS videos,
           sum(s.exposure_s) AS exposure_s, sum(s.size_weighted_s) AS size_weighted_s, sum(s.valued_s) AS valued_s,
           sum(s.share_w) AS share_w, sum(s.weight) AS weight, max(s.max_share) AS max_share,
           sum(s.position_w) AS position_w, sum(s.clutter_w) AS clutter_w,
           sum(s.clutter_factor_w) AS clutter_factor_w, sum(s.duration_ms) AS duration_ms,
           sum(s.media_value) AS media_value
         FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
         WHERE s.with_unreviewed = $1 AND ${where.sql}
         GROUP BY s.brand_id`,
      mode,
    ),
    db.query<{ brand_id: number; placement_id: number; exposure_s: number; media_value: number }>(
      `SELECT s.brand_id, s.placement_id, sum(s.exposure_s) AS exposure_s, sum(s.media_value) AS media_value
         FROM video_placement_stats s JOIN videos v ON v.id = s.video_id
         WHERE s.with_unreviewed = $1 AND ${where.sql}
         GROUP BY s.brand_id, s.placement_id`,
      mode,
    ),
    db.query<{ video_id: number; exposure_s: number }>(
      `SELECT s.video_id, sum(s.exposure_s) AS exposure_s
         FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
         WHERE s.with_unreviewed = $1 AND ${where.sql}
         GROUP BY s.video_id`,
      mode,
    ),
    db.query<{ video_id: number; brand_id: number; exposure_s: number; media_value: number }>(
      `SELECT video_id, brand_id, exposure_s, media_value FROM (
           SELECT s.video_id, s.brand_id, s.exposure_s, s.media_value,
             row_number() OVER (PARTITION BY s.brand_id ORDER BY s.exposure_s DESC, s.video_id) AS rank
           FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
           WHERE s.with_unreviewed = $1 AND ${where.sql}) x
         WHERE rank <= ${TOP_VIDEOS} ORDER BY brand_id, rank`,
      mode,
    ),
    db.query<{ id: number; name: string; localized_name: string }>(
      'SELECT id, name, localized_name FROM brands WHERE organization_id = $1',
      [scope.org],
    ),
    db.query<{ id: number; localized_name: string; color: string }>(
      'SELECT id, localized_name, color FROM placements WHERE organization_id = $1',
      [scope.org],
    ),
    processingList(db, scope),
  ]);

  const videoById = new Map(videos.map((v) => [v.id, v]));
  const brandById = new Map(brands.map((b) => [b.id, b]));
  const placementById = new Map(placements.map((p) => [p.id, p]));
  const brandList = brandRows
    .filter((b) => brandById.has(b.brand_id))
    .sort((a, b) => b.exposure_s - a.exposure_s || a.brand_id - b.brand_id);
  const voiceTotal = brandList.reduce((sum, b) => sum + b.exposure_s, 0);

  // The timeline's series: the scope's largest brands, per video.
  const series = brandList.slice(0, TIMELINE_BRANDS).map((b) => b.brand_id);
  const seriesRows = series.length
    ? await db.query<{ video_id: number; brand_id: number; exposure_s: number }>(
        `SELECT s.video_id, s.brand_id, s.exposure_s FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
         WHERE s.with_unreviewed = $1 AND ${where.sql} AND s.brand_id = ANY($${where.params.length + 2}::int[])
         ORDER BY s.video_id, s.brand_id`,
        [...mode, series],
      )
    : [];
  const seriesByVideo = new Map<number, { brand_id: number; exposure_seconds: number }[]>();
  for (const r of seriesRows) {
    const list = seriesByVideo.get(r.video_id) ?? [];
    list.push({ brand_id: r.brand_id, exposure_seconds: roundMs(r.exposure_s) });
    seriesByVideo.set(r.video_id, list);
  }
  const totalByVideo = new Map(videoTotals.map((r) => [r.video_id, r.exposure_s]));

  const placementAgg = new Map<
    number,
    {
      exposure: number;
      media_value: number;
      brands: { brand_id: number; exposure_seconds: number; media_value: number }[];
    }
  >();
  for (const r of placementRows) {
    let p = placementAgg.get(r.placement_id);
    if (!p) placementAgg.set(r.placement_id, (p = { exposure: 0, media_value: 0, brands: [] }));
    p.exposure += r.exposure_s;
    p.media_value += r.media_value;
    p.brands.push({ brand_id: r.brand_id, exposure_seconds: r.exposure_s, media_value: r.media_value });
  }

  let reviewTotal = 0;
  let reviewed = 0;
  for (const v of videos) {
    reviewTotal += v.total;
    reviewed += v.reviewed;
  }
  const share = (a: number, b: number) => (b > 0 ? a / b : 0);
  const totals = emptyTotals();
  let totalValue = 0;
  for (const b of brandList) {
    addTotals(totals, b);
    totalValue += b.media_value;
  }
  const top = new Map<number, typeof topRows>();
  for (const r of topRows) top.set(r.brand_id, [...(top.get(r.brand_id) ?? []), r]);

  return {
    scope: {
      project: scope.project,
      folder: scope.folder,
      from: scope.from,
      to: scope.to,
      include_unreviewed: scope.includeUnreviewed,
    },
    currency: settings.currency,
    videos: videos.length,
    totals: {
      detections: totals.detections,
      exposure_seconds: totals.exposure_s,
      size_weighted_seconds: totals.size_weighted_s,
      media_value: totalValue,
    },
    brands: brandList.map((b) => {
      const m = means(b);
      const brand = brandById.get(b.brand_id)!;
      return {
        brand: { id: brand.id, name: brand.name, localized_name: brand.localized_name },
        detections: b.detections,
        videos: b.videos,
        exposure_seconds: b.exposure_s,
        share_of_voice: share(b.exposure_s, voiceTotal),
        size_weighted_seconds: b.size_weighted_s,
        mean_share_of_frame: m.mean_share,
        position_weight: m.position_weight,
        clutter: m.clutter,
        media_value: b.media_value,
      };
    }),
    placements: [...placementAgg.entries()]
      .filter(([id]) => placementById.has(id))
      .sort((a, b) => b[1].exposure - a[1].exposure || a[0] - b[0])
      .map(([id, p]) => ({
        placement: placementById.get(id)!,
        exposure_seconds: p.exposure,
        media_value: p.media_value,
        rate_per_second: rates.get(id) ?? 0,
        brands: p.brands.sort((a, b) => b.exposure_seconds - a.exposure_seconds || a.brand_id - b.brand_id),
      })),
    timeline: videos.map((v) => ({
      video: { id: v.id, name: v.name, created_at: v.created_at },
      exposure_seconds: roundMs(totalByVideo.get(v.id) ?? 0),
      brands: seriesByVideo.get(v.id) ?? [],
    })),
    top_videos: brandList.map((b) => ({
      brand_id: b.brand_id,
      videos: (top.get(b.brand_id) ?? []).map((x) => {
        const v = videoById.get(x.video_id)!;
        return {
          video: { id: v.id, name: v.name },
          exposure_seconds: x.exposure_s,
          share_of_video: v.duration > 0 ? Math.min(1, x.exposure_s / v.duration) : 0,
          media_value: x.media_value,
        };
      }),
    })),
    review: {
      overall: { total: reviewTotal, reviewed, share: share(reviewed, reviewTotal) },
      videos: videos
        .map((v) => ({
          video: { id: v.id, name: v.name },
          total: v.total,
          reviewed: v.reviewed,
          share: Math.round(share(v.reviewed, v.total) * 1e4) / 1e4,
        }))
        .sort(
          (a, b) => a.share - b.share || a.video.name.localeCompare(b.video.name) || a.video.id - b.video.id,
        ),
    },
    processing,
  };
}

/** Videos waiting or analysing (with an ETA from the measured speed) and failed ones. */
export async function processingList(db: Queryable, scope: Scope): Promise<Processing> {
  const where = scopeSql(scope, 1);
  const active = [VIDEO_STATUS.UPLOADED, VIDEO_STATUS.QUEUED, VIDEO_STATUS.PROCESSING];
  const [speedRow] = await db.query<{ video_s: number | null; wall_s: number | null }>(
    `SELECT sum(duration) AS video_s, sum(analysis_wall_seconds) AS wall_s FROM (
       SELECT duration, analysis_wall_seconds FROM videos
       WHERE organization_id = $1 AND analysis_wall_seconds IS NOT NULL
       ORDER BY analysis_finished_at DESC LIMIT ${SPEED_SAMPLE}) x`,
    [scope.org],
  );
  const speed = speedRow?.wall_s && speedRow.video_s ? speedRow.video_s / speedRow.wall_s : null;
  const rows = await db.query<{
    id: number;
    name: string;
    status: string;
    progress: number;
    duration: number;
    status_reason: string;
    updated_at: string;
  }>(
    `SELECT v.id, v.name, v.status, v.progress, v.duration, v.status_reason, ${iso('v.updated_at')} AS updated_at
     FROM videos v WHERE ${where.sql} AND v.status = ANY($${where.params.length + 1}::text[])
     ORDER BY v.created_at, v.id`,
    [...where.params, [...active, VIDEO_STATUS.ERROR]],
  );
  const running = rows
    .filter((r) => r.status !== VIDEO_STATUS.ERROR)
    .sort(
      (a, b) => Number(b.status === VIDEO_STATUS.PROCESSING) - Number(a.status === VIDEO_STATUS.PROCESSING),
    );
  let ahead = 0;
  const activeList = running.map((r) => {
    const remaining = r.duration * (1 - Math.min(100, Math.max(0, r.progress)) / 100);
    ahead += remaining;
    return {
      video: { id: r.id, name: r.name },
      status: r.status,
      progress: r.progress,
      duration: r.duration,
      // A video being analysed: its remaining seconds; a waiting one also waits for those before it.
      eta_seconds: speed === null ? null : (r.status === VIDEO_STATUS.PROCESSING ? remaining : ahead) / speed,
    };
  });
  const failed = rows
    .filter((r) => r.status === VIDEO_STATUS.ERROR)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id)
    .slice(0, FAILED_MAX)
    .map((r) => ({ video: { id: r.id, name: r.name }, reason: r.status_reason, updated_at: r.updated_at }));
  return { speed, active: activeList, failed };
}
