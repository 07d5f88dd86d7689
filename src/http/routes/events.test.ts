import { type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventRing } from '../../adapters/events/event-ring.js';
import { createLogger } from '../../adapters/logging/logger.js';
import { Readiness } from '../../core/services/register-status.js';
import { buildHttpApp, type KasaApp } from '../app.js';
import { eventRoutes } from './events.js';

let app: KasaApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(ring: EventRing, maxBufferedBytes?: number): Promise<URL> {
  app = await buildHttpApp({
    logger: createLogger('silent'),
    readiness: new Readiness(),
    routes: [eventRoutes({ feed: ring, ...(maxBufferedBytes === undefined ? {} : { maxBufferedBytes }) })],
    allowedHosts: [],
    version: '9.9.9',
  });
  return new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
}

/** Waits for a condition (loaded machines: generous, no fixed sleeps). */
async function until(what: string, ok: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function get(url: URL, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/events', url), { agent: false, headers });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

describe('GET /api/events (ADR 0805)', () => {
  it('drops a client that stops reading once its unread bytes pass the bound, and only that client', async () => {
    const ring = new EventRing(10);
    const url = await serve(ring, 64 * 1024);
    // A client that connects and then never reads: the kernel's buffers fill, then kasa's.
    const stalled = connect(Number(url.port), '127.0.0.1');
    await new Promise((r) => stalled.once('connect', r));
    stalled.write(`GET /api/events HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
    stalled.pause();
    await until('the stream is subscribed', () => ring.subscribers === 1);
    const pad = 'x'.repeat(32 * 1024);
    // Bounded: at most 64 MiB published, far more than loopback buffers plus the 64 KiB bound.
    for (let i = 0; i < 2048 && ring.subscribers > 0; i++) {
      ring.publish({ type: 'printer.changed', data: { i, pad } });
      await new Promise((r) => setImmediate(r));
    }
    await until('the stalled client is dropped', () => ring.subscribers === 0);
    stalled.destroy();

    // The register goes on: a new client streams as before.
    const res = await get(url, { accept: 'text/event-stream' });
    expect(res.statusCode).toBe(200);
    await until('the new stream is subscribed', () => ring.subscribers === 1);
    res.destroy();
  }, 60_000);

  it('refuses a page of another origin with 403, before any stream opens (ADR 0601)', async () => {
    const ring = new EventRing(10);
    const url = await serve(ring);
    const foreign = await get(url, { accept: 'text/event-stream', origin: 'http://shop.example' });
    expect(foreign.statusCode).toBe(403);
    let body = '';
    for await (const chunk of foreign) body += chunk;
    expect(JSON.parse(body)).toMatchObject({ resultCode: expect.any(Number) });
    expect(body).toContain('Origin: http://shop.example');
    expect(ring.subscribers).toBe(0);
    // The register's own page (same origin) is served.
    const own = await get(url, { accept: 'text/event-stream', origin: url.origin });
    expect(own.statusCode).toBe(200);
    own.destroy();
  }, 30_000);
});
