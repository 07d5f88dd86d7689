import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankNotifies, scan } from '../support/fake-bank-app.js';
import { pd } from '../support/kasa-harness.js';
import { type QrHarness, startQrHarness } from '../support/qr-harness.js';

let h: QrHarness;
beforeAll(async () => {
  h = await startQrHarness();
  await h.sessionUp();
});
afterAll(async () => h?.close());

describe('QR payment end to end (capability 15 acceptance 1)', () => {
  it('a bank app scans the QR PNG, pays; the intent is PAID by MQTT push; the receipt takes the id once', async () => {
    const created = await h.create({ amount: 7.45, externalId: 'order-1' }, 'qr-e2e-1');
    expect(created.status).toBe(200);
    const intent = created.body.qrPayment;
    expect(intent.state).toBe('PENDING');
    expect(intent.qrPaymentId).toMatch(/^QR-[0-9a-f]{32}$/);

    // The fake bank app: decode the PNG with jsQR, parse the Payme link strictly.
    const order = scan(await h.png(intent.qrPaymentId));
    expect(order).toMatchObject({
      type: 'm',
      amount: '7.45',
      currency: 'EUR',
      paymentId: intent.qrPaymentId,
    });
    expect(order.iban).toBe('SK4811000000002944116480');

    const paid = await bankNotifies(h.nop, order);
    expect(paid.status).toBe(202);
    // Acceptance: PAID within 1 s — a one-second long poll started after the payment sees it.
    const polled = await h.get(`/api/qrpayment/${intent.qrPaymentId}?wait=1`);
    expect(polled.body.qrPayment.state).toBe('PAID');
    expect(polled.body.qrPayment.received).toMatchObject({ amount: 7.45, hashOk: true, via: 'mqtt' });

    const stored = await h.post(
      '/api/document/store',
      pd({ payments: { 'QR platba': 7.45 }, qrPayments: [{ id: intent.qrPaymentId, amount: 7.45 }] }),
    );
    expect(stored.body.resultCode).toBe(0);
    const doc = h.kasa.parts.index.findDocument({ by: 'qrPaymentId', id: intent.qrPaymentId });
    expect(doc?.document.qrPayments).toEqual([{ id: intent.qrPaymentId, amountCents: 745 }]);
    const used = (await h.get(`/api/qrpayment/${intent.qrPaymentId}`)).body.qrPayment;
    expect(used.state).toBe('USED');
    expect(used.document.internalDocumentId).toBe(stored.body.document.internalDocumentId);

    const again = await h.post(
      '/api/document/store',
      pd({ payments: { 'QR platba': 7.45 }, qrPayments: [{ id: intent.qrPaymentId, amount: 7.45 }] }),
    );
    expect(again.body.resultCode).toBe(805);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(stored.body.document.internalDocumentId);
  });
});
