import { Type } from '@sinclair/typebox';
import { API, TagCreateBody, TagUpdateBody } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { tagsRepository as repo } from '../repositories/tags.repository.ts';
import { orgOf } from './auth-hook.ts';
import { assertRefs } from './refs.ts';
import { errors, Ref, routes } from './route-kit.ts';

const List = Type.Array(Ref('Tag'));

export const tagsRoutes = (ctx: AppContext) =>
  routes((app) => {
    async function save(
      org: number,
      body: typeof TagUpdateBody.static | typeof TagCreateBody.static,
      id?: number,
    ) {
      const name = body.name.trim();
      if (!name) throw badRequest('name: is required.');
      const placements = [...new Set(body.placements ?? [])];
      await assertRefs(ctx.db, org, 'brands', [body.brand], 'brand');
      await assertRefs(ctx.db, org, 'placements', placements, 'placements');
      await assertRefs(ctx.db, org, 'projects', [body.project], 'project');
      const archived = 'archived' in body ? body.archived : undefined;
      const ok = await ctx.db.transaction((tx) =>
        repo.save(tx, org, {
          id,
          name,
          brand: body.brand,
          placements,
          project: body.project ?? null,
          archived,
        }),
      );
      if (!ok) throw notFound('Tag');
      return repo.list(ctx.db, org);
    }

    app.get(API.tags, { schema: { tags: ['tags'], response: { 200: List, ...errors } } }, async (req) =>
      repo.list(ctx.db, orgOf(req)),
    );
    app.post(
      API.tags,
      { schema: { tags: ['tags'], body: TagCreateBody, response: { 201: List, ...errors } } },
      async (req, reply) => reply.code(201).send(await save(orgOf(req), req.body)),
    );
    app.put(
      API.tags,
      { schema: { tags: ['tags'], body: TagUpdateBody, response: { 200: List, ...errors } } },
      async (req) => save(orgOf(req), req.body, req.body.id),
    );
  });
