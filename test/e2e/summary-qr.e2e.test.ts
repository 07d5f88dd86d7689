import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VirtualPrinter } from '../../src/simulators/printer/virtual-printer.js';
import { bankNotifies, scan } from '../support/fake-bank-app.js';
import { pd } from '../support/kasa-harness.js';
import { type QrHarness, startQrHarness } from '../support/qr-harness.js';

let h: QrHarness;
beforeAll(async () => {
  h = await startQrHarness();
  await h.sessionUp();
});
afterAll(async () => h?.close());

async function paidIntent(amount: number): Promise<string> {
  const intent = (await h.create({ amount })).body.qrPayment;
  expect((await bankNotifies(h.nop, scan(await h.png(intent.qrPaymentId)))).status).toBe(202);
  await h.until(intent.qrPaymentId, 'PAID');
  return intent.qrPaymentId;
}

describe('daily summary with QR payments (capabilities 12 and 15)', () => {
  it("shows the QR tender of the day's receipts and the day's QR payments by state, and prints them", async () => {
    const used = await paidIntent(7.45);
    const stored = await h.post(
      '/api/document/store',
      pd({ payments: { 'QR platba': 7.45 }, qrPayments: [{ id: used, amount: 7.45 }] }),
    );
    expect(stored.body.resultCode).toBe(0);
    await paidIntent(3);
    await h.create({ amount: 1 });
    const res = await h.get('/api/report/summary');
    expect(res.body.qr).toMatchObject({
      tenderName: 'QR platba',
      tender: 7.45,
      used: 7.45,
      paidNotUsed: 3,
      late: 0,
      mismatch: 0,
    });
    expect(res.body.qr.count).toMatchObject({ USED: 1, PAID: 1, PENDING: 1 });
    expect(res.body.summary.payments).toContainEqual({
      name: 'QR platba',
      total: 7.45,
      change: 0,
      net: 7.45,
      cash: false,
    });
    const printed = await h.post('/api/report/summary/print', {});
    expect(printed.body.resultCode).toBe(0);
    const slip = (h.kasa.parts.printer as VirtualPrinter).history.at(-1)!.text;
    expect(slip).toContain('QR platby');
    expect(slip).toContain('7.45 EUR');
  });
});
