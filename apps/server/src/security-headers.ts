import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of the web app and the API. Everything is served from this origin:
 * - scripts only from here (the built app has no inline script);
 * - styles from here and inline: MUI's styling engine (emotion) writes <style> elements at run time,
 *   and React sets `style` attributes; inline styles cannot run code, while inline scripts stay
 *   forbidden (a nonce per response would not reach emotion's run-time insertions);
 * - images and video from here and from blob:/data: (thumbnails, canvas exports, Swagger UI's icons);
 * - no plugins, no framing by anyone (`frame-ancestors 'none'`), forms only to here.
 * Media files (/media/...) replace this with their own sandboxing policy (media.routes.ts).
 * No `upgrade-insecure-requests`: the product is often reached over plain HTTP on a LAN address,
 * where that directive would send every request to an HTTPS port that does not exist.
 */
export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * Security headers on every response (@fastify/helmet): the CSP above, X-Frame-Options DENY,
 * Referrer-Policy same-origin (links out of the app carry no path or query), nosniff, and helmet's
 * other defaults (HSTS, which browsers heed only over HTTPS; Cross-Origin-Opener-Policy and
 * -Resource-Policy same-origin).
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
