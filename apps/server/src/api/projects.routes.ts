import { Type } from '@sinclair/typebox';
import { API, IdBody, ProjectBody } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { projectsRepository as repo } from '../repositories/projects.repository.ts';
import { orgOf } from './auth-hook.ts';
import { assertRefs, idsOf } from './refs.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('Project'));

export const projectsRoutes = (ctx: AppContext) =>
  routes((app) => {
    async function save(org: number, body: typeof ProjectBody.static, id?: number) {
      const name = body.name.trim();
      if (!name) throw badRequest('name: is required.');
      const brandIds = idsOf(body.filtered_brands);
      const placementIds = idsOf(body.filtered_placements);
      await assertRefs(ctx.db, org, 'brands', brandIds, 'filtered_brands');
      await assertRefs(ctx.db, org, 'placements', placementIds, 'filtered_placements');
      await ctx.db.transaction((tx) =>
        repo.save(tx, org, { id, name, description: body.description ?? '', brandIds, placementIds }),
      );
      return repo.list(ctx.db, org);
    }

    app.get(
      API.projects,
      { schema: { tags: ['projects'], response: { 200: List, ...errors } } },
      async (req) => repo.list(ctx.db, orgOf(req)),
    );
    app.post(
      API.projects,
      { schema: { tags: ['projects'], body: ProjectBody, response: { 201: List, ...errors } } },
      async (req, reply) => reply.code(201).send(await save(orgOf(req), req.body)),
    );
    app.put(
      API.projects,
      { schema: { tags: ['projects'], body: ProjectBody, response: { 200: List, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        if (req.body.id === undefined) throw badRequest('id: is required.');
        if (!(await repo.exists(ctx.db, org, req.body.id))) throw notFound('Project');
        return save(org, req.body, req.body.id);
      },
    );
    app.delete(
      API.projects,
      { schema: { tags: ['projects'], body: IdBody, response: { 200: List, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        if (!(await repo.exists(ctx.db, org, req.body.id))) throw notFound('Project');
        await repo.delete(ctx.db, org, req.body.id); // videos keep playing, without a project
        return repo.list(ctx.db, org);
      },
    );
  });
