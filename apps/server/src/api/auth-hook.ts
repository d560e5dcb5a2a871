import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, Caller } from '../context.ts';
import { unauthorized } from '../errors.ts';
import { tokenHash } from '../auth/tokens.ts';
import { accountsRepository } from '../repositories/accounts.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a token. */
    public?: boolean;
  }
}

/** `Authorization: Token {token}` on every /api call except the public ones. */
export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.url.startsWith('/api/docs') || req.routeOptions.config?.public)
      return;
    const header = req.headers.authorization ?? '';
    const m = /^Token\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
    if (!m)
      throw unauthorized(header ? 'Invalid token header.' : 'Authentication credentials were not provided.');
    const hash = tokenHash(m[1]);
    const row = await accountsRepository.sessionCaller(ctx.db, hash);
    if (!row) throw unauthorized('Invalid token.');
    req.caller = { userId: row.user_id, organizationId: row.organization_id, tokenHash: hash };
  });
}

/** The signed-in caller of a non-public route (the hook guarantees it). */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw unauthorized();
  return req.caller;
}

/** Organization id of the caller: every repository call is scoped by it. */
export const orgOf = (req: FastifyRequest): number => callerOf(req).organizationId;
