import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import * as contract from '@logo-review/contract';
import { LIMITS } from '@logo-review/contract';
import type { AnySchema } from 'ajv';
import type { AppContext } from './context.ts';
import { HttpError } from './errors.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { registerAuth } from './api/auth-hook.ts';
import { registerAudit } from './api/audit-hook.ts';
import { createValidators, formatValidationError } from './api/validation.ts';
import { profileRoutes } from './api/profile.routes.ts';
import { brandsRoutes } from './api/brands.routes.ts';
import { placementsRoutes } from './api/placements.routes.ts';
import { libraryRoutes } from './api/library.routes.ts';
import { registerTusUploads } from './api/tus-uploads.ts';
import { projectsRoutes } from './api/projects.routes.ts';
import { tagsRoutes } from './api/tags.routes.ts';
import { verificationRoutes } from './api/verification.routes.ts';
import { detectionsRoutes } from './api/detections.routes.ts';
import { reviewRoutes } from './api/review.routes.ts';
import { trackRoutes } from './api/track.routes.ts';
import { mediaRoutes } from './api/media.routes.ts';
import { excelRoutes } from './api/excel.routes.ts';
import { analyticsRoutes } from './analytics/analytics.routes.ts';
import { registerOps } from './ops/ops.routes.ts';
import { registerRequestId, requestIdOf } from './ops/request-id.ts';

/** Schemas referenced by $id from route schemas (and listed as OpenAPI components). */
const SHARED_SCHEMAS = [
  contract.ErrorBody,
  contract.User,
  contract.Organization,
  contract.Profile,
  contract.Session,
  contract.BrandLogo,
  contract.Brand,
  contract.Placement,
  contract.Video,
  contract.Folder,
  contract.VideoTree,
  contract.Project,
  contract.Tag,
  contract.VerificationVideo,
  contract.Detection,
];

const MINIMAL_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Logo review</title></head>
<body><h1>Logo review</h1><p>The web app is not built yet: run <code>npm run build -w @logo-review/web</code>.
The API is at <a href="/api/docs">/api/docs</a>.</p></body></html>`;

export async function buildApp(ctx: AppContext, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: ctx.config.logLevel } : false,
    bodyLimit: LIMITS.jsonBodyMaxBytes,
    // Only the configured proxies may name the client (login throttling counts per address).
    trustProxy: ctx.config.trustProxy,
    genReqId: requestIdOf,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await registerSecurityHeaders(app);
  registerRequestId(app);
  registerOps(app, ctx);
  for (const s of SHARED_SCHEMAS) app.addSchema(s);
  app.setValidatorCompiler(createValidators(SHARED_SCHEMAS as AnySchema[]));
  app.setSchemaErrorFormatter(
    (errors, dataVar) => new HttpError(400, formatValidationError(errors, dataVar)),
  );

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ detail: err.message });
    const status = err.statusCode ?? 500;
    if (
      status === 413 ||
      err.code === 'FST_REQ_FILE_TOO_LARGE' ||
      err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
    ) {
      return reply.code(413).send({ detail: 'The request body is too large.' });
    }
    if (status >= 400 && status < 500) return reply.code(status).send({ detail: err.message });
    req.log.error(err);
    return reply.code(500).send({ detail: 'Internal server error.' });
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Logo review API',
        version: '1.0.0',
        description: 'Brand-logo detection review back office.',
      },
      components: {
        securitySchemes: {
          token: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: "'Token {token}' (a user's session) or 'Api-Key {key}' (the organization's API key)",
          },
        },
      },
      security: [{ token: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  await app.register(multipart, {
    limits: {
      fileSize: LIMITS.videoMaxBytes,
      files: LIMITS.maxLogosPerBrand,
      fields: 20,
      fieldSize: 64 * 1024,
    },
  });

  registerAuth(app, ctx);
  registerAudit(app, ctx);

  const webIndex = path.join(ctx.config.webDist, 'index.html');
  const hasWeb = existsSync(webIndex);
  // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
  await app.register(fastifyStatic, {
    root: hasWeb ? ctx.config.webDist : ctx.storage.root,
    serve: hasWeb,
    wildcard: true,
    index: false,
  });

  await app.register(profileRoutes(ctx));
  await app.register(brandsRoutes(ctx));
  await app.register(placementsRoutes(ctx));
  await app.register(libraryRoutes(ctx));
  await registerTusUploads(app, ctx);
  await app.register(projectsRoutes(ctx));
  await app.register(tagsRoutes(ctx));
  await app.register(verificationRoutes(ctx));
  await app.register(detectionsRoutes(ctx));
  await app.register(reviewRoutes(ctx));
  await app.register(trackRoutes(ctx));
  await app.register(excelRoutes(ctx));
  await app.register(analyticsRoutes(ctx));
  await app.register(mediaRoutes(ctx));

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/media/') || req.method !== 'GET') {
      return reply.code(404).send({ detail: 'Not found.' });
    }
    // The web app's own routes (/brands, /editor, ...) all load index.html.
    if (hasWeb) return reply.type('text/html').sendFile('index.html', ctx.config.webDist);
    return reply.type('text/html').send(MINIMAL_PAGE);
  });
  app.get('/', { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
    hasWeb
      ? reply.type('text/html').sendFile('index.html', ctx.config.webDist)
      : reply.type('text/html').send(MINIMAL_PAGE),
  );
  return app;
}

/**
 * The operations endpoints alone (/health, /ready, /metrics): a worker-only process's HTTP
 * listener, or any process's separate OPS_PORT, which can stay off the public network.
 */
export async function buildOpsApp(
  ctx: AppContext,
  opts: { logger?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: ctx.config.logLevel } : false,
    genReqId: requestIdOf,
  });
  await registerSecurityHeaders(app);
  registerRequestId(app);
  registerOps(app, ctx);
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ detail: 'Not found.' }));
  return app;
}
