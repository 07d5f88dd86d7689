import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { Readiness } from '../../src/core/services/register-status.js';
import { buildHttpApp, type KasaApp } from '../../src/http/app.js';
import { MAX_UNANSWERED_PER_CONNECTION } from '../../src/http/pipelining.js';
import { DEFAULT_HTTP_LIMITS } from '../../src/http/server-limits.js';
import { type RawAnswer, rawExchange, rawRequest, splitResponses } from './raw-http.js';
import { secureRegister } from './secure-register.js';

/**
 * Capability 9 item 7: bodies that never finish kept their connection open for ever, and Node's own
 * 400/431 answers carried no resultCode. Raw sockets, because client libraries never send this.
 * The limits are shortened here; the waits are generous (nothing asserts a duration).
 */
let app: KasaApp;
let port: number;
const handled: string[] = [];
beforeAll(async () => {
  app = await buildHttpApp({
    logger: createLogger('silent'),
    readiness: new Readiness(),
    version: '0.0.0-test',
    limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, checkIntervalMs: 100 },
    routes: [
      (a) => {
        a.post('/api/test/echo', { schema: { body: z.object({ n: z.number() }) } }, async (r) => {
          handled.push('echo');
          return { resultCode: 0, n: r.body.n };
        });
        a.get('/api/test/echo-get', async () => ({ resultCode: 0 }));
        const big = Buffer.alloc(2 * 1024 * 1024, 0x61); // one Buffer for every answer
        a.get('/api/test/big', async (_r, reply) => {
          handled.push('big');
          return reply.type('application/octet-stream').send(big);
        });
        a.get('/api/test/count', async () => {
          await new Promise((r) => setTimeout(r, 50)); // all of a pipelined burst still unanswered
          handled.push('count');
          return { resultCode: 0 };
        });
        a.post('/api/test/slow', async () => {
          await new Promise((r) => setTimeout(r, 1500)); // longer than every receive limit above
          handled.push('slow');
          return { resultCode: 0 };
        });
      },
    ],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => app?.close());

function expectErrorResponse(res: RawAnswer, status: number, resultCode: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body);
  expect(body.resultCode).toBe(resultCode);
  expect(typeof body.error).toBe('string');
}

describe('slow and stalled clients are cut off with an ErrorResponse', () => {
  it('a connection that sends nothing', async () => {
    const res = await rawExchange(port, () => undefined);
    expect(res.closedByServer).toBe(true);
    expectErrorResponse(res, 408, -1);
  });

  it('headers that never end, or dribble in one line at a time', async () => {
    const partial = await rawExchange(port, (s) =>
      s.write('POST /api/test/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
    );
    expect(partial.closedByServer).toBe(true);
    expectErrorResponse(partial, 408, -1);
    const dribble = await rawExchange(port, (s) => {
      s.write('GET /api/test/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const timer = setInterval(() => (s.writable ? s.write('X-Slow: 1\r\n') : clearInterval(timer)), 50);
      s.on('close', () => clearInterval(timer));
    });
    expect(dribble.closedByServer).toBe(true);
    expectErrorResponse(dribble, 408, -1);
  });

  it('a body that never finishes (Content-Length or chunked): closed, the route never runs', async () => {
    handled.length = 0;
    const head = 'POST /api/test/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n';
    const short = await rawExchange(port, (s) => s.write(`${head}Content-Length: 100\r\n\r\n{"n":`));
    expect(short.closedByServer).toBe(true);
    expectErrorResponse(short, 408, -1);
    const chunked = await rawExchange(port, (s) =>
      s.write(`${head}Transfer-Encoding: chunked\r\n\r\n5\r\n{"n":\r\n`),
    );
    expect(chunked.closedByServer).toBe(true);
    expect(handled).toEqual([]);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const res = await rawExchange(port, (s) =>
      s.write(
        'POST /api/test/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"n":1}',
      ),
    );
    expect(res.status).toBe(200);
    expect(res.closedByServer).toBe(true);
  });

  it('a request the register works on longer than the receive limits is still answered', async () => {
    const res = await rawRequest(
      port,
      'POST /api/test/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ resultCode: 0 });
  });
});

describe('pipelined requests (ADR 0427)', () => {
  const count = 'GET /api/test/count HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  const limit = MAX_UNANSWERED_PER_CONNECTION;

  it(`a client with more than ${limit} unanswered gets those answers, then 429 and the close; the rest never runs`, async () => {
    handled.length = 0;
    const res = await rawExchange(port, (s) => s.write(count.repeat(40)));
    const answers = splitResponses(res.raw);
    expect(answers.map((a) => a.status)).toEqual([...Array<number>(limit).fill(200), 429]);
    const refusal = answers[limit]!;
    expect(refusal.headers.connection).toBe('close');
    expect(refusal.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(refusal.body).resultCode).toBe(-1);
    expect(res.closedByServer).toBe(true);
    expect(handled.length).toBe(limit);
  });

  it('a client that never reads: the routes run for the first few only, others are answered, the connection is closed', async () => {
    handled.length = 0;
    // 2 MiB answers: those of the first requests fill the socket buffers, so the refusal cannot be
    // sent and the connection is cut after the request time limit (600 ms here), not the 300 s idle
    // backstop.
    const flood = connect(port, '127.0.0.1', () =>
      flood.write('GET /api/test/big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(200)),
    );
    flood.pause(); // never reads an answer
    flood.on('error', () => undefined);
    try {
      const status = await rawRequest(
        port,
        'POST /api/test/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"n":2}',
      );
      expect(status.status).toBe(200);
      const open = async () =>
        new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)));
      const until = Date.now() + 5000;
      while ((await open()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(await open()).toBe(0);
      expect(handled.filter((h) => h === 'big').length).toBe(limit);
    } finally {
      flood.destroy();
    }
  });

  it('a keep-alive client that reads each answer before the next request is never refused nor closed', async () => {
    const answered = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let buffered = Buffer.alloc(0);
      let done = 0;
      const total = 2000;
      socket.on('error', reject);
      socket.on('close', () => resolve(done));
      socket.on('data', (d) => {
        buffered = Buffer.concat([buffered, d]);
        const [answer] = splitResponses(buffered);
        if (answer === undefined) return;
        if (answer.status !== 200) return socket.destroy();
        buffered = Buffer.alloc(0);
        done += 1;
        if (done === total) socket.destroy();
        else socket.write('GET /api/test/echo-get HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      });
      socket.write('GET /api/test/echo-get HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
    expect(answered).toBe(2000);
  });
});

describe("Node's own refusals are ErrorResponses with a resultCode", () => {
  it('a request line that is not HTTP: 400/-1', async () => {
    expectErrorResponse(await rawRequest(port, 'HELLO THERE\r\n\r\n'), 400, -1);
    expectErrorResponse(await rawRequest(port, 'GET / HTTP/9.9\r\n\r\n'), 400, -1);
  });

  it('a header line Node cannot parse, or a missing Host: 400/-1', async () => {
    expectErrorResponse(
      await rawRequest(port, 'GET /api/x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n'),
      400,
      -1,
    );
    expectErrorResponse(await rawRequest(port, 'GET /api/x HTTP/1.1\r\n\r\n'), 400, -1);
    expectErrorResponse(
      await rawRequest(
        port,
        'POST /api/x HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      ),
      400,
      -1,
    );
  });

  it('headers over 16 KiB: 431/701', async () => {
    const res = await rawRequest(
      port,
      `GET /api/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectErrorResponse(res, 431, 701);
  });
});

describe('kasa serve composes the server with the documented limits', () => {
  it('headers, request, keep-alive and idle timeouts are set (Node and fastify leave some unlimited)', async () => {
    const kasa = await secureRegister();
    try {
      const server = kasa.app.server;
      expect(server.headersTimeout).toBe(DEFAULT_HTTP_LIMITS.headersTimeoutMs);
      expect(server.requestTimeout).toBe(DEFAULT_HTTP_LIMITS.requestTimeoutMs);
      expect(server.keepAliveTimeout).toBe(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs);
      expect(server.timeout).toBe(DEFAULT_HTTP_LIMITS.socketIdleTimeoutMs);
      await kasa.app.listen({ port: 0, host: '127.0.0.1' });
      const kasaPort = (server.address() as { port: number }).port;
      const big = await rawRequest(
        kasaPort,
        `GET /api/version HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
      );
      expectErrorResponse(big, 431, 701);
    } finally {
      await kasa.close();
    }
  });
});
