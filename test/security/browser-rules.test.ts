import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kasa } from '../../src/compose/compose-kasa.js';
import type { Json } from '../support/kasa-harness.js';
import { rawRequest } from './raw-http.js';
import { secureRegister, TOKEN } from './secure-register.js';

/**
 * Capability 9 item 2: in the default set-up (no token) any web page could drive the register with a
 * `no-cors` fetch. Requests are shaped here exactly as browsers send them.
 */
let kasa: Kasa;
let port: number;
let self: string;
beforeAll(async () => {
  kasa = await secureRegister({ token: undefined });
  await kasa.app.listen({ port: 0, host: '127.0.0.1' });
  port = (kasa.app.server.address() as { port: number }).port;
  self = `127.0.0.1:${port}`;
});
afterAll(async () => kasa?.close());

const head = () => kasa.parts.index.highWaterMark();

async function post(url: string, headers: Record<string, string>, payload: string) {
  const res = await kasa.app.inject({ method: 'POST', url, headers: { host: self, ...headers }, payload });
  return { status: res.statusCode, body: res.json() as Json };
}

describe('browser protection on the local API (default set-up, no token)', () => {
  it("another site's no-cors fetch (Content-Type text/plain) cannot withdraw cash: 415/701, never executed", async () => {
    const before = head();
    // fetch('http://127.0.0.1:13083/api/cash', {method: 'POST', mode: 'no-cors', body: '{"amount":-99.99}'})
    const res = await post(
      '/api/cash',
      {
        'content-type': 'text/plain;charset=UTF-8',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'no-cors',
      },
      '{"amount":-99.99}',
    );
    expect([403, 415]).toContain(res.status);
    // The same request from an old browser that sends no Origin and no Sec-Fetch-* headers:
    const old = await post('/api/cash', { 'content-type': 'text/plain' }, '{"amount":-99.99}');
    expect(old.status).toBe(415);
    expect(old.body).toMatchObject({ resultCode: 701, field: 'Content-Type' });
    expect(old.body.error).toContain('Content-Type: application/json');
    // Form posts (the other bodies a page can send without asking) likewise.
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=b']) {
      expect((await post('/api/cash', { 'content-type': type }, 'amount=-99.99')).status).toBe(415);
    }
    expect(head()).toBe(before);
  });

  it("a request from another site's page is refused even with a JSON body: 403/-1", async () => {
    const before = head();
    const cases: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' }, // sandboxed frames, file:// pages
      { origin: `http://localhost:${port}` }, // another origin on this machine
      { origin: `http://${self}.evil.example` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: `http://${self}`, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of cases) {
      const res = await post(
        '/api/cash',
        { 'content-type': 'application/json', ...headers },
        '{"amount":-1}',
      );
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toMatchObject({ resultCode: -1, field: 'Origin' });
      const read = await kasa.app.inject({
        method: 'GET',
        url: '/api/status/get',
        headers: { host: self, ...headers },
      });
      expect(read.statusCode).toBe(403);
    }
    expect(head()).toBe(before);
  });

  it('the API docs (Swagger UI) may not be framed by another page: frame-ancestors and X-Frame-Options', async () => {
    const urls = ['/docs', '/docs/', '/docs/static/index.html', '/docs/json'];
    for (const url of urls) {
      const res = await kasa.app.inject({ method: 'GET', url, headers: { host: self } });
      expect(res.statusCode, url).toBeLessThan(400);
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it("the admin page's own requests (same origin) and POS clients (no Origin) keep working", async () => {
    const admin = { origin: `http://${self}`, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
    const page = await kasa.app.inject({
      method: 'GET',
      url: '/admin/',
      headers: { host: self, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const headers of [admin, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}]) {
      const status = await kasa.app.inject({
        method: 'GET',
        url: '/api/status/get',
        headers: { host: self, ...headers },
      });
      expect(status.json().resultCode, JSON.stringify(headers)).toBe(0);
    }
    const before = head();
    const viaAdmin = await post(
      '/api/cash',
      { ...admin, 'content-type': 'application/json' },
      '{"amount":2}',
    );
    expect(viaAdmin.body.resultCode).toBe(0);
    const viaPos = await post(
      '/api/cash',
      { 'content-type': 'application/json; charset=utf-8' },
      '{"amount":1}',
    );
    expect(viaPos.body.resultCode).toBe(0);
    expect(head()).toBeGreaterThan(before);
  });

  it('a foreign Host (DNS rebinding) is refused with 421 on a real socket, also with a right token elsewhere', async () => {
    const res = await rawRequest(
      port,
      'GET /api/status/get HTTP/1.1\r\nHost: attacker.example:13083\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body)).toMatchObject({ resultCode: -1 });
    // A list that starts with an allowed host is not an allowed host (was read leniently).
    for (const host of [`127.0.0.1:${port}, attacker.example`, `127.0.0.1, attacker.example`]) {
      const listed = await rawRequest(
        port,
        `GET /api/status/get HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(listed.status, host).toBe(400);
      expect(JSON.parse(listed.body), host).toMatchObject({ resultCode: -1, field: 'Host' });
    }
    // Host twice: Node keeps the first, so the allowed name first passed (RFC 9112 §3.2: 400).
    const twice = await rawRequest(
      port,
      `GET /api/status/get HTTP/1.1\r\nHost: ${self}\r\nHost: attacker.example\r\nConnection: close\r\n\r\n`,
    );
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body)).toMatchObject({ resultCode: -1, field: 'Host' });
    // HTTP/1.0 without Host (no browser sends that) is answered, as RFC 9112 allows (ADR 0427).
    const old = await rawRequest(port, 'GET /api/version HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
    const withToken = await secureRegister();
    try {
      const r = await withToken.app.inject({
        method: 'GET',
        url: '/api/status/get',
        headers: { host: 'attacker.example', authorization: `Bearer ${TOKEN}` },
      });
      expect(r.statusCode).toBe(421);
    } finally {
      await withToken.close();
    }
  });
});
