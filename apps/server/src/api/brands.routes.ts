import { Type } from '@sinclair/typebox';
import { API, BrandListQuery, IdBody, LIMITS } from '@logo-review/contract';
import { INDEX_FORMAT } from '@logo-review/engine';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { checkImage, displayFileName } from '../media/images.ts';
import { brandsRepository as repo } from '../repositories/brands.repository.ts';
import {
  addLogos,
  deleteBrand,
  getBrand,
  listBrands,
  requestActivation,
  type UploadedLogo,
} from '../services/brands.service.ts';
import { orgOf } from './auth-hook.ts';
import { optionalIdField, readMultipart, textField } from './multipart.ts';
import { Detail, errors, Ref, routes } from './route-kit.ts';
import type { FastifyRequest } from 'fastify';

const multipartDoc = {
  description:
    'multipart/form-data: name, localized_name, url, example_logos (one part per image; PNG, JPEG, WebP, GIF, BMP, TIFF or SVG), id (PUT only)',
};

async function readBrandForm(req: FastifyRequest) {
  const logos: UploadedLogo[] = [];
  const fields = await readMultipart(req, {
    fileSize: LIMITS.logoMaxBytes,
    files: LIMITS.maxLogosPerBrand,
    onFile: async (part) => {
      const buffer = await part.toBuffer();
      if (part.fieldname !== 'example_logos') throw badRequest(`${part.fieldname}: unexpected file field.`);
      if (buffer.length === 0) return; // an empty file input sends an empty part
      const fileName = displayFileName(part.filename, 'logo');
      try {
        logos.push({ fileName, buffer, image: await checkImage(buffer, fileName) });
      } catch (err) {
        throw badRequest(`example_logos: ${(err as Error).message}`);
      }
    },
  });
  return { fields, logos };
}

export const brandsRoutes = (ctx: AppContext) =>
  routes((app) => {
    app.get(
      API.brands,
      {
        schema: {
          tags: ['brands'],
          querystring: BrandListQuery,
          response: { 200: Type.Array(Ref('Brand')), ...errors },
        },
      },
      async (req) => {
        const org = orgOf(req);
        if (req.query.refresh === 'true') {
          // Re-runs activation for every active brand whose index is missing, failed or stale.
          for (const b of await repo.list(ctx.db, org)) {
            const stale = b.status !== 'ACTIVE' || !b.index_path || b.index_format !== INDEX_FORMAT;
            if (!b.deactivated && stale && !['QUEUED', 'ACTIVATING'].includes(b.status)) {
              if ((await repo.logos(ctx.db, org, [b.id])).length > 0) await requestActivation(ctx, org, b.id);
            }
          }
        }
        return listBrands(ctx, org);
      },
    );

    app.post(
      API.brandCreate,
      {
        schema: {
          tags: ['brands'],
          ...multipartDoc,
          response: { 201: Ref('Brand'), ...errors, 413: errors[400] },
        },
      },
      async (req, reply) => {
        const org = orgOf(req);
        const { fields, logos } = await readBrandForm(req);
        if (fields.id) throw badRequest('id: must not be set when creating; use PUT to update.');
        const name = textField(fields, 'name', { required: true, max: LIMITS.nameMax })!;
        const brand = await repo.insert(ctx.db, org, {
          name,
          localized_name: textField(fields, 'localized_name', { max: LIMITS.nameMax }) || name,
          url: textField(fields, 'url', { max: LIMITS.urlMax }) ?? '',
        });
        if (!brand) {
          const other = await repo.byName(ctx.db, org, name);
          throw badRequest(`name: a brand named '${other?.name ?? name}' already exists.`);
        }
        if (logos.length > 0) {
          await addLogos(ctx, org, brand.id, logos);
          await requestActivation(ctx, org, brand.id);
        }
        return reply.code(201).send(await getBrand(ctx, org, brand.id));
      },
    );

    app.put(
      API.brandCreate,
      {
        schema: {
          tags: ['brands'],
          ...multipartDoc,
          response: { 200: Ref('Brand'), ...errors, 413: errors[400] },
        },
      },
      async (req) => {
        const org = orgOf(req);
        const { fields, logos } = await readBrandForm(req);
        const id = optionalIdField(fields, 'id');
        if (id === null) throw badRequest('id: is required.');
        const brand = await repo.get(ctx.db, org, id);
        if (!brand) throw notFound('Brand');
        // On edit only the localized name, the url and the example images change (spec, section 5).
        await repo.update(ctx.db, org, id, {
          localized_name: textField(fields, 'localized_name', { max: LIMITS.nameMax }) || undefined,
          url: textField(fields, 'url', { max: LIMITS.urlMax }),
        });
        if (logos.length > 0) {
          if ((await repo.logos(ctx.db, org, [id])).length + logos.length > LIMITS.maxLogosPerBrand) {
            throw badRequest(`example_logos: a brand has at most ${LIMITS.maxLogosPerBrand} example images.`);
          }
          await addLogos(ctx, org, id, logos);
          if (!brand.deactivated) await requestActivation(ctx, org, id);
        }
        return getBrand(ctx, org, id);
      },
    );

    app.put(
      API.brandDeactivate,
      { schema: { tags: ['brands'], body: IdBody, response: { 200: Ref('Brand'), ...errors } } },
      async (req) => {
        const org = orgOf(req);
        if (!(await repo.get(ctx.db, org, req.body.id))) throw notFound('Brand');
        await repo.deactivate(ctx.db, org, req.body.id);
        return getBrand(ctx, org, req.body.id);
      },
    );

    app.delete(
      API.brandDeactivate,
      { schema: { tags: ['brands'], body: IdBody, response: { 200: Detail, ...errors } } },
      async (req) => {
        const org = orgOf(req);
        const brand = await repo.get(ctx.db, org, req.body.id);
        if (!brand) throw notFound('Brand');
        await deleteBrand(ctx, org, brand);
        return { detail: `Deleted brand ${brand.name} and its detections.` };
      },
    );
  });
