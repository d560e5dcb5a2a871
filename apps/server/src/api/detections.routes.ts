import { Type } from '@sinclair/typebox';
import {
  API,
  DetectionPatchBody,
  DetectionsChangeBody,
  DetectionsCreateBody,
  DetectionsPlacementBody,
  DetectionsReportBody,
  DetectionSpansAnswer,
  DetectionSpansQuery,
  DetectionWindowQuery,
  IdParams,
  LIMITS,
  REVIEW_STATE,
} from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { detectionsRepository as repo, listedSql } from '../repositories/detections.repository.ts';
import { placementsRepository } from '../repositories/placements.repository.ts';
import { missingIds } from '../repositories/common.ts';
import { checkGeometry, clipSegments, reviewAction } from '../services/detections.service.ts';
import { mergeSpans, type Span } from '../services/detection-spans.ts';
import { actorOf, orgOf } from './auth-hook.ts';
import { assertRefs } from './refs.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('Detection'));
const Count = Type.Object({ detail: Type.String(), count: Type.Integer() });
const ms = (n: number) => `${Math.round(n)}`;

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
        // Already JSON of the Detection schema (built by the database): sent as it is.
        const body = await repo.windowJson(ctx.db, org, videoId, startTime, endTime, ctx.windowCache);
        if (!body) throw notFound('Video');
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );

    app.get(
      API.detectionSpans,
      {
        schema: {
          tags: ['detections'],
          description:
            "Where each brand's listed detections are over the whole video (the editor's detection strip): " +
            'per brand, its count and its spans in ms, merged (overlaps joined, then the shortest gaps closed) ' +
            'to at most `segments` per brand. Brands in id order.',
          querystring: DetectionSpansQuery,
          response: { 200: DetectionSpansAnswer, ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const { videoId, segments = 200 } = req.query;
        if ((await missingIds(ctx.db, 'videos', org, [videoId])).length > 0) throw notFound('Video');
        const rows = await ctx.db.query<{ brand_id: number; time_begin: number; time_end: number }>(
          `SELECT brand_id, time_begin, time_end FROM detections
           WHERE video_id = $1 AND organization_id = $2 AND ${listedSql('review')}
           ORDER BY brand_id, time_begin`,
          [videoId, org],
        );
        const byBrand = new Map<number, Span[]>();
        for (const r of rows) {
          const brand = Number(r.brand_id);
          let list = byBrand.get(brand);
          if (!list) byBrand.set(brand, (list = []));
          list.push([Number(r.time_begin), Number(r.time_end)]);
        }
        return [...byBrand.entries()]
          .sort(([a], [b]) => a - b)
          .map(([brand, spans]) => ({ brand, count: spans.length, spans: mergeSpans(spans, segments) }));
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
        const actor = actorOf(req);
        const ids = await ctx.db.transaction(async (tx) => {
          const created = await repo.insertMany(
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
              review: REVIEW_STATE.MANUAL,
              source: 'manual',
            })),
            actor,
          );
          await repo.addHistory(
            tx,
            org,
            actor,
            created.map((id) => ({ id, action: 'Created', detail: 'Drawn by hand' })),
          );
          return created;
        });
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
        await repo.setPlacement(ctx.db, org, detectionIds, placementId, actorOf(req));
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
        const count = await repo.changeAll(ctx.db, org, b, actorOf(req));
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
        // False positives and deletions are kept, hidden from lists: a false positive keeps each
        // example's precision measurable, and both can be undone (the review call restores a state).
        const review =
          type === 'truePositive'
            ? REVIEW_STATE.TRUE_POSITIVE
            : type === 'falsePositive'
              ? REVIEW_STATE.FALSE_POSITIVE
              : REVIEW_STATE.DELETED;
        const actor = actorOf(req);
        // A person's box (edited or drawn) confirmed as true stays marked as a person's box.
        const keep = type === 'truePositive' ? [REVIEW_STATE.EDITED, REVIEW_STATE.MANUAL] : [];
        const changed = await ctx.db.transaction(async (tx) => {
          const rows = await repo.setReview(tx, org, detectionIds, review, actor, keep);
          await repo.addHistory(
            tx,
            org,
            actor,
            rows.map((r) => ({ id: r.id, ...reviewAction(r.before, r.after, review) })),
          );
          return rows.length;
        });
        const detail =
          type === 'delete' ? `Deleted ${changed} detections.` : `Reported ${changed} detections as ${type}.`;
        return { detail, count: changed };
      },
    );

    app.patch(
      '/api/videos/detections/:id/',
      {
        schema: {
          tags: ['detections'],
          description:
            'Moves or resizes a detection (new coordinates) and/or trims it (time_begin, time_end: the ' +
            'segments are cut to the new span). An UNREVIEWED or TRUE_POSITIVE detection becomes EDITED; ' +
            'MANUAL, FALSE_POSITIVE and DELETED keep their state.',
          params: IdParams,
          body: DetectionPatchBody,
          response: { 200: Ref('Detection'), ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const actor = actorOf(req);
        const b = req.body;
        if (!b.coordinates && b.time_begin === undefined && b.time_end === undefined)
          throw badRequest('body: give coordinates, time_begin or time_end.');
        await ctx.db.transaction(async (tx) => {
          const cur = await repo.stored(tx, org, req.params.id);
          if (!cur) throw notFound('Detection');
          const trim = b.time_begin !== undefined || b.time_end !== undefined;
          let coordinates = b.coordinates ?? cur.coordinates;
          const span = trim
            ? { time_begin: b.time_begin ?? cur.time_begin, time_end: b.time_end ?? cur.time_end }
            : {
                time_begin: Math.min(cur.time_begin, ...coordinates.map((s) => s.start_time)),
                time_end: Math.max(cur.time_end, ...coordinates.map((s) => s.end_time)),
              };
          if (span.time_begin > span.time_end)
            throw badRequest('body: time_begin must not be after time_end.');
          if (trim) {
            coordinates.forEach((s, i) => {
              if (s.start_time > s.end_time)
                throw badRequest(`body.coordinates.${i}: start_time is after end_time.`);
            });
            coordinates = clipSegments(coordinates, span.time_begin, span.time_end);
            if (coordinates.length === 0)
              throw badRequest('body: no box is left inside time_begin..time_end.');
          }
          checkGeometry('body', span, coordinates);
          await repo.setGeometry(tx, org, req.params.id, { ...span, coordinates }, actor);
          const spanChanged = span.time_begin !== cur.time_begin || span.time_end !== cur.time_end;
          const spanText = `${ms(cur.time_begin)}–${ms(cur.time_end)} ms → ${ms(span.time_begin)}–${ms(span.time_end)} ms`;
          const action = b.coordinates
            ? 'Moved'
            : span.time_begin >= cur.time_begin && span.time_end <= cur.time_end
              ? 'Trimmed'
              : 'Span changed';
          const detail = spanChanged ? spanText : `${coordinates.length} box segment(s)`;
          await repo.addHistory(tx, org, actor, [{ id: req.params.id, action, detail }]);
        });
        return (await repo.byIds(ctx.db, org, [req.params.id]))[0];
      },
    );
  });
