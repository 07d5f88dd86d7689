import type { RoutePlugin } from '../app.js';

/**
 * The admin page: a static page that reads the same /api/ endpoints a POS uses (status, version),
 * so it shows exactly what clients get. It is not under /api/ and needs no token itself; its
 * requests to /api/ carry the token the user types in.
 */
export function adminRoutes(html: string): RoutePlugin {
  return (app) => {
    app.get('/admin/', { config: { availability: 'always' }, schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "default-src 'self'; script-src 'unsafe-inline' 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        )
        .send(html),
    );
    app.get('/admin', { config: { availability: 'always' }, schema: { hide: true } }, async (_req, reply) =>
      reply.redirect('/admin/'),
    );
  };
}
