import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kasa } from '../../src/compose/compose-kasa.js';
import type { Json } from '../support/kasa-harness.js';
import { rawRequest } from './raw-http.js';
import { bodyFor, concretePath, secureRegister, TOKEN } from './secure-register.js';
import { encodedSpellings } from './spellings.js';

/**
 * Capability 9 item 1: the token was checked on the raw URL while the router matched the decoded
 * path, so `POST /%61pi/document/store` ran without it. Every route the app serves — enumerated
 * from the app, so routes added later are covered — is tried in every spelling.
 */

let kasa: Kasa;
let port: number;
let routes: ReadonlyArray<{ method: string; url: string }>;
beforeAll(async () => {
  kasa = await secureRegister();
  await kasa.app.listen({ port: 0, host: '127.0.0.1' });
  port = (kasa.app.server.address() as { port: number }).port;
  routes = kasa.app.kasaRoutes();
});
afterAll(async () => kasa?.close());

const journalHead = () => kasa.parts.index.highWaterMark();

async function inject(method: string, url: string, withToken: boolean) {
  const body = bodyFor(method, url.includes('%') ? decodeURIComponent(url) : url);
  const res = await kasa.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(withToken ? { authorization: `Bearer ${TOKEN}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: body }),
  });
  // A HEAD answer has the status and headers of the GET, without the body.
  return {
    status: res.statusCode,
    body: (method === 'HEAD' ? { resultCode: 701, field: 'path' } : res.json()) as Json,
  };
}

describe('token and path rules on every route, in every spelling', () => {
  it('the app enumerates its routes, API text and extensions alike', () => {
    const urls = new Set(routes.map((r) => r.url));
    for (const url of [
      '/api/document/store',
      '/api/cash',
      '/api/merchant/store',
      '/api/status/get',
      '/admin/',
    ]) {
      expect(urls).toContain(url);
    }
  });

  it('every /api/ route needs the token in its plain spelling (401), and runs with it', async () => {
    const head = journalHead();
    // The API docs serve the OpenAPI document too: with a token they need it like /api/.
    const api = routes.filter((r) => r.url.startsWith('/api/') || /^\/docs(\/|$)/.test(r.url));
    expect(api.length).toBeGreaterThanOrEqual(8);
    expect(api.map((r) => r.url)).toContain('/docs/json');
    for (const { method, url } of api) {
      for (const authorization of [undefined, 'Bearer wrong-token-0000', `Basic ${TOKEN}`]) {
        const body = bodyFor(method, url);
        const res = await kasa.app.inject({
          method: method as 'GET',
          url: concretePath(url),
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { payload: body }),
        });
        expect(res.statusCode, `${method} ${url} with ${authorization}`).toBe(401);
        if (method !== 'HEAD') expect(res.json()).toMatchObject({ resultCode: -1 });
        expect(res.headers['www-authenticate']).toBe('Bearer realm="kasa"');
      }
    }
    expect(journalHead()).toBe(head); // nothing ran
    const cash = await inject('POST', '/api/cash', true);
    expect(cash.body.resultCode).toBe(0); // the bodies used above do real work when allowed
    expect(journalHead()).toBeGreaterThan(head);
  });

  it('every encoded spelling of every route is refused unread (400/701), with or without the token', async () => {
    const head = journalHead();
    let tried = 0;
    for (const { method, url } of routes) {
      for (const spelling of encodedSpellings(concretePath(url))) {
        for (const withToken of [false, true]) {
          const res = await inject(method, spelling, withToken);
          expect(res.status, `${method} ${spelling}`).toBe(400);
          expect(res.body).toMatchObject({ resultCode: 701, field: 'path' });
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThan(500);
    expect(journalHead()).toBe(head); // nothing executed
  });

  it('absolute-form targets, fragments and other non-canonical spellings over a real socket are refused', async () => {
    const head = journalHead();
    const targets = [
      `http://127.0.0.1:${port}/api/cash`,
      'http://127.0.0.1/api/cash',
      '/api/cash#x',
      '/%61pi/cash',
      '/a%70i/cash',
      '/%61%70%69/cash',
      '/api/c%61sh',
      '/api%2Fcash',
    ];
    for (const target of targets) {
      const res = await rawRequest(
        port,
        `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"amount":1}`,
      );
      expect(res.status, target).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ resultCode: 701, field: 'path' });
    }
    expect(journalHead()).toBe(head);
  });

  it('the admin page needs no token; the API docs need it like /api/openapi.json; both answer while the register cannot work', async () => {
    const idle = await secureRegister({ demo: false });
    try {
      expect((await idle.app.inject({ method: 'GET', url: '/admin/' })).statusCode).toBe(200);
      const bearer = { authorization: `Bearer ${TOKEN}` };
      for (const url of ['/docs', '/docs/json', '/docs/static/index.html', '/api/openapi.json']) {
        expect((await idle.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      }
      expect(
        (await idle.app.inject({ method: 'GET', url: '/docs', headers: bearer })).statusCode,
      ).toBeLessThan(400);
      const doc = await idle.app.inject({ method: 'GET', url: '/docs/json', headers: bearer });
      expect(doc.statusCode).toBe(200);
      expect(doc.json().paths['/api/cash']).toBeDefined();
      const refused = await idle.app.inject({
        method: 'POST',
        url: '/api/cash',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        payload: '{"amount":1}',
      });
      expect(refused.json().resultCode).toBe(402); // no merchant: fiscal work refused
    } finally {
      await idle.close();
    }
  });
});
