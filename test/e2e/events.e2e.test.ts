import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { composeKasa, type Kasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig } from '../../src/config/serve-config.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { openSse, type SseMessage, type SseStream } from '../support/sse-stream.js';

/**
 * Capability 14 acceptance: a POS subscribes to `GET /api/events`, stores a document, the SFS goes
 * offline and comes back, the printer runs out of paper — and the matching events arrive in that
 * order; a reconnect with Last-Event-ID gets what it missed (ADR 0805).
 */
let h: Harness;
let base: string;
beforeAll(async () => {
  h = await startHarness();
  base = await h.kasa.app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => h.close());

const data = (m: SseMessage) => (m.data as { data: Record<string, unknown> }).data;
const is = (event: string, doc?: number) => (m: SseMessage) =>
  m.event === event && (doc === undefined || data(m).internalDocumentId === doc);

async function store(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await h.post('/api/document/store', pd(extra));
  expect([0, 507]).toContain(res.body.resultCode);
  return res.body.document.internalDocumentId as number;
}

describe('GET /api/events', () => {
  let stream: SseStream;
  let lastSeen: string;
  let docs: number[] = [];

  it('sends document, SFS, backlog and printer events in the order they happened', async () => {
    stream = await openSse(`${base}/api/events`);
    expect(stream.status).toBe(200);

    const d1 = await store({ externalId: 'pos-sale-1' });
    await stream.waitFor(is('document.registered', d1), 'registered #1');

    await h.sim.goOffline();
    const d2 = await store();
    await stream.waitFor(is('document.offline', d2), 'offline #2');
    await stream.waitFor(is('sfs.unreachable'), 'sfs.unreachable');
    const backlog = await stream.waitFor(is('backlog.changed'), 'backlog.changed');
    expect(data(backlog)).toMatchObject({ unsentDocuments: 1 });

    await h.sim.goOnline();
    const d3 = await store();
    await stream.waitFor(is('document.registered', d3), 'registered #3');
    await stream.waitFor(is('sfs.reachable'), 'sfs.reachable');
    // The background sender resends the offline document once the SFS answers again, through the
    // same journal: its "registered" event comes without a line of its own (ADR 0805).
    const resent = await stream.waitFor(is('document.registered', d2), 'registered #2 (resent)');
    expect(data(resent).sendingCount).toBeGreaterThanOrEqual(2);

    h.printer.setPaper('out');
    const paper = await stream.waitFor(is('printer.changed'), 'printer.changed');
    expect(data(paper)).toMatchObject({ paper: 'out', state: 'ERROR', reasonCode: 105 });
    docs = [d1, d2, d3];

    const order = [
      is('document.stored', d1),
      is('document.registered', d1),
      is('document.stored', d2),
      is('document.offline', d2),
      is('sfs.unreachable'),
      is('document.stored', d3),
      is('document.registered', d3),
      is('sfs.reachable'),
      is('printer.changed'),
    ].map((match) => stream.messages.findIndex(match));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // Ids increase; every event says what and when.
    const ids = stream.messages.map((m) => Number(m.id!.split('-')[1]));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Number, type and external id are read from the index row (ADR 1115).
    expect(data(stream.messages.find(is('document.registered', d1))!)).toMatchObject({
      documentNumber: expect.stringMatching(/^\d{6}\/\d+$/),
      type: 'PD',
      externalId: 'pos-sale-1',
      uuid: expect.any(String),
    });
    expect(data(stream.messages.find(is('document.registered', docs[1]!))!)).not.toHaveProperty('externalId');
    lastSeen = stream.messages.at(-1)!.id!;
    stream.close();
  }, 120_000);

  it('a reconnect with Last-Event-ID gets exactly what it missed', async () => {
    // While nobody listens: paper back, one more sale.
    h.printer.setPaper('ok');
    const d4 = await store();
    const again = await openSse(`${base}/api/events`, { 'last-event-id': lastSeen });
    try {
      await again.waitFor(is('document.registered', d4), 'registered #4 (replayed)');
      await again.waitFor((m) => m.event === 'printer.changed' && data(m).paper === 'ok', 'paper back');
      const seq = (id: string) => Number(id.split('-')[1]);
      expect(again.messages.every((m) => seq(m.id!) > seq(lastSeen))).toBe(true);
      expect(again.messages.find(is('document.stored', docs[0]))).toBeUndefined();
      expect(again.messages.find((m) => m.event === 'events.lost')).toBeUndefined();
    } finally {
      again.close();
    }
  }, 60_000);

  it('a document the SFS rejects, then set aside for the tax office: rejected, set-aside, backlog counts (ADR 0711)', async () => {
    const s = await openSse(`${base}/api/events`);
    try {
      h.sim.injectFault({ kind: 'soap-fault', code: -117, text: 'Chýba ReferenceReceiptId.' });
      const rejected = await h.post('/api/document/store', pd());
      expect(rejected.body.resultCode).toBe(501);
      const r = await s.waitFor((m) => m.event === 'document.rejected', 'document.rejected');
      expect(data(r)).toMatchObject({ errorCode: -117 });
      const aside = await h.post('/api/offline/set-aside', {
        internalDocumentId: data(r).internalDocumentId,
        reason: 'no fix clears -117',
      });
      expect(aside.body.resultCode).toBe(0);
      const e = await s.waitFor((m) => m.event === 'document.set-aside', 'document.set-aside');
      expect(data(e)).toMatchObject({
        internalDocumentId: data(r).internalDocumentId,
        reason: 'no fix clears -117',
        errorCode: -117,
      });
      await s.waitFor(
        (m) =>
          m.event === 'backlog.changed' && data(m).setAsideDocuments === 1 && data(m).stuckDocuments === 0,
        'backlog.changed with the item set aside',
      );
    } finally {
      s.close();
    }
  }, 60_000);

  it('an id it cannot resume from (another run of kasa) starts with events.lost', async () => {
    const s = await openSse(`${base}/api/events?lastEventId=deadbeef-12`);
    try {
      const lost = await s.waitFor((m) => m.event === 'events.lost', 'events.lost');
      expect(s.messages[0]).toBe(lost);
    } finally {
      s.close();
    }
  });
});

describe('state events compare settled states only (ADR 0805)', () => {
  let q: Harness;
  let qBase: string;
  beforeAll(async () => {
    q = await startHarness();
    qBase = await q.kasa.app.listen({ host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(async () => q.close());

  it('a normal sale publishes no register.state or backlog.changed: the look waits until the sale has released the lock', async () => {
    const s = await openSse(`${qBase}/api/events`);
    try {
      // A slow SFS answer keeps the sale inside the lock well past the look 100 ms after its
      // document record: the moment "stored, not yet registered or printed" (508) is not a state.
      q.sim.setLatency(600, 1);
      const res = await q.post('/api/document/store', pd());
      expect(res.body.resultCode).toBe(0);
      const doc = res.body.document.internalDocumentId as number;
      await s.waitFor(is('document.registered', doc), 'document.registered');
      // A later, real change: the timer's look that finds it runs after the look the sale caused,
      // so anything that look published is on the stream before it.
      q.printer.setPaper('out');
      await s.waitFor(is('printer.changed'), 'printer.changed');
      const spurious = s.messages.filter(
        (m) => (m.event === 'register.state' && data(m).reasonCode === 508) || m.event === 'backlog.changed',
      );
      expect(spurious).toEqual([]);
    } finally {
      q.printer.setPaper('ok');
      s.close();
    }
  }, 60_000);
});

describe('event streams are bounded', () => {
  let kasa: Kasa;
  let url: string;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-events-'));
    kasa = await composeKasa(
      defaultServeConfig(dataDir, { port: 0, logLevel: 'silent', token: 'a-long-secret-token' }),
      { logger: createLogger('silent'), events: { maxClients: 1, heartbeatMs: 100 } },
    );
    url = `${await kasa.app.listen({ host: '127.0.0.1', port: 0 })}/api/events`;
  }, 60_000);
  afterAll(async () => kasa.close());

  it('follows the token rules of every /api/ path, sends heartbeats, refuses one stream too many, and ends at shutdown', async () => {
    expect((await fetch(url)).status).toBe(401);
    const auth = { authorization: 'Bearer a-long-secret-token' };
    const first = await openSse(url, auth);
    expect(first.status).toBe(200);
    const second = await fetch(url, { headers: auth });
    expect(second.status).toBe(500);
    expect(await second.json()).toMatchObject({ resultCode: 300 });
    const deadline = Date.now() + 30_000;
    while (first.comments.filter((c) => c === 'heartbeat').length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(first.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    // A client connection that never sends a request must not hold the shutdown either.
    const idle = connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((r) => idle.once('connect', r));
    await kasa.close();
    idle.destroy();
    await first.ended; // the server ended the stream; close() did not hang on it
  }, 60_000);
});
