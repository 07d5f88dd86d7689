import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../src/config/printer-profile.js';
import { formatApiDateTime } from '../../src/core/time.js';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock, ManualClock } from '../support/merchant-register.js';
import { storeSettings, usePortableMerchant, waitFor } from '../support/offline-helpers.js';
import { dropPoint } from '../support/printer-drop-point.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

const REJECTION = {
  kind: 'soap-fault',
  code: -104,
  text: 'Dátum vytvorenia je neskorší ako čas spracovania.',
} as const;

describe('repair (capability 10: document/update, fixLocation, 500/501)', () => {
  it('the last request rejected → 501 naming it on store, cash and location; repaired → registered, printed once → the next store gets 0', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    h.sim.injectFault(REJECTION);
    const rejected = await h.post('/api/document/store', pd());
    // Its own date refused (−104): 502 INCORRECT_TIME with the SFS code; the requests after it 501
    // (ADR 0008 §17, ADR 0714).
    expect(rejected.body).toMatchObject({
      resultCode: 502,
      ekasaError: { errorCode: -104, message: REJECTION.text },
    });
    const stuck = h.kasa.parts.index.findDocument({ by: 'last' })!;
    expect(stuck.sendState).toBe('stuck');
    const printedBefore = h.printer.history.length;

    const refusals = [
      await h.post('/api/document/store', pd()),
      await h.post('/api/cash', { amount: 10 }),
      await h.post('/api/location/update', { gps: { x: 17.1, y: 48.1 } }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(500);
      expect(res.body.resultCode).toBe(501);
      expect(res.body.lastRequest).toMatchObject({
        kind: 'document',
        documentNumber: stuck.document.documentNumber,
        okp: stuck.document.okp,
        ekasaError: { errorCode: -104, message: REJECTION.text },
      });
      expect(res.body.error).toContain(stuck.document.documentNumber);
      expect(res.body.error).toContain('-104');
    }
    const status = (await h.get('/api/status/get')).body;
    expect(status).toMatchObject({ state: 'LAST_REQUEST_INVALID', reasonCode: 501 });

    // An invalid fix is a 701 naming the field, and changes nothing.
    const future = formatApiDateTime(new Date(Date.now() + 3_600_000));
    const invalid = await h.post('/api/document/update', { fixDocument: { createDate: future } });
    expect(invalid.body).toMatchObject({ resultCode: 701, field: 'fixDocument.createDate' });
    expect(
      h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: stuck.document.documentNo })?.sendState,
    ).toBe('stuck');

    // A CreateDate other than the original one (whole seconds): the next second.
    await waitFor(() => Date.now() >= Date.parse(stuck.document.sfs.CreateDate) + 1000, 'the next second');
    const now = formatApiDateTime(new Date());
    const repaired = await h.post('/api/document/update', { fixDocument: { createDate: now } });
    expect(repaired.status).toBe(200);
    expect(repaired.body.resultCode).toBe(0);
    const doc = repaired.body.document;
    expect(doc).toMatchObject({
      internalDocumentId: stuck.document.documentNo,
      documentNumber: stuck.document.documentNumber,
    });
    expect(doc.uuid).toMatch(/^O-/);
    expect(doc.createDate).toBe(now);
    // CreateDate is signed in the PKP: a new PKP and OKP; the original record stays in the CHDÚ.
    expect(doc.pkp).not.toBe(stuck.document.pkp);
    expect(doc.okp).not.toBe(stuck.document.okp);
    const records = [];
    for await (const r of h.kasa.parts.journal.records()) records.push(r);
    expect(records.some((r) => r.type === 'document' && r.body.okp === stuck.document.okp)).toBe(true);
    expect(records.filter((r) => r.type === 'repair')).toHaveLength(1);
    // The document was never handed over while stuck: its original is printed now, once.
    const receipts = h.printer.history.slice(printedBefore).filter((j) => j.kind === 'receipt');
    expect(receipts.map((j) => j.reference)).toEqual([stuck.document.documentNumber]);
    // The old OKP still finds the document (the codes of any repair are indexed too).
    expect(
      (await h.post('/api/document/get', { documentByOkp: { okp: stuck.document.okp } })).body.document.okp,
    ).toBe(doc.okp);

    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect((await h.get('/api/status/get')).body.state).toBe('READY');
    // Nothing stuck any more → 500.
    const nothing = await h.post('/api/document/update', { fixDocument: { createDate: now } });
    expect(nothing.status).toBe(500);
    expect(nothing.body.resultCode).toBe(500);
  });

  it('a repair the SFS refuses again for its date → 502 with the new code, still stuck, the next store 501; refused for another reason → 501 (ADR 0714)', async () => {
    h = await startHarness({ clock: new LiveClock() });
    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    expect((await h.post('/api/document/store', pd())).body).toMatchObject({
      resultCode: 501,
      ekasaError: { errorCode: -2 },
    });
    h.sim.injectFault(REJECTION);
    const again = await h.post('/api/document/update', { fixDocument: {} });
    expect(again.body).toMatchObject({
      resultCode: 502,
      ekasaError: { errorCode: -104, message: REJECTION.text },
      internalDocumentId: 1,
    });
    expect(h.kasa.parts.index.findDocument({ by: 'last' })!.sendState).toBe('stuck');
    expect((await h.post('/api/document/store', pd())).body).toMatchObject({
      resultCode: 501,
      lastRequest: { internalDocumentId: 1, ekasaError: { errorCode: -104 } },
    });
    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    const third = await h.post('/api/document/update', { fixDocument: {} });
    expect(third.body).toMatchObject({ resultCode: 501, ekasaError: { errorCode: -2 } });
    expect((await h.post('/api/document/update', { fixDocument: {} })).body.resultCode).toBe(0);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
  });

  it('a document printed offline and rejected later is sent only as the customer holds it: a changing fix is 701 and writes nothing; {} sends it as it is (ADR 0712)', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 });
    await h.sim.goOffline();
    const offline = await h.post('/api/document/store', pd());
    expect(offline.body.resultCode).toBe(0);
    const printed = h.kasa.parts.index.findDocument({ by: 'last' })!;
    expect(printed).toMatchObject({ sendState: 'unsent', printState: 'printed' });
    await h.sim.goOnline();
    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    await h.post('/api/document/send/offline', {});
    expect(h.kasa.parts.index.findDocument({ by: 'last' })!.sendState).toBe('stuck');
    const paper = h.printer.history.filter((j) => j.kind === 'receipt').length;

    // It is the last request: the 501 says it may only be sent as it is, or set aside.
    const blocked = await h.post('/api/document/store', pd());
    expect(blocked.body.resultCode).toBe(501);
    expect(blocked.body.error).toContain('already handed over to the customer');
    expect(blocked.body.error).toContain(
      `{"internalDocumentId": ${printed.document.documentNo}, "fixDocument": {}}`,
    );
    expect(blocked.body.error).toContain('POST /api/offline/set-aside');

    const before = { requests: h.sim.history().length, records: h.kasa.parts.journal.head()?.recordNo };
    for (const [fix, field] of [
      [{ documentEntries: [{ quantity: 1 }] }, 'fixDocument.documentEntries[0]'],
      [{ documentEntries: [{}, { name: 'Rožok' }] }, 'fixDocument.documentEntries[1]'],
      [{ createDate: formatApiDateTime(new Date()) }, 'fixDocument.createDate'],
      [{ useLastMerchant: true }, 'fixDocument.useLastMerchant'],
    ] as const) {
      const refused = await h.post('/api/document/update', { fixDocument: fix });
      expect(refused.body).toMatchObject({ resultCode: 701, field });
      expect(refused.body.error).toContain(printed.document.documentNumber);
      expect(refused.body.error).toContain(
        `{"internalDocumentId": ${printed.document.documentNo}, "fixDocument": {}}`,
      );
    }
    // Nothing was written or sent.
    expect(h.kasa.parts.journal.head()?.recordNo).toBe(before.records);
    expect(h.sim.history().length).toBe(before.requests);

    // Sent again as it is: the PKP, OKP and amount the customer holds are what the SFS registers.
    const asItIs = await h.post('/api/document/update', { fixDocument: {} });
    expect(asItIs.body.resultCode).toBe(0);
    expect(asItIs.body.document).toMatchObject({
      pkp: printed.document.pkp,
      okp: printed.document.okp,
      amount: offline.body.document.amount,
    });
    expect(h.kasa.parts.index.findDocument({ by: 'last' })!.sendState).toBe('offline-sent');
    // It was handed over already: not printed again.
    expect(h.printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(paper);
  });

  it('a document printed part-way offline and rejected later takes only {}; then, registered, it is printed whole once (ADR 0712)', async () => {
    const printerSim = await EscPosPrinterSim.start();
    try {
      const printer = {
        kind: 'tcp' as const,
        host: printerSim.host,
        port: printerSim.port,
        profile: { ...DEFAULT_PROFILE, confirm: 'printed' as const },
      };
      h = await startHarness({ printer, clock: new LiveClock() });
      await storeSettings(h, { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 });
      expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
      await waitFor(() => printerSim.jobs.length === 1, 'the first receipt');
      // Offline, and the printer drops the line part-way through the receipt.
      await h.sim.goOffline();
      printerSim.set({ dropAfterBytes: dropPoint(printerSim.jobs[0]!.bytes) });
      expect((await h.post('/api/document/store', pd())).body.resultCode).not.toBe(0);
      printerSim.set({ dropAfterBytes: undefined as unknown as number });
      expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
        sendState: 'unsent',
        printState: 'failed',
        printStarted: true,
      });
      await h.sim.goOnline();
      h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
      await h.post('/api/document/send/offline', {});
      expect(h.kasa.parts.index.findDocument({ by: 'last' })!.sendState).toBe('stuck');

      // Part of it may be in the customer's hands: nothing of it may change.
      const changed = await h.post('/api/document/update', {
        fixDocument: { documentEntries: [{ quantity: 2 }] },
      });
      expect(changed.body).toMatchObject({ resultCode: 701, field: 'fixDocument.documentEntries[0]' });
      const jobs = printerSim.jobs.length;
      const asItIs = await h.post('/api/document/update', { fixDocument: {} });
      expect(asItIs.body.resultCode).toBe(0);
      // The receipt was never printed whole: it is now, once, with the same data.
      await waitFor(() => printerSim.jobs.length === jobs + 1, 'the whole receipt');
      expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
        sendState: 'offline-sent',
        printState: 'printed',
      });
    } finally {
      await h?.close();
      h = undefined;
      await printerSim.close();
    }
  });

  it('a repair the SFS rejects again leaves the document stuck with the new code', async () => {
    h = await startHarness({ clock: new LiveClock() });
    h.sim.injectFault(REJECTION);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(502); // −104: ADR 0714
    h.sim.injectFault({ kind: 'soap-fault', code: -100, text: 'Nesprávny PKP.' });
    const again = await h.post('/api/document/update', {
      fixDocument: { documentEntries: [{}, { name: 'Rožok čerstvý' }] },
    });
    expect(again.body.resultCode).toBe(501);
    expect(again.body.ekasaError).toMatchObject({ errorCode: -100 });
    const doc = h.kasa.parts.index.findDocument({ by: 'last' })!;
    expect(doc.sendState).toBe('stuck');
    expect(doc.lastExchange).toMatchObject({ errorCode: -100, sendingCount: 2 });
    expect(doc.document.sfs.Items?.[1]?.Name).toBe('Rožok čerstvý');
    // A name is not signed in the PKP: same PKP.
    expect((await h.post('/api/document/store', pd())).body.lastRequest.ekasaError.errorCode).toBe(-100);
    expect(h.printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(0);
  });

  it('fixDocument rules: entries by position within the items; issueDate only for a paragón; dates in the month', async () => {
    h = await startHarness({ clock: new LiveClock() });
    h.sim.injectFault(REJECTION);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(502); // −104: ADR 0714
    const cases: Array<[unknown, string]> = [
      [{}, 'fixDocument'],
      [{ fixDocument: { documentEntries: [{}, {}, {}, { name: 'x' }] } }, 'fixDocument.documentEntries[3]'],
      [{ fixDocument: { issueDate: formatApiDateTime(new Date()) } }, 'fixDocument.issueDate'],
      [{ fixDocument: { invoiceId: 'FA1' } }, 'fixDocument.invoiceId'],
      [{ fixDocument: { createDate: '01.01.2020 10:00:00' } }, 'fixDocument.createDate'],
      [
        { fixDocument: { documentEntries: [{ specialRegulationChange: { newValue: 'PDP' } }] } },
        'fixDocument.documentEntries[0].specialRegulationChange.newValue',
      ],
      // The item member of a store is a plain string; a fix names the change (ADR 0708).
      [
        { fixDocument: { documentEntries: [{ specialRegulation: { newValue: null } }] } },
        'fixDocument.documentEntries[0].specialRegulation',
      ],
      [{ fixDocument: { documentEntries: [{ quantity: -1 }] } }, 'fixDocument.documentEntries[0].quantity'],
    ];
    for (const [body, field] of cases) {
      const res = await h.post('/api/document/update', body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ resultCode: 701, field });
    }
    // A quantity fix recomputes the line, the amount and the VAT recap, and re-signs.
    const before = h.kasa.parts.index.findDocument({ by: 'last' })!;
    const fixed = await h.post('/api/document/update', {
      fixDocument: { documentEntries: [{ quantity: 3 }] },
    });
    expect(fixed.body.resultCode).toBe(0);
    expect(fixed.body.document.amount).toBe(9.95);
    expect(fixed.body.document.documentEntries[0]).toMatchObject({ quantity: 3, totalPrice: 7.5 });
    expect(fixed.body.document.pkp).not.toBe(before.document.pkp);
  });

  it('a new createDate never lies before the document issued before it; in the repeated autumn hour the text the API shows means the instant it shows (ADR 0117, 0708)', async () => {
    // Review s12 #2: document 1 at 02:20+02:00, document 2 at 02:10+01:00 refused (-104). The
    // API shows "25.10.2026 02:10:00"; sent back, it used to become 02:10+02:00 — an hour earlier,
    // before document 1.
    h = await startHarness({ clock: new ManualClock(new Date('2026-10-24T20:00:00Z')) });
    h.clock.current = new Date('2026-10-25T00:20:00Z');
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    h.clock.current = new Date('2026-10-25T01:10:00Z');
    h.sim.injectFault(REJECTION);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(502); // −104: ADR 0714
    // A stuck document is not looked up as valid (ADR 0119): its data are in the offline report.
    const shown = (await h.post('/api/report/offline', {})).body.documents[0].createDate;
    expect(shown).toBe('25.10.2026 02:10:00');
    h.clock.current = new Date('2026-10-25T01:12:00Z');

    const head = h.kasa.parts.journal.head()?.recordNo;
    const requests = h.sim.history().length;
    for (const [createDate, text] of [
      // 00:59+02:00, before document 1: both times named.
      [
        '25.10.2026 01:59:00',
        'must not be before the creation time of document 202610/1, the one issued before it (2026-10-25T02:20:00+02:00): 2026-10-25T01:59:00+02:00 is earlier',
      ],
      // 02:15 is 00:15Z (before document 1) or 01:15Z (after the clock): neither fits.
      [
        '25.10.2026 02:15:00',
        '"25.10.2026 02:15:00" falls in the repeated autumn hour: 2026-10-25T02:15:00+02:00 or 2026-10-25T02:15:00+01:00, and neither fits',
      ],
    ] as const) {
      const refused = await h.post('/api/document/update', { fixDocument: { createDate } });
      expect(refused.body).toMatchObject({ resultCode: 701, field: 'fixDocument.createDate' });
      expect(refused.body.error).toContain(text);
    }
    expect(h.kasa.parts.journal.head()?.recordNo).toBe(head);
    expect(h.sim.history().length).toBe(requests);

    const repaired = await h.post('/api/document/update', { fixDocument: { createDate: shown } });
    expect(repaired.body.resultCode).toBe(0);
    const doc2 = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 2 })!;
    expect(doc2.document.sfs.CreateDate).toBe('2026-10-25T02:10:00+01:00');
  });

  it('the document issued before it is the previous one not set aside: a set-aside document bounds nothing (ADR 0711)', async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-11-25T08:00:00Z')) });
    h.clock.current = new Date('2026-11-25T09:00:00Z');
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    h.clock.current = new Date('2026-11-25T09:10:00Z');
    h.sim.injectFault(REJECTION);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(502); // −104: ADR 0714
    const aside = await h.post('/api/offline/set-aside', { internalDocumentId: 2, reason: 'test' });
    expect(aside.body.resultCode).toBe(0);
    h.clock.current = new Date('2026-11-25T09:20:00Z');
    h.sim.injectFault(REJECTION);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(502); // −104: ADR 0714
    h.clock.current = new Date('2026-11-25T09:30:00Z');
    // Local 10:00, 10:10 (set aside), 10:20 (stuck). Before document 1 the refusal names document 1;
    // 10:05 lies before document 2, set aside, and is accepted.
    const early = await h.post('/api/document/update', {
      fixDocument: { createDate: '25.11.2026 09:59:00' },
    });
    expect(early.body).toMatchObject({ resultCode: 701, field: 'fixDocument.createDate' });
    expect(early.body.error).toContain('document 202611/1');
    const repaired = await h.post('/api/document/update', {
      fixDocument: { createDate: '25.11.2026 10:05:00' },
    });
    expect(repaired.body.resultCode).toBe(0);
    expect(
      h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 3 })!.document.sfs.CreateDate,
    ).toBe('2026-11-25T10:05:00+01:00');
  });

  it('a quantity fix is held to the store rules between items: a discount above what is left sold at its rate is 701, nothing written or sent (ADR 0430)', async () => {
    // Review s12 #3: sale 10.00 and discount −5.00 at 23 %; the sale's quantity 0 gave Amount −5.00.
    h = await startHarness({ clock: new LiveClock() });
    h.sim.injectFault(REJECTION);
    const discounted = pd({
      amount: 5,
      payments: { Karta: 5 },
      documentEntries: [
        { name: 'Káva', price: 10, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' },
        { name: 'Zľava', price: -5, quantity: 1, vatRate: 'VAT_23', itemType: 'DISCOUNT' },
      ],
    });
    expect((await h.post('/api/document/store', discounted)).body.resultCode).toBe(502); // −104: ADR 0714
    const head = h.kasa.parts.journal.head()?.recordNo;
    const requests = h.sim.history().length;
    const refused = await h.post('/api/document/update', {
      fixDocument: { documentEntries: [{ quantity: 0 }] },
    });
    expect(refused.body).toMatchObject({ resultCode: 701, field: 'fixDocument.documentEntries[1].quantity' });
    expect(refused.body.error).toContain('exceed what is sold at VAT_23 (0.00)');
    expect(h.kasa.parts.journal.head()?.recordNo).toBe(head);
    expect(h.sim.history().length).toBe(requests);
    const halved = await h.post('/api/document/update', {
      fixDocument: { documentEntries: [{ quantity: 0.5 }] },
    });
    expect(halved.body.resultCode).toBe(0);
    expect(halved.body.document.amount).toBe(0);
  });

  it("−130 is cleared by capability 10's own body: specialRegulationChange {newValue: null} removes the regulation and the document is registered", async () => {
    h = await startHarness({ clock: new LiveClock() });
    const withRegulation = pd({
      amount: 2,
      documentEntries: [
        {
          name: 'Fľaša',
          price: 2,
          quantity: 1,
          vatRate: 'VAT_0',
          itemType: 'SALE',
          specialRegulation: 'OOD',
        },
      ],
      payments: { Hotovosť: 2 },
    });
    h.sim.injectFault({ kind: 'soap-fault', code: -130, text: 'Osobitná úprava pri nenulovej sadzbe.' });
    expect((await h.post('/api/document/store', withRegulation)).body.resultCode).toBe(501);
    const fixed = await h.post('/api/document/update', {
      fixDocument: { documentEntries: [{ specialRegulationChange: { newValue: null } }] },
    });
    expect(fixed.body.resultCode).toBe(0);
    expect(fixed.body.document.uuid).toMatch(/^O-/);
    expect(fixed.body.document.documentEntries[0].specialRegulation).toBeUndefined();
    const sent = h.sim.history().at(-1)!;
    expect(sent).toMatchObject({ registration: 'new', sendingCount: '2' });
    expect(h.kasa.parts.index.findDocument({ by: 'last' })!.document.sfs.Items?.[0]).not.toHaveProperty(
      'SpecialRegulation',
    );
  });

  it('a rejected location as the last request → 501 on store; fixLocation repairs it; none stuck → 500', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    h.sim.injectFault({
      kind: 'soap-fault',
      code: -108,
      text: 'Dátum vytvorenia polohy je neskorší ako čas spracovania.',
    });
    const rejected = await h.post('/api/location/update', { other: 'Taxi BA 123 AA' });
    // Its own CreateDate refused (−108): 502; the requests after it 501 (ADR 0714).
    expect(rejected.body).toMatchObject({ resultCode: 502, ekasaError: { errorCode: -108 }, internalId: 1 });
    const store = await h.post('/api/document/store', pd());
    expect(store.body).toMatchObject({ resultCode: 501, lastRequest: { kind: 'location', internalId: 1 } });
    // A repair refused again for a reason of time: 502 again; it stays stuck and blocks with 501.
    h.sim.injectFault({ kind: 'soap-fault', code: -108, text: 'Dátum vytvorenia polohy je neskorší.' });
    const again = await h.post('/api/location/update', { fixLocation: { useLastMerchant: true } });
    expect(again.body).toMatchObject({ resultCode: 502, ekasaError: { errorCode: -108 } });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(501);

    const fixed = await h.post('/api/location/update', {
      fixLocation: { createDate: formatApiDateTime(new Date()), useLastMerchant: true },
    });
    expect(fixed.body.resultCode).toBe(0);
    expect(fixed.body.location).toMatchObject({
      internalId: 1,
      kind: 'other',
      other: 'Taxi BA 123 AA',
      sendingCount: 3,
    });
    expect(fixed.body.location.processDate).toBeDefined();
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    const none = await h.post('/api/location/update', { fixLocation: { useLastMerchant: true } });
    expect(none.body.resultCode).toBe(500);
  });

  it('fixLocation: a previous location set aside does not bound the new createDate (ADR 0711, as ADR 0117 amended)', async () => {
    h = await startHarness();
    await usePortableMerchant(h);
    const real = h.clock.current.getTime();
    // The clock a day ahead: location 1 is refused for its date (502) and set aside.
    h.clock.current = new Date(real + 86_400_000);
    h.sim.injectFault({ kind: 'soap-fault', code: -108, text: 'Dátum vytvorenia polohy je neskorší.' });
    expect((await h.post('/api/location/update', { other: 'Trh Miletičova' })).body.resultCode).toBe(502);
    const aside = await h.post('/api/offline/set-aside', {
      locationInternalId: 1,
      reason: 'clock a day ahead',
    });
    expect(aside.body.resultCode).toBe(0);
    // The clock put right: location 2 is refused for another reason and repaired with the true time.
    h.clock.current = new Date(real + 60_000);
    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    expect((await h.post('/api/location/update', { other: 'Taxi BA 123 AA' })).body.resultCode).toBe(501);
    const createDate = formatApiDateTime(new Date(real + 30_000));
    const fixed = await h.post('/api/location/update', { fixLocation: { createDate } });
    // Before: 701 "must not be before the previous location's createDate" (the one set aside).
    expect(fixed.body).toMatchObject({ resultCode: 0, location: { internalId: 2, createDate } });
  });

  it('fixLocation: `{}` sends a location stuck on 602 again as it is; createDate is bounded below (previous location, certificate) and above (now)', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await usePortableMerchant(h);
    expect((await h.post('/api/location/update', { other: 'Trh Miletičova' })).body.resultCode).toBe(0);
    const previous = h.kasa.parts.index.findLocation(1)!.location.sfs.CreateDate;
    h.sim.injectFault({ kind: 'untrusted-signature' });
    const rejected = await h.post('/api/location/update', { other: 'Taxi BA 123 AA' });
    expect(rejected.body).toMatchObject({ resultCode: 501, ekasaError: { errorCode: 602 } });
    expect(h.kasa.parts.index.findLocation(2)!.sendState).toBe('stuck');

    const before = (ms: number) => formatApiDateTime(new Date(Date.parse(previous) - ms));
    const cases: Array<[unknown, string]> = [
      // Long before the register existed (the certificate was issued today).
      [{ createDate: '01.01.2020 10:00:00' }, 'fixLocation.createDate'],
      // Before the previous location: locations stay in the order the register moved.
      [{ createDate: before(60_000) }, 'fixLocation.createDate'],
      [{ createDate: formatApiDateTime(new Date(Date.now() + 3_600_000)) }, 'fixLocation.createDate'],
    ];
    for (const [fixLocation, field] of cases) {
      const res = await h.post('/api/location/update', { fixLocation });
      expect(res.body, JSON.stringify(fixLocation)).toMatchObject({ resultCode: 701, field });
    }
    expect(h.kasa.parts.index.findLocation(2)!.sendState).toBe('stuck');

    const fixed = await h.post('/api/location/update', { fixLocation: {} });
    expect(fixed.body.resultCode).toBe(0);
    expect(fixed.body.location).toMatchObject({ internalId: 2, other: 'Taxi BA 123 AA', sendingCount: 2 });
    expect(fixed.body.location.uuid).toBeDefined();
    const repair = [];
    for await (const r of h.kasa.parts.journal.records()) if (r.type === 'repair') repair.push(r.body);
    expect(repair).toEqual([
      expect.objectContaining({ subject: { kind: 'location', locationNo: 2 }, fix: {} }),
    ]);
  });

  it('an answer that could not be trusted (602) is cleared by an empty fix: sent again as it is, the SFS answers its first Id', async () => {
    h = await startHarness({ clock: new LiveClock() });
    h.sim.injectFault({ kind: 'untrusted-signature' });
    const res = await h.post('/api/document/store', pd());
    expect(res.body.resultCode).toBe(602);
    const registered = h.sim.history()[0]!;
    expect(registered.registration).toBe('new');
    const fixed = await h.post('/api/document/update', { fixDocument: {} });
    expect(fixed.body.resultCode).toBe(0);
    expect(fixed.body.document).toMatchObject({ uuid: registered.id, okp: registered.okp, sendingCount: 2 });
    expect(h.sim.history().at(-1)).toMatchObject({ registration: 'repeat', sendingCount: '2' });
  });
});
