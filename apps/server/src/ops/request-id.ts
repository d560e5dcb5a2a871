import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Ids a client or proxy may choose: short, and nothing that could forge or break a log line. */
const SANE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id when it is sane (so a proxy's id follows the
 * request through our logs), else a new UUID.
 */
export function requestIdOf(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  return typeof header === 'string' && SANE_ID.test(header) ? header : randomUUID();
}

const scope = new AsyncLocalStorage<string>();

/** The id of the request (or of the job's originating request) this code runs for, if any. */
export const currentRequestId = (): string | undefined => scope.getStore();

/** Runs fn with `id` as the current request id (a job handler, for the jobs it queues in turn). */
export function withRequestId<T>(id: string | undefined, fn: () => T): T {
  return id ? scope.run(id, fn) : fn();
}

/**
 * Echoes the request id in an X-Request-Id response header, and makes it the current request id
 * for the handler, so a job queued by the request carries it into the worker's log lines. The
 * scope is entered in preHandler, the hook that calls the handler itself: an earlier hook's async
 * context does not reliably reach the handler once a body has been read.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('preHandler', (req, _reply, done) => scope.run(req.id, done));
}
