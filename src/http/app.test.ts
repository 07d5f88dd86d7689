import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../adapters/logging/logger.js';
import { FiscalError } from '../core/fiscal-error.js';
import { Readiness, RegisterStatus } from '../core/services/register-status.js';
import { WriteLock } from '../core/services/write-lock.js';
import { BODY_LIMIT, buildHttpApp, IMAGE_BODY_LIMIT, type KasaApp, type RoutePlugin } from './app.js';
import { systemRoutes } from './routes/system.js';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _e, cb) {
    logLines.push(String(chunk));
    cb();
  },
});

/** Test routes standing in for fiscal endpoints: a blocking writer, a reader, a schema. */
function testRoutes(lock: WriteLock, gate: { release?: () => void }): RoutePlugin {
  return (app) => {
    app.post(
      '/api/test/write',
      { schema: { body: z.object({ amount: z.number(), name: z.string().min(1).optional() }) } },
      async () =>
        lock.run('test-write', async () => {
          await new Promise<void>((r) => (gate.release = r));
          return { resultCode: 0 };
        }),
    );
    app.post('/api/test/instant-write', async () => lock.run('instant', async () => ({ resultCode: 0 })));
    app.get('/api/test/read', async () => ({ resultCode: 0, text: 'čučoriedka' }));
    app.post('/api/test/image', { bodyLimit: IMAGE_BODY_LIMIT }, async () => ({ resultCode: 0 }));
    app.post('/api/test/missing', async () => {
      throw new FiscalError('NOT_FOUND', 'Document not found.');
    });
    app.post('/api/document/get', async () => {
      throw new FiscalError('NOT_FOUND', 'Document not found.');
    });
    app.post('/api/test/crash', async () => {
      throw new Error('secret internals');
    });
  };
}

let app: KasaApp;
afterEach(async () => app?.close());

async function build(opts: { token?: string; refusal?: FiscalError; allowedHosts?: string[] } = {}) {
  const lock = new WriteLock();
  const gate: { release?: () => void } = {};
  const readiness = new Readiness();
  readiness.add({ refusal: () => opts.refusal });
  app = await buildHttpApp({
    logger: createLogger('info', sink as never),
    readiness,
    routes: [
      systemRoutes({
        version: () => ({
          product: 'kasa',
          version: '9.9.9',
          apiVersion: '1.7',
          swId: 'A'.repeat(40),
          swIdOrigin: 'configured',
          nodeVersion: 'v20',
        }),
        status: new RegisterStatus(readiness),
      }),
      testRoutes(lock, gate),
    ],
    token: opts.token,
    allowedHosts: opts.allowedHosts ?? [],
    version: '9.9.9',
  });
  await app.ready();
  return { lock, gate };
}

/** A string body sent as a POS does: with `Content-Type: application/json`. */
const JSON_TYPE = { 'content-type': 'application/json' };

function expectJsonHeaders(res: { headers: Record<string, unknown>; rawPayload: Buffer }) {
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['accept-charset']).toBe('utf-8');
  expect(Number(res.headers['content-length'])).toBe(res.rawPayload.byteLength);
  expect(res.headers['transfer-encoding']).toBeUndefined();
}

describe('common HTTP rules', () => {
  it('sets JSON headers and a byte-exact Content-Length on success and failure', async () => {
    await build();
    const ok = await app.inject({ method: 'GET', url: '/api/test/read' });
    expect(ok.statusCode).toBe(200);
    expectJsonHeaders(ok);
    expect(ok.json()).toEqual({ resultCode: 0, text: 'čučoriedka' });
    const fail = await app.inject({
      method: 'POST',
      url: '/api/test/write',
      headers: JSON_TYPE,
      payload: '{"amount":"x"}',
    });
    expect(fail.statusCode).toBe(500);
    expectJsonHeaders(fail);
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers broken JSON with 700', async () => {
    await build();
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/write',
      headers: JSON_TYPE,
      payload: '{"amount": 1,',
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ resultCode: 700 });
    expect(res.json().errorMessage).toBe(res.json().error);
  });

  it('answers a schema violation with 701 naming the field', async () => {
    await build();
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/write',
      payload: { amount: 1, name: '' },
    });
    expect(res.json()).toMatchObject({ resultCode: 701, field: 'name' });
    expect(res.json().error).toContain('name');
  });

  it('refuses a body without a JSON Content-Type unread: 701, HTTP 415, nothing executed', async () => {
    const { lock } = await build();
    const ran: string[] = [];
    const original = lock.run.bind(lock);
    lock.run = (name, work) => {
      ran.push(name);
      return original(name, work);
    };
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': 'application/json; charset=iso-8859-2' },
      {},
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/test/instant-write',
        headers,
        payload: '{"amount":1}',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ resultCode: 701, field: 'Content-Type' });
      expect(res.json().error).toContain('Content-Type');
      expectJsonHeaders(res);
    }
    expect(ran).toEqual([]); // never executed
    for (const type of [
      'application/json',
      'Application/JSON; charset=UTF-8',
      'application/json;charset=utf8',
    ]) {
      const ok = await app.inject({
        method: 'POST',
        url: '/api/test/instant-write',
        headers: { 'content-type': type },
        payload: '{}',
      });
      expect(ok.json()).toEqual({ resultCode: 0 });
    }
    // No body at all needs no Content-Type (an empty POST counts as {}).
    expect((await app.inject({ method: 'POST', url: '/api/test/instant-write' })).json()).toEqual({
      resultCode: 0,
    });
    expect(ran).toEqual(['instant', 'instant', 'instant', 'instant']);
  });

  it('reads bodies as strict UTF-8 JSON: invalid bytes 700, a BOM tolerated, lone surrogates and deep nesting 701', async () => {
    await build();
    const post = (payload: string | Buffer) =>
      app.inject({ method: 'POST', url: '/api/test/instant-write', headers: JSON_TYPE, payload });
    const badUtf8 = await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    expect(badUtf8.json()).toMatchObject({ resultCode: 700 });
    expect((await post(Buffer.from('\ufeff{}', 'utf8'))).json()).toEqual({ resultCode: 0 });
    const lone = await post('{"name":"\\ud800"}');
    expect(lone.json()).toMatchObject({ resultCode: 701, field: 'body' });
    const deep = await post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(deep.statusCode).toBe(500);
    expect(deep.json()).toMatchObject({ resultCode: 701, field: 'body' });
    expect(deep.json().error).toContain('32');
  });

  it('answers unknown paths with 404/-1 and wrong methods with 405', async () => {
    await build();
    const unknown = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().resultCode).toBe(-1);
    expectJsonHeaders(unknown);
    const wrong = await app.inject({ method: 'DELETE', url: '/api/version' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json().resultCode).toBe(-1);
    expect(wrong.headers.allow).toContain('GET');
  });

  it('answers a body over the limit with 413/701, with a larger limit on image endpoints', async () => {
    await build();
    const big = JSON.stringify({ amount: 1, name: 'x'.repeat(1024 * 1024) });
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/write',
      headers: JSON_TYPE,
      payload: big,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      resultCode: 701,
      field: 'body',
      error: `body: must be at most ${BODY_LIMIT} bytes on this endpoint`,
    });
    const image = await app.inject({
      method: 'POST',
      url: '/api/test/image',
      headers: JSON_TYPE,
      payload: JSON.stringify({ image: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(image.statusCode).toBe(200);
    // Each route's own limit is named: the image route's, not the general one.
    const tooBigImage = await app.inject({
      method: 'POST',
      url: '/api/test/image',
      headers: JSON_TYPE,
      payload: JSON.stringify({ image: 'x'.repeat(IMAGE_BODY_LIMIT) }),
    });
    expect(tooBigImage.statusCode).toBe(413);
    expect(tooBigImage.json().error).toBe(`body: must be at most ${IMAGE_BODY_LIMIT} bytes on this endpoint`);
  });

  it('maps 506 to 404 in general but to 200 on POST /api/document/get', async () => {
    await build();
    expect((await app.inject({ method: 'POST', url: '/api/test/missing', payload: {} })).statusCode).toBe(
      404,
    );
    const get = await app.inject({ method: 'POST', url: '/api/document/get', payload: {} });
    expect(get.statusCode).toBe(200);
    expect(get.json().resultCode).toBe(506);
  });

  it('answers a second writer with 300 BUSY at once while a read still succeeds', async () => {
    const { gate } = await build();
    const first = app.inject({ method: 'POST', url: '/api/test/write', payload: { amount: 1 } });
    await new Promise((r) => setTimeout(r, 20));
    const second = await app.inject({ method: 'POST', url: '/api/test/instant-write', payload: {} });
    expect(second.statusCode).toBe(500);
    expect(second.json().resultCode).toBe(300);
    const read = await app.inject({ method: 'GET', url: '/api/test/read' });
    expect(read.json().resultCode).toBe(0);
    gate.release?.();
    expect((await first).json().resultCode).toBe(0);
  });

  it('requires the token when one is set', async () => {
    await build({ token: 'secret-token-123' });
    const missing = await app.inject({ method: 'GET', url: '/api/version' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().resultCode).toBe(-1);
    const wrong = await app.inject({
      method: 'GET',
      url: '/api/version',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await app.inject({
      method: 'GET',
      url: '/api/version',
      headers: { authorization: 'Bearer secret-token-123' },
    });
    expect(right.statusCode).toBe(200);
  });

  it('answers a foreign Host with 421', async () => {
    await build();
    const res = await app.inject({
      method: 'GET',
      url: '/api/version',
      headers: { host: 'evil.example:13083' },
    });
    expect(res.statusCode).toBe(421);
    expect(res.json().resultCode).toBe(-1);
    for (const host of ['localhost:13083', '127.0.0.1:13083', '[::1]:13083']) {
      expect((await app.inject({ method: 'GET', url: '/api/version', headers: { host } })).statusCode).toBe(
        200,
      );
    }
  });

  it('accepts the Host names compose allows besides loopback (e.g. the LAN address of a wildcard bind)', async () => {
    await build({ allowedHosts: ['192.0.2.7', 'kasa-box'] });
    for (const host of ['192.0.2.7:13083', 'kasa-box:13083']) {
      expect((await app.inject({ method: 'GET', url: '/api/version', headers: { host } })).statusCode).toBe(
        200,
      );
    }
    expect(
      (await app.inject({ method: 'GET', url: '/api/version', headers: { host: '192.0.2.8' } })).statusCode,
    ).toBe(421);
  });

  it('answers a URL it cannot decode like any encoded path: 400/701', async () => {
    await build();
    const res = await app.inject({ method: 'GET', url: '/api/%zz' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ resultCode: 701, field: 'path' });
    expectJsonHeaders(res);
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('refuses fiscal work while not ready but keeps status and version answering', async () => {
    await build({ refusal: new FiscalError('MERCHANT_CERTIFICATE_ERROR', 'No merchant is stored.') });
    const write = await app.inject({ method: 'POST', url: '/api/test/instant-write', payload: {} });
    expect(write.json().resultCode).toBe(402);
    const status = await app.inject({ method: 'GET', url: '/api/status/get' });
    expect(status.json()).toMatchObject({
      resultCode: 0,
      state: 'MERCHANT_CERTIFICATE_ERROR',
      reasonCode: 402,
    });
    expect(status.json().components.map((c: { component: string }) => c.component)).toEqual([
      'CHDU',
      'PRINTER',
      'SFS',
      'MERCHANT',
      'OFFLINE_BACKLOG',
      'LOCATION',
      'BACKUP',
    ]);
    expect((await app.inject({ method: 'GET', url: '/api/version' })).json()).toMatchObject({
      resultCode: 0,
      apiVersion: '1.7',
    });
  });

  it('hides internals of unexpected errors and logs one line per request without bodies', async () => {
    await build();
    logLines.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/crash',
      payload: { keyStorePassword: 'pw-in-body' },
    });
    expect(res.json().resultCode).toBe(-1);
    expect(res.body).not.toContain('secret internals');
    const requestLines = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      method: 'POST',
      path: '/api/test/crash',
      resultCode: -1,
      status: 500,
    });
    expect(typeof requestLines[0].durationMs).toBe('number');
    expect(logLines.join('')).not.toContain('pw-in-body');
  });

  it('serves the OpenAPI document with every route', async () => {
    await build();
    const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/version', '/api/status/get']));
    expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });

  it('serializes the OpenAPI document once: every answer at /api/openapi.json and /docs/json is the same bytes (ADR 0427)', async () => {
    await build();
    // Each request built and serialized the 290 KB document anew; pipelined, they queued gigabytes.
    const swagger = vi.spyOn(app, 'swagger');
    const answers: Buffer[] = [];
    for (const url of ['/api/openapi.json', '/docs/json', '/api/openapi.json', '/docs/json']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length']), url).toBe(res.rawPayload.byteLength);
      answers.push(res.rawPayload);
    }
    expect(swagger).toHaveBeenCalledTimes(1);
    swagger.mockRestore();
    const text = Buffer.from(JSON.stringify(app.swagger()), 'utf8');
    for (const answer of answers) expect(answer.equals(text)).toBe(true);
  });
});
