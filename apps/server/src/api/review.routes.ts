import { Type } from '@sinclair/typebox';
import {
  API,
  DetectionHistory,
  DetectionSplitBody,
  DetectionsMergeBody,
  DetectionsReviewBody,
  IdParams,
  LISTED_REVIEW_STATES,
  Nullable,
  ReviewNextQuery,
  REVIEW_STATE,
  type ReviewState,
} from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { missingIds } from '../repositories/common.ts';
import { detectionsRepository as repo } from '../repositories/detections.repository.ts';
import { mergeGeometry, reviewAction, splitGeometry } from '../services/detections.service.ts';
import { actorOf, orgOf } from './auth-hook.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('Detection'));
const NextAnswer = Type.Object({ detection: Nullable(Ref('Detection')), queue: List });
const list = (v: number | number[] | undefined): number[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];
const isListed = (s: string) => (LISTED_REVIEW_STATES as readonly string[]).includes(s);
/** After a split or merge by a person: a drawn detection stays MANUAL, any other becomes EDITED. */
const editedState = (...states: string[]): ReviewState =>
  states.every((s) => s === REVIEW_STATE.MANUAL) ? REVIEW_STATE.MANUAL : REVIEW_STATE.EDITED;

/** The review loop: any review state (verdicts and their undo), history, split and merge. */
export const reviewRoutes = (ctx: AppContext) =>
  routes((app) => {
    app.put(
      API.detectionsReview,
      {
        schema: {
          tags: ['detections'],
          description:
            'Sets the review state of detections: a verdict, or the undo/redo of one (any state back, ' +
            'e.g. DELETED back to TRUE_POSITIVE). Answers the detections that are listed afterwards.',
          body: DetectionsReviewBody,
          response: { 200: List, ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const { detectionIds, review } = req.body;
        if ((await missingIds(ctx.db, 'detections', org, detectionIds)).length > 0)
          throw notFound('Detection');
        const actor = actorOf(req);
        await ctx.db.transaction(async (tx) => {
          const rows = await repo.setReview(tx, org, detectionIds, review, actor);
          await repo.addHistory(
            tx,
            org,
            actor,
            rows.map((r) => ({ id: r.id, ...reviewAction(r.before, r.after) })),
          );
        });
        return (await repo.byIds(ctx.db, org, detectionIds)).filter((d) => isListed(d.review));
      },
    );

    app.get(
      API.detectionsNext,
      {
        schema: {
          tags: ['detections'],
          description:
            "The review queue's next detection over the whole video, by confidence: the most confident " +
            'unreviewed detection (hand-drawn ones, without confidence, last; ties by start time, then id) ' +
            "that brandIds, placementIds and minConfidence let through, leaving out the video's project's " +
            'hidden brands and placements and the exclude ids (verdicts still on their way). ' +
            'Repeat a list parameter for more ids. detection is null when none is left; queue holds the ' +
            "queue's first `limit` detections (default 1) in order, detection first.",
          querystring: ReviewNextQuery,
          response: { 200: NextAnswer, ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const q = req.query;
        const queue = await ctx.db.transaction(async (tx) => {
          // Walk detections_review_queue_idx in its order (the first entries that pass the filters are the
          // answer) whatever the statistics say: right after an analysis wrote a video's detections they
          // are stale (PGlite never gathers them), and the planner then sorted all 50,000 of the video's
          // rows, wide ones, for every verdict (~0.4 s instead of ~1 ms). Both settings in one statement:
          // on a busy machine each round trip to the database costs more than the query.
          await tx.exec('SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off');
          return repo.queueByConfidence(tx, org, {
            videoId: q.videoId,
            exclude: list(q.exclude),
            brandIds: list(q.brandIds),
            placementIds: list(q.placementIds),
            minConfidence: q.minConfidence ?? 0,
            limit: q.limit ?? 1,
          });
        });
        // The query reads only this organization's detections: an empty queue may be a video not found.
        if (queue.length === 0 && (await missingIds(ctx.db, 'videos', org, [q.videoId])).length > 0)
          throw notFound('Video');
        return { detection: queue[0] ?? null, queue };
      },
    );

    app.get(
      '/api/videos/detections/:id/history/',
      {
        schema: {
          tags: ['detections'],
          description: "A detection's review history, newest first.",
          params: IdParams,
          response: { 200: DetectionHistory, ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        if ((await missingIds(ctx.db, 'detections', org, [req.params.id])).length > 0)
          throw notFound('Detection');
        return repo.history(ctx.db, org, req.params.id);
      },
    );

    app.post(
      '/api/videos/detections/:id/split/',
      {
        schema: {
          tags: ['detections'],
          description:
            'Splits a detection at a time strictly inside its span: the detection keeps its id and ' +
            'becomes the left part; the right part is a new detection. Answers [left, right].',
          params: IdParams,
          body: DetectionSplitBody,
          response: { 200: List, ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const actor = actorOf(req);
        const { time } = req.body;
        const ids = await ctx.db.transaction(async (tx) => {
          const d = await repo.stored(tx, org, req.params.id);
          if (!d) throw notFound('Detection');
          if (!isListed(d.review)) throw badRequest('id: the detection is deleted or a false positive.');
          const [left, right] = splitGeometry(d, time);
          const review = editedState(d.review);
          await repo.setGeometry(tx, org, d.id, left, actor);
          await repo.setReview(tx, org, [d.id], review, actor);
          const [rightId] = await repo.insertMany(
            tx,
            org,
            [
              {
                video_id: d.video_id,
                brand_id: d.brand_id,
                placement_id: d.placement_id,
                auto_placement_id: d.auto_placement_id,
                logo_id: d.logo_id,
                confidence: d.confidence,
                source: d.source,
                review,
                ...right,
              },
            ],
            actor,
          );
          const at = `at ${Math.round(time)} ms`;
          await repo.addHistory(tx, org, actor, [
            { id: d.id, action: 'Split', detail: `${at}; the part after it is #${rightId}` },
            { id: rightId, action: 'Split', detail: `${at}; the part before it is #${d.id}` },
          ]);
          return [d.id, rightId];
        });
        return repo.byIds(ctx.db, org, ids);
      },
    );

    app.post(
      API.detectionsMerge,
      {
        schema: {
          tags: ['detections'],
          description:
            'Merges two detections of one video and brand: the one that begins first keeps its id and ' +
            'gets both spans and boxes; the other is deleted (soft: the review call restores it).',
          body: DetectionsMergeBody,
          response: { 200: Ref('Detection'), ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const actor = actorOf(req);
        const [x, y] = req.body.detectionIds;
        if (x === y) throw badRequest('detectionIds: two different detections are needed.');
        const id = await ctx.db.transaction(async (tx) => {
          // Locked in id order: two merges of the same pair cannot deadlock.
          const [p, q] = x < y ? [x, y] : [y, x];
          const dp = await repo.stored(tx, org, p);
          const dq = await repo.stored(tx, org, q);
          if (!dp || !dq) throw notFound('Detection');
          if (dp.video_id !== dq.video_id)
            throw badRequest('detectionIds: the detections are of different videos.');
          if (dp.brand_id !== dq.brand_id)
            throw badRequest('detectionIds: the detections are of different brands.');
          if (!isListed(dp.review) || !isListed(dq.review))
            throw badRequest('detectionIds: a detection is deleted or a false positive.');
          const [a, b] =
            dp.time_begin < dq.time_begin || (dp.time_begin === dq.time_begin && dp.id < dq.id)
              ? [dp, dq]
              : [dq, dp];
          await repo.setGeometry(tx, org, a.id, mergeGeometry(a, b), actor);
          await repo.setReview(tx, org, [a.id], editedState(a.review, b.review), actor);
          await repo.setReview(tx, org, [b.id], REVIEW_STATE.DELETED, actor);
          await repo.addHistory(tx, org, actor, [
            { id: a.id, action: 'Merged', detail: `#${b.id} merged into this detection` },
            { id: b.id, action: 'Merged', detail: `Merged into #${a.id} (${b.review} → DELETED)` },
          ]);
          return a.id;
        });
        return (await repo.byIds(ctx.db, org, [id]))[0];
      },
    );
  });
