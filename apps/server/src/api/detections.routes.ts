import { Type } from '@sinclair/typebox';
import {
  API,
  DetectionPatchBody,
  DetectionsChangeBody,
  DetectionsCreateBody,
  DetectionsPlacementBody,
  DetectionsReportBody,
  DetectionWindowQuery,
  IdParams,
  LIMITS,
  REVIEW_STATE,
} from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { detectionsRepository as repo } from '../repositories/detections.repository.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';
import { missingIds } from '../repositories/common.ts';
import { checkGeometry } from '../services/detections.service.ts';
import { orgOf } from './auth-hook.ts';
import { assertRefs } from './refs.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('Detection'));
const Count = Type.Object({ detail: Type.String(), count: Type.Integer() });

export const detectionsRoutes = (ctx: AppContext) =>
  routes((app) => {
    /** 404 unless every id is a detection of the caller's organization. */
    async function assertDetections(org: number, ids: number[]) {
      if ((await missingIds(ctx.db, 'detections', org, ids)).length > 0) throw notFound('Detection');
    }

    app.get(
      API.detections,
      {
        schema: {
          tags: ['detections'],
          querystring: DetectionWindowQuery,
          response: { 200: List, ...errors },
        },
      },
      async (req, reply) => {
        const org = orgOf(req);
        const { videoId, startTime, endTime } = req.query;
        if (startTime > endTime) throw badRequest('startTime: must not be after endTime.');
        if (endTime - startTime > LIMITS.detectionWindowMaxMs)
          throw badRequest('endTime: the window is too long.');
        if ((await missingIds(ctx.db, 'videos', org, [videoId])).length > 0) throw notFound('Video');
        // Already JSON of the Detection schema (built by the database): sent as it is.
        return reply
          .type('application/json; charset=utf-8')
          .send(await repo.windowJson(ctx.db, org, videoId, startTime, endTime));
      },
    );

    app.post(
      API.detections,
      { schema: { tags: ['detections'], body: DetectionsCreateBody, response: { 201: List, ...errors } } },
      async (req, reply) => {
        const org = orgOf(req);
        const list = req.body.detections;
        list.forEach((d, i) => checkGeometry(`detections.${i}`, d, d.coordinates));
        const refs = [
          ['videos', 'video'],
          ['brands', 'brand'],
          ['placements', 'placement'],
        ] as const;
        for (const [table, field] of refs)
          await assertRefs(
            ctx.db,
            org,
            table,
            list.map((d) => d[field]),
            field,
          );
        const auto = await placementsRepository.automaticIds(ctx.db, org);
        const automatic = new Set(Object.values(auto));
        const ids = await ctx.db.transaction((tx) =>
          repo.insertMany(
            tx,
            org,
            list.map((d) => ({
              video_id: d.video,
              brand_id: d.brand,
              placement_id: d.placement,
              auto_placement_id: automatic.has(d.placement) ? d.placement : auto.IN_SCENE,
              logo_id: null,
              time_begin: d.time_begin,
              time_end: d.time_end,
              coordinates: d.coordinates,
              confidence: null,
              // Drawn by a person: reviewed by definition.
              review: REVIEW_STATE.TRUE_POSITIVE,
              source: 'manual',
            })),
          ),
        );
        return reply.code(201).send(await repo.byIds(ctx.db, org, ids));
      },
    );

    app.put(
      API.detections,
      { schema: { tags: ['detections'], body: DetectionsPlacementBody, response: { 200: List, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const { placementId, detectionIds } = req.body;
        await assertRefs(ctx.db, org, 'placements', [placementId], 'placementId');
        await assertDetections(org, detectionIds);
        await repo.setPlacement(ctx.db, org, detectionIds, placementId);
        return repo.byIds(ctx.db, org, detectionIds);
      },
    );

    app.put(
      API.detectionsChange,
      { schema: { tags: ['detections'], body: DetectionsChangeBody, response: { 200: Count, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const b = req.body;
        if ((await missingIds(ctx.db, 'videos', org, [b.videoId])).length > 0) throw notFound('Video');
        await assertRefs(ctx.db, org, 'placements', [b.newPlacementId], 'newPlacementId');
        await assertRefs(ctx.db, org, 'brands', b.brandIds, 'brandIds');
        await assertRefs(ctx.db, org, 'placements', b.placementIds, 'placementIds');
        const count = await repo.changeAll(ctx.db, org, b);
        return { detail: `Changed the placement of ${count} detections.`, count };
      },
    );

    app.put(
      API.detectionsReport,
      { schema: { tags: ['detections'], body: DetectionsReportBody, response: { 200: Count, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const { detectionIds, type } = req.body;
        await assertDetections(org, detectionIds);
        if (type === 'delete') {
          const count = await repo.delete(ctx.db, org, detectionIds);
          return { detail: `Deleted ${count} detections.`, count };
        }
        // A false positive is kept (hidden from lists) so that each example's precision stays measurable.
        const review = type === 'truePositive' ? REVIEW_STATE.TRUE_POSITIVE : REVIEW_STATE.FALSE_POSITIVE;
        const count = await repo.setReview(ctx.db, org, detectionIds, review);
        return { detail: `Reported ${count} detections as ${type}.`, count };
      },
    );

    app.patch(
      '/api/videos/detections/:id/',
      {
        schema: {
          tags: ['detections'],
          description: 'Moves or resizes a detection: new coordinates (and optionally a new span).',
          params: IdParams,
          body: DetectionPatchBody,
          response: { 200: Ref('Detection'), ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const current = await repo.spans(ctx.db, org, req.params.id);
        if (!current) throw notFound('Detection');
        const { coordinates } = req.body;
        const span = {
          time_begin:
            req.body.time_begin ?? Math.min(current.time_begin, ...coordinates.map((s) => s.start_time)),
          time_end: req.body.time_end ?? Math.max(current.time_end, ...coordinates.map((s) => s.end_time)),
        };
        checkGeometry('body', span, coordinates);
        await repo.setGeometry(ctx.db, org, req.params.id, { ...span, coordinates });
        return (await repo.byIds(ctx.db, org, [req.params.id]))[0];
      },
    );
  });
