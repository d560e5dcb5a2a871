import { existsSync } from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { brandsRepository } from '../repositories/brands.repository.ts';
import { posterPath, renderPoster } from '../media/thumbnails.ts';
import { libraryRepository } from '../repositories/library.repository.ts';
import { verificationRepository } from '../repositories/verification.repository.ts';
import { routes } from './route-kit.ts';

const Params = Type.Object({
  kind: Type.Union([
    Type.Literal('videos'),
    Type.Literal('logos'),
    Type.Literal('renders'),
    Type.Literal('thumbnails'),
    Type.Literal('posters'),
  ]),
  id: Type.Integer({ minimum: 1 }),
  file: Type.String({ maxLength: 100 }),
});
const Query = Type.Object({ exp: Type.Optional(Type.String()), sig: Type.Optional(Type.String()) });

/**
 * Media files for <img> and <video> elements, which cannot send the Authorization header: the path
 * carries an HMAC signature and an expiry that only an API answer to the owning organization hands
 * out. Range requests are honoured (seeking in a video needs them).
 */
export const mediaRoutes = (ctx: AppContext) =>
  routes((app) => {
    async function storedPath(kind: (typeof Params.static)['kind'], id: number): Promise<string | undefined> {
      switch (kind) {
        case 'videos':
          return (await libraryRepository.videoById(ctx.db, id))?.stored_path;
        case 'thumbnails':
          return (await libraryRepository.videoById(ctx.db, id))?.thumbnails?.path;
        case 'posters': {
          // Cut from the sprite on first request, then served from storage.
          const t = (await libraryRepository.videoById(ctx.db, id))?.thumbnails;
          if (!t) return undefined;
          const rel = posterPath(t.path);
          if (!existsSync(ctx.storage.resolve(rel))) {
            await renderPoster(ctx.storage.resolve(t.path), ctx.storage.resolve(rel), t);
          }
          return rel;
        }
        case 'logos':
          return (await brandsRepository.logo(ctx.db, id))?.stored_path;
        case 'renders':
          return (await verificationRepository.byId(ctx.db, id))?.stored_path ?? undefined;
      }
    }

    app.get(
      '/media/:kind/:id/:file',
      { config: { public: true }, schema: { hide: true, params: Params, querystring: Query } },
      async (req, reply) => {
        const pathname = req.url.split('?')[0];
        if (!ctx.signer.verify(pathname, req.query.exp, req.query.sig)) {
          throw new HttpError(403, 'This media link is invalid or has expired; reload the page.');
        }
        const rel = await storedPath(req.params.kind, req.params.id);
        if (!rel) throw notFound('File');
        const abs = ctx.storage.resolve(rel);
        return reply
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
          .sendFile(path.basename(abs), path.dirname(abs), { acceptRanges: true, cacheControl: false });
      },
    );
  });
