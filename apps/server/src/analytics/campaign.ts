import type { Queryable } from '@logo-review/db';
import type { AppContext } from '../context.ts';
import { brandsRepository } from '../repositories/brands.repository.ts';
import { streamDetectionPages } from '../repositories/detections.repository.ts';
import { packSpans } from '../reports/report-job.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';
import { excelReportFileName } from '../reports/report-file-name.ts';
import { hiddenOf } from './analytics-store.ts';
import type { CampaignVideo } from './campaign-report.ts';
import { countedReviews } from './exposure.ts';
import { scopeSql, type Scope } from './scope.ts';
import { getSettings, placementRates } from './settings.ts';

interface ScopedVideo extends CampaignVideo {
  project_id: number | null;
  stored_path: string;
}

/** Videos of a scope in upload order, a page at a time. */
export async function* scopedVideos(
  db: Queryable,
  scope: Scope,
  pageSize = 200,
): AsyncGenerator<ScopedVideo> {
  const where = scopeSql(scope, 1);
  // The keyset keeps created_at as text: a JavaScript Date would drop its microseconds.
  let lastCreated: string | null = null;
  let lastId = 0;
  for (;;) {
    const n = where.params.length;
    const rows: (ScopedVideo & { created_key: string })[] = await db.query(
      `SELECT v.id, v.name, v.created_at, v.created_at::text AS created_key, v.duration, v.width, v.height,
         v.project_id, v.stored_path
       FROM videos v WHERE ${where.sql}
         AND ($${n + 1}::timestamptz IS NULL OR (v.created_at, v.id) > ($${n + 1}::timestamptz, $${n + 2}::int))
       ORDER BY v.created_at, v.id LIMIT ${pageSize}`,
      [...where.params, lastCreated, lastId],
    );
    yield* rows;
    if (rows.length < pageSize) return;
    lastCreated = rows[rows.length - 1].created_key;
    lastId = rows[rows.length - 1].id;
  }
}

/** Writes the campaign report of a scope to `out` (streamed; `out` is ended when complete). */
export async function campaignReport(
  ctx: AppContext,
  scope: Scope,
  out: NodeJS.WritableStream,
): Promise<void> {
  const { db } = ctx;
  const org = scope.org;
  const [settings, rates, brands, placements] = await Promise.all([
    getSettings(db, org),
    placementRates(db, org),
    brandsRepository.list(db, org),
    placementsRepository.list(db, org),
  ]);
  const reviews = countedReviews(scope.includeUnreviewed);
  const hiddenCache = new Map<number, { brandIds: number[]; placementIds: number[] }>();
  const hidden = async (projectId: number | null) => {
    if (!projectId) return { brandIds: [], placementIds: [] };
    let h = hiddenCache.get(projectId);
    if (!h) hiddenCache.set(projectId, (h = await hiddenOf(db, org, projectId)));
    return h;
  };
  const spans = async (v: ScopedVideo) => {
    const h = await hidden(v.project_id);
    return packSpans(
      await db.query<{ brand_id: number; time_begin: number; time_end: number }>(
        `SELECT brand_id, time_begin, time_end FROM detections
       WHERE video_id = $1 AND review = ANY($2::text[])
         AND NOT (brand_id = ANY($3::int[])) AND NOT (placement_id = ANY($4::int[]))`,
        [v.id, reviews, h.brandIds, h.placementIds],
      ),
    );
  };
  async function* detections(v: ScopedVideo) {
    const h = await hidden(v.project_id);
    yield* streamDetectionPages(db, org, {
      videoId: v.id,
      brandIds: [],
      placementIds: [],
      hiddenBrandIds: h.brandIds,
      hiddenPlacementIds: h.placementIds,
      reviews,
    });
  }
  // Built on a report thread (reports/report-threads.ts): this thread reads the database and
  // hands out the video files' paths; the videos cross to the thread and come back as the
  // calls' arguments.
  await ctx.reports.build(
    {
      kind: 'campaign',
      title: scope.title,
      currency: settings.currency,
      includeUnreviewed: scope.includeUnreviewed,
      brands: new Map(
        brands.map((b) => [b.id, { id: b.id, name: b.name, localized_name: b.localized_name }]),
      ),
      placements: new Map(placements.map((p) => [p.id, p])),
      rates,
    },
    {
      streams: { videos: () => scopedVideos(db, scope), detections },
      calls: {
        spans,
        // The file's path: the report's thread cuts the frame (spawning ffmpeg takes a while).
        frameFile: async (video: ScopedVideo) => ctx.storage.resolve(video.stored_path),
      },
    },
    out,
  );
}

/** 'Campaign - {project or folder name}.xlsx', made safe as a file name. */
export function campaignFileName(title: string): string {
  return excelReportFileName(`Campaign - ${title}`);
}
