import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** /ready gives each dependency this long to answer: a probe must not hang on a stuck database. */
export const READY_TIMEOUT_MS = 2000;

type CheckResult = 'ok' | 'timeout' | 'error';

/** Runs one readiness check; the cause of a failure goes to the log, not to the unauthenticated answer. */
async function check(
  name: string,
  fn: () => Promise<unknown>,
  warn: (msg: string) => void,
): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([fn().then(() => 'ok' as const), timeout]);
    if (result === 'timeout') warn(`ready: the ${name} did not answer within ${READY_TIMEOUT_MS} ms`);
    return result;
  } catch (err) {
    warn(`ready: the ${name} failed: ${(err as Error).message}`);
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>`, compared in constant time (digests have equal length). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]), digest(token));
}

/**
 * The operations endpoints, outside /api and its token auth, hidden from the OpenAPI document (they
 * are not the product's API): /health (the process answers), /ready (its database and queue
 * answer), /metrics (Prometheus, behind METRICS_TOKEN). Also times every request for the latency
 * histogram, labelled with the route's pattern.
 */
export function registerOps(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onResponse', (req, reply, done) => {
    // The web app's static wildcard ('/*', when WEB_DIST exists) takes every path no API route
    // takes: its pages, its files and unknown paths all count as one 'unmatched' series.
    const url = req.routeOptions.url;
    ctx.metrics.httpRequest(
      req.method,
      url === undefined || url === '/*' ? 'unmatched' : url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  const hidden = { config: { public: true }, schema: { hide: true } };

  app.get('/health', hidden, async () => ({ status: 'ok' }));

  app.get('/ready', hidden, async (req, reply) => {
    const warn = (msg: string) => req.log.warn(msg);
    const [database, queue] = await Promise.all([
      check('database', () => ctx.db.query('SELECT 1'), warn),
      check('job queue', () => ctx.jobs.ping(), warn),
    ]);
    const failed = Object.entries({ database, queue }).filter(([, v]) => v !== 'ok');
    if (failed.length === 0) return { status: 'ok', database, queue };
    return reply.code(503).send({
      status: 'unavailable',
      database,
      queue,
      detail: `Not ready: ${failed.map(([k, v]) => `${k} ${v === 'timeout' ? 'timed out' : 'unreachable'}`).join(', ')}.`,
    });
  });

  app.get('/metrics', hidden, async (req, reply) => {
    const token = ctx.config.metricsToken;
    // Off unless configured: metrics show load, job volume and every route, which is nobody's
    // business by default, and there is no default token for an operator to forget to change.
    if (!token) return reply.code(404).send({ detail: 'Not found.' });
    if (!bearerMatches(req.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ detail: 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).' });
    }
    const { contentType, body } = await ctx.metrics.exposition();
    return reply.type(contentType).send(body);
  });
}
