import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import {
  checkResendRules,
  NO_RETRY,
  storeSettings,
  usePortableMerchant,
  waitFor,
} from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

const status = async () => (await h!.get('/api/status/get')).body as Json;
const backlog = (s: Json) =>
  s.components.find((c: { component: string }) => c.component === 'OFFLINE_BACKLOG');
const states = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) => h!.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: from + i })!.sendState,
  );
const receiptRequests = () => h!.sim.history().filter((e) => e.operation === 'RegisterReceipt');

/**
 * `merchant/store` while the SFS still refuses document `documentNo` with `code`: it wakes the
 * sender, which tries it again; waits for that attempt's outcome, not only its start (ADR 0705) —
 * the refusal the set-aside rule looks at.
 */
async function merchantStoreStillRefused(documentNo: number, code: number, text: string): Promise<void> {
  const sent = () => h!.kasa.parts.index.findDocument({ by: 'documentNo', documentNo })!;
  const count = sent().sendingCount;
  h!.sim.injectFault({ kind: 'soap-fault', code, text });
  await usePortableMerchant(h!);
  await waitFor(
    () => (sent().lastExchange?.sendingCount ?? 0) > count,
    'the answer to the attempt after merchant/store',
  );
}

/**
 * The attempt's start record is written before its request leaves (ADR 0705): until its outcome is
 * written the item is the sender's, and a set-aside meanwhile is 300 — retried, as a POS would.
 */
async function setAsideWhenFree(documentNo: number, reason: string): Promise<Json> {
  let aside = await h!.post('/api/offline/set-aside', { internalDocumentId: documentNo, reason });
  for (let i = 0; i < 100 && aside.body.resultCode === 300; i++) {
    await new Promise((r) => setTimeout(r, 50));
    aside = await h!.post('/api/offline/set-aside', { internalDocumentId: documentNo, reason });
  }
  return aside.body;
}

describe('a refusal of the whole register (ADR 0711)', () => {
  it('six offline documents and the SFS refuses the certificate (-13): none stuck, no 501, one request; status names the cause; merchant/store sends them all', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    await h.sim.goOffline();
    for (let i = 0; i < 6; i++) expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await h.sim.goOnline();
    const before = receiptRequests().length;
    h.sim.injectFault({ kind: 'soap-fault', code: -13, text: 'Certifikát nie je platný.' });

    const sent = await h.post('/api/document/send/offline', {});
    expect(sent.body).toEqual({ resultCode: 0, documents: [], locations: [] });
    // The batch ended at the first register-wide refusal: one request, every document still queued.
    expect(receiptRequests().length - before).toBe(1);
    expect(states(1, 6)).toEqual(Array(6).fill('unsent'));

    const s = await status();
    expect(backlog(s)).toMatchObject({
      state: 'ERROR',
      reasonCode: 402,
      details: { unsentDocuments: 6, stuckDocuments: 0, registerRefusal: { errorCode: -13 } },
    });
    expect(backlog(s).reason).toContain('POST /api/merchant/store');
    expect(s).toMatchObject({ state: 'MERCHANT_CERTIFICATE_ERROR', reasonCode: 402 });
    // The SFS component names the attempt the SFS refused — the resend of document 1 — and why;
    // it does not call the last stored document (a valid one, waiting) "not accepted".
    const first = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 })!.document
      .documentNumber;
    const sfs = s.components.find((c: { component: string }) => c.component === 'SFS');
    expect(sfs).toMatchObject({ state: 'WARNING', reasonCode: 402 });
    expect(sfs.reason).toContain(
      `The SFS refused the last attempt, the resend of document ${first}, with -13`,
    );
    expect(sfs.reason).toContain('not of document');
    expect(sfs.reason).toContain('POST /api/merchant/store');
    expect(sfs.reason).not.toContain('The last document was not accepted');
    const report = (await h.post('/api/report/offline', {})).body;
    expect(report.documents).toHaveLength(6);
    expect(report.documents[0].status.warning.message).toContain('-13');
    // Nothing was refused with 501: the last request is not stuck.
    expect(h.kasa.parts.index.lastStoredRequest()?.item.sendState).toBe('unsent');

    // A valid document is never set aside because the certificate is bad: neither the one the SFS
    // answered -13 nor one waiting behind it (ADR 0711).
    const held = await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'expired' });
    expect(held.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(held.body.error).toContain('-13');
    expect(held.body.error).toContain('POST /api/merchant/store');
    // These were printed as offline documents (handed over): only if the SFS still refuses them
    // after a merchant/store may they be set aside (ADR 0712); before that, never.
    expect(held.body.error).toContain('cannot be set aside yet');
    const behind = await h.post('/api/offline/set-aside', { internalDocumentId: 4, reason: 'expired' });
    expect(behind.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(behind.body.error).toContain("behind the SFS's refusal of the register (-13");
    expect(behind.body.error).toContain('POST /api/merchant/store');
    expect(behind.body.error).not.toContain('waits for the SFS to answer');
    expect(states(1, 6)).toEqual(Array(6).fill('unsent'));

    // A renewed certificate: the sender tries at once, without any other call.
    await usePortableMerchant(h);
    await waitFor(() => states(1, 6).every((st) => st === 'offline-sent'), 'the queue to be registered');
    expect((await status()).state).toBe('READY');
    expect((await h.post('/api/report/offline', {})).body.documents).toEqual([]);
    await checkResendRules(h, [1, 2, 3, 4, 5, 6]);
  });
});

describe('a certificate refusal (-13) of a document the customer already holds (ADR 0712)', () => {
  it('is set aside once it persists after merchant/store; a document never handed over never is', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    // Never handed over: the store's own attempt refused; a repair signs it again with the key in force.
    h.sim.injectFault({ kind: 'soap-fault', code: -13, text: 'Certifikát nie je platný.' });
    expect((await h.post('/api/document/store', pd())).body.resultCode).not.toBe(0);
    const fresh = await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'cert' });
    expect(fresh.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(fresh.body.error).toContain('which is fine');
    expect(
      (await h.post('/api/document/update', { fixDocument: { useLastMerchant: true } })).body.resultCode,
    ).toBe(0);

    // Handed over: printed offline, then the SFS refuses its certificate on the resend.
    await h.sim.goOffline();
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await h.sim.goOnline();
    const text = 'Certifikát nie je platný.';
    h.sim.injectFault({ kind: 'soap-fault', code: -13, text });
    await h.post('/api/document/send/offline', {});
    expect(states(2, 2)).toEqual(['unsent']);
    const early = await h.post('/api/offline/set-aside', { internalDocumentId: 2, reason: 'revoked' });
    expect(early.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(early.body.error).toContain('cannot be set aside yet');

    // A renewed certificate, and the SFS still refuses the document signed under the old one.
    await merchantStoreStillRefused(2, -13, text);
    expect((await setAsideWhenFree(2, 'revoked')).resultCode).toBe(0);
    expect(states(2, 2)).toEqual(['set-aside']);
  });
});

describe('an identity refusal (-101) that persists after merchant/store (ADR 0711)', () => {
  it('is set aside only once the SFS refused the item again with the merchant data stored after it', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    await h.sim.goOffline();
    for (let i = 0; i < 2; i++) expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await h.sim.goOnline();
    const text = 'DIČ v správe sa nezhoduje s DIČ v certifikáte.';
    h.sim.injectFault({ kind: 'soap-fault', code: -101, text });
    expect((await h.post('/api/document/send/offline', {})).body.documents).toEqual([]);
    expect(states(1, 2)).toEqual(['unsent', 'unsent']);

    // Not yet: the shop has not stored its merchant data since.
    const early = await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'DIČ changed' });
    expect(early.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(early.body.error).toContain('-101');
    expect(early.body.error).toContain('POST /api/merchant/store');

    // merchant/store wakes the sender; the SFS still answers -101 for the old document.
    await merchantStoreStillRefused(1, -101, text);
    expect(states(1, 2)).toEqual(['unsent', 'unsent']);

    const reason = 'issued under the old DIČ; its certificate expired; reported to the tax office';
    const aside = await setAsideWhenFree(1, reason);
    expect(aside.resultCode).toBe(0);
    expect(aside.document.status.error).toMatchObject({ errorCode: -101 });
    // The queue moves on: the next document is registered.
    expect((await h.post('/api/document/send/offline', {})).body.documents).toHaveLength(1);
    expect(states(1, 2)).toEqual(['set-aside', 'offline-sent']);
  });
});

describe('setting a rejected item aside for the tax office (ADR 0711)', () => {
  it('a last request stuck on a code no fix clears (-117) blocks with 501; set aside with a reason, sales go on; it stays listed as set aside and is never registered', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    // A document that merely waits for the network cannot be set aside: the register sends it.
    await h.sim.goOffline();
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    const waiting = await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'x' });
    expect(waiting.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect((await h.post('/api/document/send/offline', {})).body.documents).toEqual([]);
    await h.sim.goOnline();
    expect((await h.post('/api/document/send/offline', {})).body.documents).toHaveLength(1);

    h.sim.injectFault({ kind: 'soap-fault', code: -117, text: 'Chýba ReferenceReceiptId.' });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(501);
    const blocked = await h.post('/api/document/store', pd());
    expect(blocked.body).toMatchObject({ resultCode: 501, lastRequest: { internalDocumentId: 2 } });
    expect(blocked.body.error).toContain('/api/offline/set-aside');
    // The ways out are not refused with 501 (docs/errors.md): merchant/store among them.
    await usePortableMerchant(h);

    const refused: Array<[unknown, number, string | undefined]> = [
      [{ reason: 'x' }, 701, 'internalDocumentId'],
      [{ internalDocumentId: 2, locationInternalId: 1, reason: 'x' }, 701, 'internalDocumentId'],
      [{ internalDocumentId: 2 }, 701, 'reason'],
      [{ internalDocumentId: 2, reason: '  ' }, 701, 'reason'],
      [{ internalDocumentId: 99, reason: 'x' }, 506, undefined],
      [{ internalDocumentId: 1, reason: 'x' }, 701, 'internalDocumentId'],
    ];
    for (const [body, code, field] of refused) {
      const res = await h.post('/api/offline/set-aside', body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ resultCode: code, ...(field ? { field } : {}) });
    }

    const reason = 'SFS -117 on a sale without refunds; reported to the tax office on 23.11.2026';
    const aside = await h.post('/api/offline/set-aside', { internalDocumentId: 2, reason });
    expect(aside.body.resultCode).toBe(0);
    expect(aside.body.document).toMatchObject({ internalDocumentId: 2 });
    expect(aside.body.document.uuid).toBeUndefined();
    expect(aside.body.document.status.error).toMatchObject({ errorCode: -117 });
    expect(aside.body.document.status.error.detail).toContain('tax office');

    // Sales go on; the set-aside document is never sent again, never repaired, never copied.
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    const requests = receiptRequests().length;
    expect((await h.post('/api/document/send/offline', {})).body.documents).toEqual([]);
    expect(receiptRequests().length).toBe(requests);
    expect((await h.post('/api/document/update', { fixDocument: {} })).body.resultCode).toBe(500);
    const again = await h.post('/api/offline/set-aside', { internalDocumentId: 2, reason });
    expect(again.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });

    // Listed in the report and in status as set aside; the deadline and …/oldest ignore it.
    const report = (await h.post('/api/report/offline', {})).body;
    expect(report.documents.map((d: Json) => d.internalDocumentId)).toEqual([2]);
    expect(report.documents[0].status.error.detail).toContain('tax office');
    expect((await h.get('/api/report/offline/oldest')).body.documents).toEqual([]);
    const s = await status();
    expect(s.state).toBe('READY');
    expect(backlog(s)).toMatchObject({
      state: 'WARNING',
      details: { setAsideDocuments: 1, stuckDocuments: 0, setAside: [{ internalDocumentId: 2 }] },
    });
    expect(backlog(s).reason).toContain('tax office');

    // The CHDÚ keeps the document, its rejection and the operator's reason.
    const records: Json[] = [];
    for await (const r of h.kasa.parts.journal.records()) records.push(r);
    expect(records.filter((r) => r.type === 'document')).toHaveLength(3);
    const repairs = records.filter((r) => r.type === 'repair').map((r) => r.body);
    expect(repairs).toEqual([
      expect.objectContaining({
        subject: { kind: 'document', documentNo: 2 },
        setAside: { reason, errorCode: -117, errorText: 'Chýba ReferenceReceiptId.' },
      }),
    ]);
    expect(h.sim.history().filter((e) => e.registration === 'new')).toHaveLength(2);
  });
});

describe('a clock that ran ahead (ADR 0117 as amended, ADR 0711)', () => {
  it('its document, refused for its date and set aside, no longer holds sales once the clock is right; the numbering of its month stays unique', async () => {
    h = await startHarness();
    const real = h.clock.current.getTime();
    const number = (res: { body: Json }) => res.body.document?.documentNumber as string | undefined;
    const first = await h.post('/api/document/store', pd());
    expect(first.body.resultCode).toBe(0);

    // The clock runs about a year ahead (the 15th at noon, so a day either side is the same month);
    // the simulator shares kasa's clock, so the SFS's −104 is injected.
    const now = new Date(real);
    const ahead = Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), 15, 11, 0, 0);
    h.clock.current = new Date(ahead);
    h.sim.injectFault({
      kind: 'soap-fault',
      code: -104,
      text: 'Dátum vytvorenia je neskorší ako čas spracovania.',
    });
    const refused = await h.post('/api/document/store', pd());
    expect(refused.body).toMatchObject({
      resultCode: 502,
      ekasaError: { errorCode: -104 },
      internalDocumentId: 2,
    });
    const future = refused.body.documentNumber as string;
    expect(future).toMatch(/\/1$/);

    // The clock is put right: the stuck document blocks (501) until it is set aside.
    h.clock.current = new Date(real + 60_000);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(501);
    const aside = await h.post('/api/offline/set-aside', {
      internalDocumentId: 2,
      reason: 'clock ran a year ahead',
    });
    expect(aside.body.resultCode).toBe(0);
    // Before ADR 0117's amendment: 502, the clock "earlier than" the set-aside document, until real
    // time caught up with it a year later.
    const after = await h.post('/api/document/store', pd());
    expect(after.body.resultCode).toBe(0);
    expect(number(after)).toBe(number(first)?.replace(/\/1$/, '/2'));

    // A clock behind the last document not set aside is still refused.
    h.clock.current = new Date(real + 30_000);
    expect((await h.post('/api/document/store', pd())).body).toMatchObject({
      resultCode: 502,
      lastDocumentNumber: number(after),
    });

    // Real time reaches the set-aside document's month: that month goes on after its number 1,
    // before and after its creation time, and the SFS registers each.
    h.clock.current = new Date(ahead - 86_400_000);
    const before = await h.post('/api/document/store', pd());
    expect(before.body.resultCode).toBe(0);
    expect(number(before)).toBe(future.replace(/\/1$/, '/2'));
    h.clock.current = new Date(ahead + 86_400_000);
    const later = await h.post('/api/document/store', pd());
    expect(number(later)).toBe(future.replace(/\/1$/, '/3'));
    expect(later.body.document.uuid).toBeDefined();
    const numbers = [1, 2, 3, 4, 5].map(
      (documentNo) =>
        h!.kasa.parts.index.findDocument({ by: 'documentNo', documentNo })!.document.documentNumber,
    );
    expect(new Set(numbers).size).toBe(5);
    expect(states(1, 5)).toEqual(['online', 'set-aside', 'online', 'online', 'online']);
  });
});
