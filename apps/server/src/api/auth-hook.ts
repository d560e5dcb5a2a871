import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, Caller } from '../context.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { maskedApiKey, tokenHash } from '../auth/tokens.ts';
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

/**
 * `Authorization: Token {token}` (a user's session) or `Authorization: Api-Key {key}` (the
 * organization's key, for scripts: the same tenancy, no user) on every /api call except the public
 * ones.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/') || req.url.startsWith('/api/docs') || req.routeOptions.config?.public)
      return;
    const header = req.headers.authorization ?? '';
    const key = /^Api-Key\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
    if (key) {
      const hash = tokenHash(key[1]);
      const org = await accountsRepository.organizationByApiKeyHash(ctx.db, hash);
      if (!org) throw unauthorized('Invalid API key.');
      req.caller = {
        userId: null,
        organizationId: org.id,
        tokenHash: hash,
        apiKey: maskedApiKey(org.api_key_hint),
      };
      return;
    }
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

/** The signed-in user of a call that acts as a person (profile, logout): not an API key. */
export function userOf(req: FastifyRequest): number {
  const c = callerOf(req);
  if (c.userId === null)
    throw forbidden('This call needs a signed-in user; an API key acts for the organization.');
  return c.userId;
}

/** Organization id of the caller: every repository call is scoped by it. */
export const orgOf = (req: FastifyRequest): number => callerOf(req).organizationId;

/** Who makes a review action: the signed-in user, or no user for a call made with the API key. */
export const actorOf = (req: FastifyRequest): { userId: number | null } => ({ userId: callerOf(req).userId });
