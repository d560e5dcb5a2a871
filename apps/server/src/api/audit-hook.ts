import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The audit trail: every successful change through the API is recorded with who made it (the
 * user, or for a call made with the organization's API key that key, masked, and no user), the
 * route and the status. Logins, logouts and failed calls are not changes. A failure to write the
 * entry is logged, never turned into a failed answer (the change itself is already committed).
 */
export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  // onSend, before the answer leaves: a client that reads the trail right after sees its entry.
  app.addHook('onSend', async (req, reply, payload) => {
    const caller = req.caller;
    if (!caller || !CHANGES.has(req.method) || reply.statusCode >= 400) return payload;
    if (req.url.startsWith('/api/profile/logout')) return payload;
    try {
      await ctx.db.query(
        `INSERT INTO audit_log (organization_id, user_id, api_key, method, route, url, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          caller.organizationId,
          caller.userId,
          caller.apiKey ?? null,
          req.method,
          req.routeOptions.url ?? req.url,
          req.url.slice(0, 500),
          reply.statusCode,
        ],
      );
    } catch (err) {
      req.log.error({ err }, 'audit entry not written');
    }
    return payload;
  });
}
