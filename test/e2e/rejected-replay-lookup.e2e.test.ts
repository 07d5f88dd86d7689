import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import { NO_RETRY, storeSettings } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

const REJECTION = { kind: 'soap-fault', code: -117, text: 'Chýba ReferenceReceiptId.' } as const;

/** The answer every path gives a document the SFS did not accept: its SFS error, never 0 or 507. */
function expectSfsError(body: Json, documentNumber: string, setAside: boolean): void {
  expect(body).toMatchObject({
    resultCode: 501,
    ekasaError: { errorType: 'EKASA', errorCode: -117 },
    documentNumber,
  });
  expect(body.document).toBeUndefined();
  expect(body.cash).toBeUndefined();
  expect(body.error).toContain(`The SFS did not accept document ${documentNumber} (-117)`);
  expect(body.error).not.toContain('POST /api/document/print');
  if (setAside) {
    expect(body.error).toContain('set aside for the tax office');
    expect(body.error).toContain('must not be handed over');
    expect(body.error).not.toContain('waits for repair');
  } else {
    expect(body.error).toContain('waits for repair');
  }
}

describe('a document the SFS did not accept, retried or looked up (ADR 0119)', () => {
  it('a store: the replay and the lookup answer its SFS error while stuck and once set aside, never 507 or 0', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    const key = { 'idempotency-key': 'k-stuck' };
    const sale = pd({ externalId: 'sale-77' });
    h.sim.injectFault(REJECTION);
    const first = await h.post('/api/document/store', sale, key);
    expect(first.body.resultCode).toBe(501);
    const number = first.body.documentNumber as string;

    // Stuck: the lookup no longer answers 0 as if it were valid.
    for (const query of [{}, { documentByExternalId: { externalId: 'sale-77' } }]) {
      const found = await h.post('/api/document/get', query);
      expect(found.status).toBe(500);
      expectSfsError(found.body, number, false);
    }
    expectSfsError((await h.post('/api/document/store', sale, key)).body, number, false);

    const aside = await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'test review' });
    expect(aside.body.resultCode).toBe(0);

    // Set aside: the retry is not told to print it (507), the lookup does not call it valid (0).
    const retry = await h.post('/api/document/store', sale, key);
    expect(retry.status).toBe(500);
    expectSfsError(retry.body, number, true);
    for (const query of [{}, { documentByExternalId: { externalId: 'sale-77' } }]) {
      expectSfsError((await h.post('/api/document/get', query)).body, number, true);
    }
    const copy = await h.post('/api/document/get', { printer: {} });
    expectSfsError(copy.body, number, true);
    expect(copy.body.error).toContain('No copy of it can be printed.');
    expect(h.printer.history).toHaveLength(0);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1);
  });

  it('a cash document: the replay of one set aside answers its SFS error, not 507', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, { ...NO_RETRY, forceSendCashDocuments: true });
    const key = { 'idempotency-key': 'k-cash' };
    h.sim.injectFault(REJECTION);
    const first = await h.post('/api/cash', { amount: 100 }, key);
    expect(first.body.resultCode).toBe(501);
    const number = first.body.documentNumber as string;
    expectSfsError((await h.post('/api/cash', { amount: 100 }, key)).body, number, false);

    expect(
      (await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'test' })).body.resultCode,
    ).toBe(0);
    const retry = await h.post('/api/cash', { amount: 100 }, key);
    expect(retry.status).toBe(500);
    expectSfsError(retry.body, number, true);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1);
  });

  it('a document issued offline (not sent yet) is looked up as before: 0 with the document', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    await h.sim.goOffline();
    const stored = await h.post('/api/document/store', pd({ externalId: 'off-1' }));
    expect(stored.body.resultCode).toBe(0);
    const found = await h.post('/api/document/get', { documentByExternalId: { externalId: 'off-1' } });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 1 } });
    expect(found.body.document.uuid).toBeUndefined();
  });
});
