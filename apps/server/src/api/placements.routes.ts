import { Type } from '@sinclair/typebox';
import { API, IdParams, PlacementCreateBody, PlacementUpdateBody } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { placementsRepository as repo } from '../repositories/placements.repository.ts';
import { orgOf } from './auth-hook.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('Placement'));

export const placementsRoutes = (ctx: AppContext) =>
  routes((app) => {
    app.get(
      API.placements,
      { schema: { tags: ['placements'], response: { 200: List, ...errors } } },
      async (req) => repo.list(ctx.db, orgOf(req)),
    );

    app.post(
      API.placements,
      { schema: { tags: ['placements'], body: PlacementCreateBody, response: { 201: List, ...errors } } },
      async (req, reply) => {
        const org = orgOf(req);
        // A new placement without a colour is black (spec, section 5).
        await repo.insert(
          ctx.db,
          org,
          req.body.localized_name.trim(),
          (req.body.color ?? '#000000').toLowerCase(),
        );
        return reply.code(201).send(await repo.list(ctx.db, org));
      },
    );

    app.put(
      API.placements,
      { schema: { tags: ['placements'], body: PlacementUpdateBody, response: { 200: List, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const { id, localized_name, color } = req.body;
        if (!(await repo.update(ctx.db, org, id, localized_name.trim(), color.toLowerCase())))
          throw notFound('Placement');
        return repo.list(ctx.db, org);
      },
    );

    app.delete(
      '/api/videos/placements/:id/',
      { schema: { tags: ['placements'], params: IdParams, response: { 200: List, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const p = await repo.get(ctx.db, org, req.params.id);
        if (!p) throw notFound('Placement');
        if (!p.manual) throw badRequest(`Placement ${p.localized_name} is automatic and cannot be deleted.`);
        await ctx.db.transaction((tx) => repo.deleteManual(tx, org, p.id));
        return repo.list(ctx.db, org);
      },
    );
  });
