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

interface VideoBrandRow extends ExposureTotals {
  video_id: number;
  brand_id: number;
}

/**
 * Everything the dashboard shows for a scope. Reads the per-video aggregates (refreshing the
 * organization's dirty videos first), never the detections themselves.
 */
export async function dashboard(db: Database, scope: Scope): Promise<Dashboard> {
  await refreshDirty(db, scope.org);
  const where = scopeSql(scope, 2);
  const videoWhere = scopeSql(scope, 1);
  const [settings, rates, videos, rows, placementRows, mediaRows, brands, placements, processing] =
    await Promise.all([
      getSettings(db, scope.org),
      placementRates(db, scope.org),
      db.query<{ id: number; name: string; created_at: string; duration: number; total: number; reviewed: number }>(
        `SELECT v.id, v.name, ${iso('v.created_at')} AS created_at, v.duration,
           coalesce(r.total, 0) AS total, coalesce(r.reviewed, 0) AS reviewed
         FROM videos v LEFT JOIN video_review_stats r ON r.video_id = v.id
         WHERE ${videoWhere.sql} ORDER BY v.created_at, v.id`,
        videoWhere.params,
      ),
      db.query<VideoBrandRow>(
        `SELECT s.video_id, s.brand_id, s.detections, s.exposure_s, s.size_weighted_s, s.valued_s, s.share_w,
           s.weight, s.max_share, s.position_w, s.clutter_w, s.clutter_factor_w, s.duration_ms
         FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
         WHERE s.with_unreviewed = $1 AND s.placement_id = 0 AND ${where.sql}
         ORDER BY v.created_at, v.id, s.brand_id`,
        [scope.includeUnreviewed, ...where.params],
      ),
      db.query<{ brand_id: number; placement_id: number; exposure_s: number; valued_s: number }>(
        `SELECT s.brand_id, s.placement_id, sum(s.exposure_s) AS exposure_s, sum(s.valued_s) AS valued_s
         FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
         WHERE s.with_unreviewed = $1 AND s.placement_id <> 0 AND ${where.sql}
         GROUP BY s.brand_id, s.placement_id`,
        [scope.includeUnreviewed, ...where.params],
      ),
      // Media value per video and brand: sum over placements of rate x valued seconds.
      db.query<{ video_id: number; brand_id: number; media_value: number }>(
        `SELECT s.video_id, s.brand_id, sum(s.valued_s * r.rate_per_second) AS media_value
         FROM video_brand_stats s JOIN videos v ON v.id = s.video_id
         JOIN placement_rates r ON r.placement_id = s.placement_id
         WHERE s.with_unreviewed = $1 AND s.placement_id <> 0 AND ${where.sql}
         GROUP BY s.video_id, s.brand_id`,
        [scope.includeUnreviewed, ...where.params],
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
  const mediaValue = new Map(mediaRows.map((r) => [`${r.video_id}:${r.brand_id}`, Number(r.media_value)]));

  // Per brand across videos: totals summed in video order (the campaign report sums the same way).
  const byBrand = new Map<number, { totals: ExposureTotals; videos: number; media_value: number }>();
  const timeline = new Map<number, { exposure: number; brands: { brand_id: number; exposure_seconds: number }[] }>();
  const perBrandVideos = new Map<number, { video_id: number; exposure: number; media_value: number }[]>();
  for (const r of rows) {
    const mv = mediaValue.get(`${r.video_id}:${r.brand_id}`) ?? 0;
    let b = byBrand.get(r.brand_id);
    if (!b) byBrand.set(r.brand_id, (b = { totals: emptyTotals(), videos: 0, media_value: 0 }));
    addTotals(b.totals, r);
    b.videos++;
    b.media_value += mv;
    let t = timeline.get(r.video_id);
    if (!t) timeline.set(r.video_id, (t = { exposure: 0, brands: [] }));
    t.exposure += r.exposure_s;
    t.brands.push({ brand_id: r.brand_id, exposure_seconds: r.exposure_s });
    const list = perBrandVideos.get(r.brand_id) ?? [];
    list.push({ video_id: r.video_id, exposure: r.exposure_s, media_value: mv });
    perBrandVideos.set(r.brand_id, list);
  }
  const voiceTotal = [...byBrand.values()].reduce((s, b) => s + b.totals.exposure_s, 0);
  const brandList = [...byBrand.entries()]
    .filter(([id]) => brandById.has(id))
    .sort((a, b) => b[1].totals.exposure_s - a[1].totals.exposure_s || a[0] - b[0]);

  const placementAgg = new Map<
    number,
    { exposure: number; media_value: number; brands: { brand_id: number; exposure_seconds: number; media_value: number }[] }
  >();
  for (const r of placementRows) {
    const rate = rates.get(r.placement_id) ?? 0;
    let p = placementAgg.get(r.placement_id);
    if (!p) placementAgg.set(r.placement_id, (p = { exposure: 0, media_value: 0, brands: [] }));
    const mv = rate * r.valued_s;
    p.exposure += r.exposure_s;
    p.media_value += mv;
    p.brands.push({ brand_id: r.brand_id, exposure_seconds: r.exposure_s, media_value: mv });
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
  for (const [, b] of brandList) {
    addTotals(totals, b.totals);
    totalValue += b.media_value;
  }

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
    brands: brandList.map(([id, b]) => {
      const m = means(b.totals);
      const brand = brandById.get(id)!;
      return {
        brand: { id, name: brand.name, localized_name: brand.localized_name },
        detections: b.totals.detections,
        videos: b.videos,
        exposure_seconds: b.totals.exposure_s,
        share_of_voice: share(b.totals.exposure_s, voiceTotal),
        size_weighted_seconds: b.totals.size_weighted_s,
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
      exposure_seconds: timeline.get(v.id)?.exposure ?? 0,
      brands: timeline.get(v.id)?.brands ?? [],
    })),
    top_videos: brandList.map(([id]) => ({
      brand_id: id,
      videos: (perBrandVideos.get(id) ?? [])
        .sort((a, b) => b.exposure - a.exposure || a.video_id - b.video_id)
        .slice(0, TOP_VIDEOS)
        .map((x) => {
          const v = videoById.get(x.video_id)!;
          return {
            video: { id: v.id, name: v.name },
            exposure_seconds: x.exposure,
            share_of_video: v.duration > 0 ? Math.min(1, x.exposure / v.duration) : 0,
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
          share: share(v.reviewed, v.total),
        }))
        .sort((a, b) => a.share - b.share || a.video.name.localeCompare(b.video.name) || a.video.id - b.video.id),
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
      (a, b) =>
        Number(b.status === VIDEO_STATUS.PROCESSING) - Number(a.status === VIDEO_STATUS.PROCESSING),
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
      eta_seconds:
        speed === null ? null : (r.status === VIDEO_STATUS.PROCESSING ? remaining : ahead) / speed,
    };
  });
  const failed = rows
    .filter((r) => r.status === VIDEO_STATUS.ERROR)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id - a.id)
    .slice(0, FAILED_MAX)
    .map((r) => ({ video: { id: r.id, name: r.name }, reason: r.status_reason, updated_at: r.updated_at }));
  return { speed, active: activeList, failed };
}
