import type { AdminPage } from '../../web/admin-page.js';
import type { RoutePlugin } from '../app.js';

/**
 * The page's Content Security Policy: everything from kasa itself, no inline script, receipt and
 * logo images as `data:`/`blob:` URLs, and no framing (ADR 0601, ADR 1007).
 */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The admin page (capability 12) at `/` and `/admin/`, its scripts and styles under `/admin/`: static
 * files that use only the HTTP API a POS uses, so the page shows exactly what clients get. Pages
 * outside /api/ need no token; the page's own API requests carry the token the user types in.
 */
export function adminRoutes(page: AdminPage): RoutePlugin {
  const always = { config: { availability: 'always' as const }, schema: { hide: true } };
  return (app) => {
    const sendIndex = async (_req: unknown, reply: import('fastify').FastifyReply) =>
      reply
        .type(page.index.type)
        .header('content-security-policy', ADMIN_CSP)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .send(page.index.body);
    app.get('/', always, sendIndex);
    app.get('/admin/', always, sendIndex);
    app.get('/admin', always, async (_req, reply) => reply.redirect('/admin/'));
    for (const [name, file] of page.assets) {
      if (name === 'index.html') continue;
      app.get(`/admin/${name}`, always, async (_req, reply) =>
        reply
          .type(file.type)
          .header('content-security-policy', ADMIN_CSP)
          .header('cache-control', 'no-cache')
          .header('x-content-type-options', 'nosniff')
          .send(file.body),
      );
    }
  };
}
