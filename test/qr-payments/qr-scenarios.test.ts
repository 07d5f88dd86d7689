import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bankNotifies, scan, waitFor } from '../support/fake-bank-app.js';
import { pd } from '../support/kasa-harness.js';
import { type QrHarness, startQrHarness } from '../support/qr-harness.js';

/**
 * Capability 15 acceptance 2: each scenario of the research's §8.3 list, against the embedded NOP
 * simulator over real sockets (mTLS HTTPS, MQTT over TLS). Restart and security are in their own
 * files.
 */
let h: QrHarness;
beforeAll(async () => {
  h = await startQrHarness({ qrJobs: { tickMs: 200, pollWhilePendingMs: 60_000 } });
  await h.sessionUp();
});
afterAll(async () => h?.close());
afterEach(() => {
  Object.assign(h.nop.delivery, { retain: true, duplicate: false, delayMs: 0 });
  Object.assign(h.nop.erpSwitches, { rateLimited: 0, unavailable: 0 });
});

async function newIntent(amount = 7.45) {
  const res = await h.create({ amount });
  expect(res.body.resultCode).toBe(0);
  const id = res.body.qrPayment.qrPaymentId as string;
  return { id, order: scan(await h.png(id)) };
}

const storeWith = (id: string, amount = 7.45) =>
  h.post('/api/document/store', pd({ payments: { 'QR platba': 7.45 }, qrPayments: [{ id, amount }] }));

describe('§8.3 scenarios', () => {
  /**
   * The money comes while kasa has no session at the broker at all (its connection is cut and the
   * broker forgot its persistent session, as after a broker restart) and the listing is down; then
   * kasa connects, starts a fresh session and subscribes after the payment. Returns the two ids:
   * `early` paid before the subscription, `marker` paid live after it (so anything the fresh
   * subscription brought for `early` has arrived once `marker` is PAID).
   */
  async function payBeforeFreshSubscription(): Promise<{ early: string; marker: string }> {
    const early = await newIntent();
    const marker = await newIntent();
    await h.nop.disconnectClients(60_000, { forgetSessions: true });
    await waitFor('the session to drop', async () =>
      (await h.get('/api/qrpayment/notifier')).body.notifier.connected ? undefined : true,
    );
    expect((await bankNotifies(h.nop, early.order)).status).toBe(202);
    h.nop.erpSwitches.unavailable = 1000; // the listing is down: only the broker can tell
    expect(await h.state(early.id)).toBe('PENDING');
    await h.nop.disconnectClients(0); // connections allowed again; kasa reconnects and subscribes
    await waitFor('the session to come back', async () =>
      (await h.get('/api/qrpayment/notifier')).body.notifier.connected ? true : undefined,
    );
    await h.nop.pay({ order: marker.order }); // live, on the new subscription
    await h.until(marker.id, 'PAID');
    return { early: early.id, marker: marker.id };
  }

  it('payment before the subscription: a fresh session gets the retained notification when it subscribes', async () => {
    const { early } = await payBeforeFreshSubscription();
    const paid = await h.until(early, 'PAID');
    expect(paid.received).toMatchObject({ via: 'mqtt', hashOk: true, amount: 7.45 });
  });

  it('payment before the subscription, nothing retained: the fresh session brings nothing (no queue hides the retained path)', async () => {
    h.nop.delivery.retain = false;
    const { early } = await payBeforeFreshSubscription();
    expect(await h.state(early)).toBe('PENDING');
  });

  it('QoS 1 duplicate delivery: one state change, the delivery counted, no conflict', async () => {
    h.nop.delivery.duplicate = true;
    const { id, order } = await newIntent();
    await bankNotifies(h.nop, order);
    const paid = await h.until(id, 'PAID');
    expect(paid.conflictingNotifications).toBeUndefined();
    const rows = h.kasa.parts.qrPayments.deps.store.notificationsFor(id);
    await waitFor('the duplicate', () =>
      h.kasa.parts.qrPayments.deps.store.notificationsFor(id)[0]!.deliveries >= 2 ? true : undefined,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.outcome).toBe('applied');
    expect(JSON.parse(rows[0]!.payload)).toMatchObject({ endToEndId: id, transactionStatus: 'ACCC' });
    expect((await storeWith(id)).body.resultCode).toBe(0);
  });

  it('hash mismatch: MISMATCH (hash), never pays a receipt', async () => {
    const { id, order } = await newIntent();
    await bankNotifies(h.nop, order, { wrongHash: true });
    const view = await h.until(id, 'MISMATCH');
    expect(view.received).toMatchObject({ hashOk: false, mismatch: 'hash' });
    expect((await storeWith(id)).body.resultCode).toBe(804);
  });

  it('underpayment and overpayment: MISMATCH with the received amount', async () => {
    const under = await newIntent();
    await bankNotifies(h.nop, under.order, { amount: '7.40' });
    expect((await h.until(under.id, 'MISMATCH')).received).toMatchObject({
      amount: 7.4,
      hashOk: true,
      mismatch: 'underpaid',
    });
    const over = await newIntent();
    await bankNotifies(h.nop, over.order, { amount: '74.50' });
    expect((await h.until(over.id, 'MISMATCH')).received).toMatchObject({
      amount: 74.5,
      mismatch: 'overpaid',
    });
    expect((await storeWith(over.id)).body.resultCode).toBe(804);
  });

  it('cancel, then a late payment: LATE_PAID, listed for review; a cancel after PAID is refused (806)', async () => {
    const { id, order } = await newIntent();
    const cancelled = await h.post(`/api/qrpayment/${id}/cancel`, {});
    expect(cancelled.body.qrPayment.state).toBe('CANCELLED');
    const png = await h.kasa.app.inject({ method: 'GET', url: `/api/qrpayment/${id}/qr.png` });
    expect(png.headers['content-type']).toMatch(/json/);
    expect(png.json()).toMatchObject({ resultCode: 804, state: 'CANCELLED' });
    expect(png.json().errorMessage).toContain('nothing to scan');
    await bankNotifies(h.nop, order);
    const late = await h.until(id, 'LATE_PAID');
    expect(late.received).toMatchObject({ hashOk: true, amount: 7.45 });
    expect((await storeWith(id)).body.resultCode).toBe(804);
    const day = (await h.get('/api/qrpayment')).body;
    expect(day.toReview.map((v: { qrPaymentId: string }) => v.qrPaymentId)).toContain(id);
    expect(day.totals.lateCents).toBeGreaterThanOrEqual(745);

    const paid = await newIntent();
    await bankNotifies(h.nop, paid.order);
    await h.until(paid.id, 'PAID');
    const refused = await h.post(`/api/qrpayment/${paid.id}/cancel`, {});
    expect(refused.body).toMatchObject({ resultCode: 806, qrPayment: { state: 'PAID' } });
    const paidPng = await h.kasa.app.inject({ method: 'GET', url: `/api/qrpayment/${paid.id}/qr.png` });
    expect(paidPng.json()).toMatchObject({ resultCode: 804, state: 'PAID' });
  });

  it('NOP down at create: 801, no id invented, nothing stored; 429 is 801 with retryAfter', async () => {
    const before = (await h.get('/api/qrpayment')).body.qrPayments.length;
    await h.nop.goOffline();
    try {
      const down = await h.create({ amount: 3 });
      expect(down.body.resultCode).toBe(801);
      expect(down.body.qrPayment).toBeUndefined();
    } finally {
      await h.nop.goOnline();
    }
    h.nop.erpSwitches.rateLimited = 1;
    const limited = await h.create({ amount: 3 });
    expect(limited.body).toMatchObject({ resultCode: 801, retryAfter: 2 });
    expect((await h.get('/api/qrpayment')).body.qrPayments.length).toBe(before);
  });

  it('the broker drops mid-wait (an outage: nothing published): the REST catch-up after the reconnect pays it', async () => {
    const { id, order } = await newIntent();
    h.nop.dropBroker(60_000);
    await waitFor('the session to drop', async () =>
      (await h.get('/api/qrpayment/notifier')).body.notifier.connected ? undefined : true,
    );
    await bankNotifies(h.nop, order); // published to nobody, kept only in the listing
    expect(await h.state(id)).toBe('PENDING');
    const listingsBefore = h.nop.erpHistory.filter((e) => e.path.includes('getAllTransactions')).length;
    h.nop.dropBroker(0);
    const paid = await h.until(id, 'PAID');
    expect(paid.received.via).toBe('rest');
    expect(h.nop.erpHistory.filter((e) => e.path.includes('getAllTransactions')).length).toBeGreaterThan(
      listingsBefore,
    );
  });

  it('the same Idempotency-Key answers the same intent and never asks NOP twice; another body is 701', async () => {
    const issued = () => h.nop.erpHistory.filter((e) => e.path.endsWith('generateNewTransactionId')).length;
    const n = issued();
    const [a, b] = await Promise.all([
      h.create({ amount: 2.5 }, 'idem-1'),
      h.create({ amount: 2.5 }, 'idem-1'),
    ]);
    const c = await h.create({ amount: 2.5 }, 'idem-1');
    expect(a.body.qrPayment.qrPaymentId).toBe(b.body.qrPayment.qrPaymentId);
    expect(c.body.qrPayment.qrPaymentId).toBe(a.body.qrPayment.qrPaymentId);
    expect(issued()).toBe(n + 1);
    expect((await h.create({ amount: 2.6 }, 'idem-1')).body).toMatchObject({
      resultCode: 701,
      field: 'Idempotency-Key',
      // ADR 0008 §7's text word for word, as on a store or cash document.
      error: 'Idempotency-Key already used for a different request',
    });
  });

  it('the store hook: exact amount, the tender is the sum, PD/UF only, unknown 803, pending 804; nothing written', async () => {
    const head = h.kasa.parts.index.highWaterMark();
    const { id, order } = await newIntent();
    expect((await storeWith(id)).body).toMatchObject({ resultCode: 804, state: 'PENDING' });
    await bankNotifies(h.nop, order);
    await h.until(id, 'PAID');
    expect((await storeWith(id, 7.4)).body).toMatchObject({ resultCode: 701, field: 'qrPayments[0].amount' });
    const wrongTender = await h.post(
      '/api/document/store',
      pd({ payments: { Hotovosť: 7.45 }, qrPayments: [{ id, amount: 7.45 }] }),
    );
    expect(wrongTender.body).toMatchObject({ resultCode: 701, field: 'payments' });
    const unknown = `QR-${'1'.repeat(32)}`;
    expect((await storeWith(unknown)).body).toMatchObject({ resultCode: 803, field: 'qrPayments[0].id' });
    expect((await storeWith('QR-nope')).body).toMatchObject({ resultCode: 701, field: 'qrPayments[0].id' });
    const nd = await h.post(
      '/api/document/store',
      pd({ type: 'ND', payments: { 'QR platba': 7.45 }, qrPayments: [{ id, amount: 7.45 }] }),
    );
    expect(nd.body).toMatchObject({ resultCode: 701, field: 'qrPayments' });
    // ADR 0907: with NOP on, money under the QR tender must name the payment that brought it.
    const unconfirmed = await h.post('/api/document/store', pd({ payments: { 'QR platba': 7.45 } }));
    expect(unconfirmed.body).toMatchObject({ resultCode: 701, field: 'qrPayments' });
    expect(unconfirmed.body.errorMessage).toContain('"QR platba"');
    expect(h.kasa.parts.index.highWaterMark()).toBe(head);
    expect((await storeWith(id)).body.resultCode).toBe(0);
  });

  it('server-sent events: the state at once, then PAID, and the stream ends', async () => {
    const { id, order } = await newIntent();
    await h.kasa.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.kasa.app.server.address() as { port: number }).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/qrpayment/${id}/events`);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const first = await reader.read();
    text += new TextDecoder().decode(first.value);
    expect(text).toContain('"state":"PENDING"');
    await bankNotifies(h.nop, order);
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).toMatch(/event: state\ndata: \{[^\n]*"state":"PAID"/);
  });

  it('the customer display page shows the QR while PENDING and the state after', async () => {
    const { id, order } = await newIntent();
    const page = await h.kasa.app.inject({ method: 'GET', url: `/pay/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data:image/png;base64,');
    expect(page.body).toContain('7.45 EUR');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    await bankNotifies(h.nop, order);
    await h.until(id, 'PAID');
    const after = await h.kasa.app.inject({ method: 'GET', url: `/pay/${id}` });
    expect(after.body).toContain('Zaplatené');
    expect(after.body).not.toContain('data:image/png');
    expect((await h.kasa.app.inject({ method: 'GET', url: `/pay/QR-${'2'.repeat(32)}` })).statusCode).toBe(
      404,
    );
  });

  it('the slip prints through the printer with the QR; the day list totals the QR tender', async () => {
    const { id } = await newIntent(3.3);
    const printed = await h.post(`/api/qrpayment/${id}/print`, {});
    expect(printed.body.resultCode).toBe(0);
    const slip = h.printer.history.at(-1)!;
    expect(slip).toMatchObject({ kind: 'text', reference: id });
    expect(slip.text).toContain('NEPLATNÝ DOKLAD');
    expect(slip.text).toContain('Suma: 3.30 EUR');
    // The paper's QR, drawn from the ESC/POS bytes the printer got, carries the same Payme link.
    const { decodeQrPng } = await import('../support/fake-bank-app.js');
    expect(decodeQrPng(await h.printer.png(slip.jobNo))).toBe(printed.body.qrPayment.payme);
    const day = (await h.get('/api/qrpayment')).body;
    expect(day.qrPayments.some((v: { qrPaymentId: string }) => v.qrPaymentId === id)).toBe(true);
    expect(day.totals.usedCents).toBeGreaterThanOrEqual(745);
    expect(day.totals.count.PENDING).toBeGreaterThanOrEqual(1);
    for (const wait of ['61', '99', '600', '-1', '1.5']) {
      expect((await h.get(`/api/qrpayment/${id}?wait=${wait}`)).body).toMatchObject({
        resultCode: 701,
        field: 'wait',
      });
    }
    expect((await h.get(`/api/qrpayment/${id}?wait=0`)).body.resultCode).toBe(0);
    expect((await h.get('/api/qrpayment?date=2026-02-30')).body).toMatchObject({
      resultCode: 701,
      field: 'date',
    });
  });
});
