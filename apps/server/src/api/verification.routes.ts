import { Type } from '@sinclair/typebox';
import {
  API,
  IdParams,
  JOBS,
  VIDEO_STATUS,
  VERIFICATION_STATUS,
  VerificationCreateBody,
  VerificationUpdateBody,
  type VerificationVideo,
} from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { libraryRepository } from '../repositories/library.repository.ts';
import {
  verificationRepository as repo,
  type VerificationRow,
} from '../repositories/verification.repository.ts';
import { orgOf } from './auth-hook.ts';
import { assertRefs } from './refs.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('VerificationVideo'));

export function toVerification(ctx: AppContext, v: VerificationRow): VerificationVideo {
  return {
    id: v.id,
    name: v.name,
    video: v.video_id,
    status: v.status,
    status_reason: v.status_reason,
    progress: Math.round(v.progress),
    file_path:
      v.stored_path && v.status === VERIFICATION_STATUS.FINISHED
        ? ctx.signer.sign(`/media/renders/${v.id}/verification.mp4`)
        : null,
  };
}

export const verificationRoutes = (ctx: AppContext) =>
  routes((app) => {
    const list = async (org: number) => (await repo.list(ctx.db, org)).map((v) => toVerification(ctx, v));

    app.get(
      API.verification,
      { schema: { tags: ['verification'], response: { 200: List, ...errors } } },
      async (req) => list(orgOf(req)),
    );

    app.post(
      API.verification,
      {
        schema: { tags: ['verification'], body: VerificationCreateBody, response: { 201: List, ...errors } },
      },
      async (req, reply) => {
        const org = orgOf(req);
        const name = req.body.name.trim();
        if (!name) throw badRequest('name: is required.');
        await assertRefs(ctx.db, org, 'videos', [req.body.video], 'video');
        const video = (await libraryRepository.video(ctx.db, org, req.body.video))!;
        if (video.status !== VIDEO_STATUS.OK) {
          throw badRequest(`video: ${video.name} is not analysed yet (status ${video.status}).`);
        }
        const id = await repo.insert(ctx.db, org, name, req.body.video);
        await ctx.jobs.send(JOBS.renderVerification, { organizationId: org, verificationId: id });
        return reply.code(201).send(await list(org));
      },
    );

    app.put(
      API.verification,
      {
        schema: { tags: ['verification'], body: VerificationUpdateBody, response: { 200: List, ...errors } },
      },
      async (req) => {
        const org = orgOf(req);
        const v = await repo.get(ctx.db, org, req.body.id);
        if (!v) throw notFound('Verification video');
        if (req.body.video !== undefined && req.body.video !== v.video_id) {
          throw badRequest('video: cannot be changed; create a new verification video instead.');
        }
        if (req.body.name !== undefined) {
          const name = req.body.name.trim();
          if (!name) throw badRequest('name: is required.');
          await repo.rename(ctx.db, org, v.id, name);
        }
        return list(org);
      },
    );

    app.delete(
      '/api/videos/verification/:id',
      { schema: { tags: ['verification'], params: IdParams, response: { 200: List, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const v = await repo.get(ctx.db, org, req.params.id);
        if (!v) throw notFound('Verification video');
        await repo.delete(ctx.db, org, v.id);
        await ctx.storage.remove(v.stored_path);
        return list(org);
      },
    );
  });
