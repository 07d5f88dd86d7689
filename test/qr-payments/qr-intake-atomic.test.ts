import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqlitePaymentIntentStore } from '../../src/adapters/qr-payments/sqlite-payment-intent-store.js';
import { integrityHash } from '../../src/core/qr-payments/integrity-hash.js';
import type { PaymentIntent } from '../../src/core/qr-payments/payment-intent.js';
import { NotificationIntake } from '../../src/core/services/qr-payments/notification-intake.js';
import type { QrPaymentDeps } from '../../src/core/services/qr-payments/qr-payment-deps.js';
import { QrPaymentWatch } from '../../src/core/services/qr-payments/qr-payment-watch.js';

/**
 * ADR 0905: a notification is recorded as applied only together with the intent it moved. If the
 * intent's change fails (or the process dies) after the notification was recorded, a redelivery
 * must still pay the intent; it must never be taken as a duplicate of a payment nobody applied.
 */
const ID = `QR-${'c'.repeat(32)}`;
const IBAN = 'SK4811000000002944116480';
const NOW = new Date('2026-03-02T09:00:00Z');

let dir: string;
let store: SqlitePaymentIntentStore;
let intake: NotificationIntake;

function intent(): PaymentIntent {
  return {
    id: ID,
    state: 'PENDING',
    amountCents: 745,
    iban: IBAN,
    creditorName: 'kasa DEMO',
    paymeLink: `https://payme.sk/2/m/PME?IBAN=${IBAN}&AM=7.45&CC=EUR&PI=${ID}&CN=kasa+DEMO`,
    environment: 'sim',
    dic: '2021000003',
    cashRegisterCode: '88820210000030001',
    nopCreatedAt: NOW.toISOString(),
    createdAt: NOW.toISOString(),
    expiresAt: new Date(NOW.getTime() + 300_000).toISOString(),
    updatedAt: NOW.toISOString(),
  };
}

const delivery = () => ({
  payload: JSON.stringify({
    transactionStatus: 'ACCC',
    transactionAmount: { amount: '7.45', currency: 'EUR' },
    endToEndId: ID,
    dataIntegrityHash: integrityHash(IBAN, 745, 'EUR', ID),
  }),
  via: 'mqtt' as const,
  topic: `VATSK-2021000003/POKLADNICA-88820210000030001/${ID}`,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-qr-intake-'));
  store = new SqlitePaymentIntentStore(join(dir, 'qr-payments.sqlite'));
  store.insert(intent());
  const deps = {
    store,
    clock: { now: () => NOW },
    watch: new QrPaymentWatch(),
    log: () => undefined,
    index: { findDocument: () => undefined },
  } as unknown as QrPaymentDeps;
  intake = new NotificationIntake(deps);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('notification intake is one transaction', () => {
  it('the intent update fails once: nothing is recorded, and the redelivery makes it PAID', () => {
    const update = store.update.bind(store);
    let failures = 1;
    store.update = (i) => {
      if (failures-- > 0) throw new Error('disk I/O error');
      update(i);
    };
    expect(() => intake.receive(delivery())).toThrow('disk I/O error');
    expect(store.get(ID)?.state).toBe('PENDING');
    expect(store.notificationsFor(ID)).toEqual([]);
    expect(intake.receive(delivery())).toBe('applied');
    expect(store.get(ID)).toMatchObject({ state: 'PAID', received: { amountCents: 745, hashOk: true } });
    expect(store.notificationsFor(ID)).toMatchObject([{ outcome: 'applied', deliveries: 1 }]);
    expect(intake.receive(delivery())).toBe('duplicate');
  });

  it('a store where the record landed without the change (the process died between): the next delivery applies it', () => {
    const d = delivery();
    const body = JSON.parse(d.payload) as {
      transactionAmount: { amount: string };
      dataIntegrityHash: string;
    };
    store.recordNotification({
      paymentId: ID,
      contentKey: `${body.transactionAmount.amount}|EUR|${body.dataIntegrityHash}`,
      payload: d.payload,
      via: 'mqtt',
      firstSeenAt: NOW.toISOString(),
      outcome: 'applied',
    });
    expect(intake.receive(d)).toBe('applied');
    expect(store.get(ID)?.state).toBe('PAID');
    expect(store.notificationsFor(ID)).toMatchObject([{ outcome: 'applied', deliveries: 2 }]);
  });

  it('a delivery whose topic names another id is kept as unreadable and moves nothing', () => {
    const d = { ...delivery(), topic: `VATSK-2021000003/POKLADNICA-88820210000030001/QR-${'d'.repeat(32)}` };
    expect(intake.receive(d)).toBe('unreadable');
    expect(store.get(ID)?.state).toBe('PENDING');
  });
});
