import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankNotifies, scan, waitFor } from '../support/fake-bank-app.js';
import { type QrHarness, startQrHarness } from '../support/qr-harness.js';

/**
 * ADR 0905: before an intent stops waiting (expiry, cancel) kasa looks at NOP's listing once, so
 * money the bank credited before the deadline while the broker was out of reach pays it (PAID,
 * not LATE_PAID). Bounded: with NOP down the intent expires or is cancelled as before. The shared
 * clock moves only when the test moves it; the listing poll is slowed to once a minute, so only
 * the last look can learn of the money while the broker is out.
 */
let h: QrHarness;
beforeAll(async () => {
  h = await startQrHarness({ qrJobs: { tickMs: 200, pollWhilePendingMs: 600_000 } });
  await h.sessionUp();
});
afterAll(async () => h?.close());

/** An intent paid while the broker is out: the money is only in NOP's listing. */
async function paidDuringOutage(): Promise<{ id: string; expiresAt: string }> {
  const res = await h.create({ amount: 4.2 });
  const view = res.body.qrPayment as { qrPaymentId: string; expiresAt: string };
  const order = scan(await h.png(view.qrPaymentId));
  h.nop.dropBroker(600_000);
  await waitFor('the session to drop', async () =>
    (await h.get('/api/qrpayment/notifier')).body.notifier.connected ? undefined : true,
  );
  expect((await bankNotifies(h.nop, order)).status).toBe(202);
  expect(await h.state(view.qrPaymentId)).toBe('PENDING');
  return { id: view.qrPaymentId, expiresAt: view.expiresAt };
}

const settled = (id: string) =>
  waitFor(`${id} to stop waiting`, async () => {
    const v = (await h.get(`/api/qrpayment/${id}`)).body.qrPayment;
    return v.state === 'PENDING' ? undefined : v;
  });

describe('the last look at the listing', () => {
  it('at expiry: money credited before the deadline during a broker outage is PAID, not LATE_PAID', async () => {
    const { id, expiresAt } = await paidDuringOutage();
    h.clock.current = new Date(Date.parse(expiresAt) + 1000);
    const view = await settled(id);
    expect(view).toMatchObject({ state: 'PAID', received: { via: 'rest', hashOk: true, amount: 4.2 } });
  });

  it('at cancel: the cancel finds the money and is refused with 806 (issue the receipt)', async () => {
    const { id } = await paidDuringOutage();
    const cancel = await h.post(`/api/qrpayment/${id}/cancel`, {});
    expect(cancel.body).toMatchObject({ resultCode: 806, qrPayment: { state: 'PAID' } });
  });

  it('NOP down: the expiry and the cancel go on as before (EXPIRED, CANCELLED)', async () => {
    const a = await h.create({ amount: 1.5 });
    const b = await h.create({ amount: 1.6 });
    await h.nop.goOffline();
    try {
      const cancel = await h.post(`/api/qrpayment/${b.body.qrPayment.qrPaymentId}/cancel`, {});
      expect(cancel.body).toMatchObject({ resultCode: 0, qrPayment: { state: 'CANCELLED' } });
      h.clock.current = new Date(Date.parse(a.body.qrPayment.expiresAt) + 1000);
      expect((await settled(a.body.qrPayment.qrPaymentId)).state).toBe('EXPIRED');
    } finally {
      await h.nop.goOnline();
    }
  });
});

describe('shutdown', () => {
  it('stopping the jobs calls NOP no more (no catch-up at shutdown), even with a payment waiting', async () => {
    await h.sessionUp().catch(() => undefined);
    await h.create({ amount: 2.2 });
    const listings = () => h.nop.erpHistory.filter((e) => e.path.includes('getAllTransactions')).length;
    const before = listings();
    await h.kasa.parts.qrPayments.jobs.stop();
    expect(listings()).toBe(before);
    expect(await h.kasa.parts.qrPayments.upkeep.catchUp()).toBe(0);
    expect(listings()).toBe(before);
  });
});
