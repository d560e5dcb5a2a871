import { PassThrough } from 'node:stream';
import { API, ExcelQuery } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { brandsRepository } from '../repositories/brands.repository.ts';
import { streamDetectionPages } from '../repositories/detections.repository.ts';
import { libraryRepository } from '../repositories/library.repository.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';
import { projectsRepository } from '../repositories/projects.repository.ts';
import { tagsRepository } from '../repositories/tags.repository.ts';
import { countedReviews } from '../analytics/exposure.ts';
import { getSettings, placementRates } from '../analytics/settings.ts';
import { attachmentDisposition, excelReportFileName } from '../reports/report-file-name.ts';
import { packSpans } from '../reports/report-job.ts';
import { orgOf } from './auth-hook.ts';
import { assertRefs } from './refs.ts';
import { errors, routes } from './route-kit.ts';

const list = (v: number | number[] | undefined): number[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

export const excelRoutes = (ctx: AppContext) =>
  routes((app) => {
    app.get(
      API.excel,
      {
        schema: {
          tags: ['reports'],
          description:
            "The detection report of a video as .xlsx, streamed: the counted detections (reviewed-true, and unreviewed unless the organization's analytics setting says otherwise). tag_ids adds a sheet per tag; bFilter and pFilter restrict brands and placements (repeat the parameter); the project's hidden brands and placements are left out.",
          querystring: ExcelQuery,
          response: { ...errors },
        },
      },
      async (req, reply) => {
        const org = orgOf(req);
        const q = req.query;
        const video = await libraryRepository.video(ctx.db, org, q.videoId);
        if (!video) throw notFound('Video');
        const tagIds = list(q.tag_ids);
        const bFilter = list(q.bFilter);
        const pFilter = list(q.pFilter);
        await assertRefs(ctx.db, org, 'tags', tagIds, 'tag_ids');
        await assertRefs(ctx.db, org, 'brands', bFilter, 'bFilter');
        await assertRefs(ctx.db, org, 'placements', pFilter, 'pFilter');
        const hidden = video.project_id
          ? await projectsRepository.hidden(ctx.db, org, video.project_id)
          : { brandIds: [], placementIds: [] };
        const [brands, placements, tags, settings, rates] = await Promise.all([
          brandsRepository.list(ctx.db, org),
          placementsRepository.list(ctx.db, org),
          tagIds.length ? tagsRepository.list(ctx.db, org, tagIds) : Promise.resolve([]),
          getSettings(ctx.db, org),
          placementRates(ctx.db, org),
        ]);
        // The organization's setting chooses whether unreviewed detections count (analytics/exposure.ts).
        const reviews = countedReviews(settings.count_unreviewed);
        // Clutter counts the other brands on screen whatever bFilter and pFilter show.
        const spans = await ctx.db.query<{ brand_id: number; time_begin: number; time_end: number }>(
          `SELECT brand_id, time_begin, time_end FROM detections
           WHERE organization_id = $1 AND video_id = $2 AND review = ANY($3::text[])
             AND NOT (brand_id = ANY($4::int[])) AND NOT (placement_id = ANY($5::int[]))`,
          [org, video.id, reviews, hidden.brandIds, hidden.placementIds],
        );
        const rows = streamDetectionPages(ctx.db, org, {
          videoId: video.id,
          brandIds: bFilter,
          placementIds: pFilter,
          hiddenBrandIds: hidden.brandIds,
          hiddenPlacementIds: hidden.placementIds,
          reviews,
        });
        const out = new PassThrough();
        // Built on a report thread (reports/report-threads.ts); this thread serves the rows.
        ctx.reports
          .build(
            {
              kind: 'excel',
              video: {
                id: video.id,
                name: video.name,
                fps: video.fps,
                frames: video.frames,
                duration: video.duration,
                width: video.width,
                height: video.height,
              },
              brands: new Map(
                brands.map((b) => [b.id, { id: b.id, name: b.name, localized_name: b.localized_name }]),
              ),
              placements: new Map(placements.map((p) => [p.id, p])),
              tags,
              withoutPlacement: q.without_placement === true,
              clutterSpans: packSpans(spans),
              rates,
              currency: settings.currency,
            },
            // Pages of rows as JSON text, parsed on the report's thread.
            { streams: { detections: () => rows } },
            out,
          )
          .catch((err: Error) => {
            if (!out.destroyed) req.log.error(err);
            out.destroy(err); // the client sees a broken download, never a silently truncated file
          });
        return reply
          .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('content-disposition', attachmentDisposition(excelReportFileName(video.name)))
          .header('cache-control', 'no-store')
          .send(out);
      },
    );
  });
