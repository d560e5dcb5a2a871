import { Type } from '@sinclair/typebox';
import { API, LoginBody, ProfileUpdateBody } from '@logo-review/contract';
import type { AppContext } from '../context.ts';
import { badRequest, HttpError } from '../errors.ts';
import { decoyHash, verifyPassword } from '../auth/password.ts';
import { AccountThrottle } from '../auth/account-throttle.ts';
import { LoginLimiter } from '../auth/login-limiter.ts';
import { newApiKey, newToken, tokenHash } from '../auth/tokens.ts';
import { accountsRepository as repo } from '../repositories/accounts.repository.ts';
import { profileOf } from '../services/accounts.service.ts';
import { callerOf, orgOf, userOf } from './auth-hook.ts';
import { Detail, ErrorRef, errors, Ref, routes } from './route-kit.ts';

const SESSION_DAYS = 30;

export const profileRoutes = (ctx: AppContext) =>
  routes((app) => {
    const limiter = new LoginLimiter();
    const accounts = new AccountThrottle();

    app.post(
      API.login,
      {
        config: { public: true },
        schema: {
          tags: ['profile'],
          security: [],
          body: LoginBody,
          response: { 200: Ref('Session'), 400: ErrorRef, 429: ErrorRef },
        },
      },
      async (req, reply) => {
        const { username, password } = req.body;
        const wait = limiter.check(req.ip, username);
        if (wait > 0) {
          reply.header('retry-after', String(wait));
          throw new HttpError(429, `Too many login attempts. Try again in ${Math.ceil(wait / 60)} minutes.`);
        }
        const slowed = await accounts.wait(ctx.db, username, req.ip);
        if (slowed > 0) {
          reply.header('retry-after', String(slowed));
          throw new HttpError(
            429,
            `Too many failed logins for this account. Try again in ${slowed} second${slowed === 1 ? '' : 's'}.`,
          );
        }
        const user = await repo.userByUsername(ctx.db, username);
        const ok = await verifyPassword(user?.password_hash ?? (await decoyHash()), password);
        if (!user || !ok) {
          limiter.failed(req.ip, username);
          await accounts.failed(ctx.db, username);
          throw badRequest('Unable to log in with provided credentials.');
        }
        limiter.succeeded(req.ip, username);
        await accounts.succeeded(ctx.db, user.id, username, req.ip);
        const token = newToken();
        await repo.insertSession(
          ctx.db,
          tokenHash(token),
          user.id,
          new Date(Date.now() + SESSION_DAYS * 86_400_000),
        );
        return { token, ...(await profileOf(ctx.db, user.id)) };
      },
    );

    app.post(
      API.logout,
      { schema: { tags: ['profile'], response: { 200: Detail, 401: ErrorRef } } },
      async (req) => {
        userOf(req);
        await repo.deleteSession(ctx.db, callerOf(req).tokenHash);
        return { detail: 'Logged out.' };
      },
    );

    app.get(
      API.profile,
      { schema: { tags: ['profile'], response: { 200: Ref('Profile'), ...errors } } },
      async (req) => profileOf(ctx.db, userOf(req)),
    );

    app.put(
      API.profile,
      {
        schema: { tags: ['profile'], body: ProfileUpdateBody, response: { 200: Ref('Profile'), ...errors } },
      },
      async (req) => {
        const userId = userOf(req);
        await repo.updateProfile(ctx.db, userId, req.body.user);
        return profileOf(ctx.db, userId);
      },
    );

    app.post(
      API.apiKeyRotate,
      {
        schema: {
          tags: ['profile'],
          description:
            "Replaces the organization's API key and returns the new one, shown only in this answer (the profile shows it masked). The old key stops working at once. Only a signed-in user can rotate.",
          response: { 200: Type.Object({ api_key: Type.String() }), ...errors },
        },
      },
      async (req) => {
        userOf(req);
        const key = newApiKey();
        await repo.setApiKey(ctx.db, orgOf(req), key);
        return { api_key: key.key };
      },
    );
  });
