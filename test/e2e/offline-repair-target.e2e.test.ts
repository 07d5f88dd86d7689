import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import { NO_RETRY, storeSettings } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

const SCHEMA = { kind: 'soap-fault', code: -2, text: 'Chyba schémy.' } as const;

/** Documents 1 and 2 issued offline (printed), both rejected by the SFS when sent: both stuck. */
async function twoStuck(harness: Harness): Promise<void> {
  await storeSettings(harness, NO_RETRY);
  await harness.sim.goOffline();
  for (let i = 0; i < 2; i++)
    expect((await harness.post('/api/document/store', pd())).body.resultCode).toBe(0);
  await harness.sim.goOnline();
  harness.sim.injectFault({ ...SCHEMA, count: 2 });
  await harness.post('/api/document/send/offline', {});
  expect(stateOf(harness, 1)).toBe('stuck');
  expect(stateOf(harness, 2)).toBe('stuck');
}

function stateOf(harness: Harness, documentNo: number): string | undefined {
  return harness.kasa.parts.index.findDocument({ by: 'documentNo', documentNo })?.sendState;
}

/** What a request must leave alone: the CHDÚ, the SFS and the printer. */
function effects(harness: Harness): { records: number | undefined; requests: number; jobs: number } {
  return {
    records: harness.kasa.parts.journal.head()?.recordNo,
    requests: harness.sim.history().length,
    jobs: harness.printer.history.length,
  };
}

describe('document/update naming its document (internalDocumentId, ADR 0715)', () => {
  it('the report names each stuck document (handed over: only {} sends it again), OFFLINE_BACKLOG the oldest, and its hint repairs', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await twoStuck(h);
    const report = await h.post('/api/report/offline', {});
    const details = report.body.documents.map(
      (d: { internalDocumentId: number; status: { error: { detail: string } } }) => [
        d.internalDocumentId,
        d.status.error.detail,
      ],
    );
    expect(details.map(([id]: [number]) => id)).toEqual([1, 2]);
    for (const [id, detail] of details) {
      // Both were printed offline before the SFS rejected them (ADR 0712).
      expect(detail).toContain('handed over to the customer');
      expect(detail).toContain(`{"internalDocumentId": ${id}, "fixDocument": {}}`);
    }
    const backlog = (await h.get('/api/status/get')).body.components.find(
      (c: { component: string }) => c.component === 'OFFLINE_BACKLOG',
    );
    expect(backlog.reason).toContain('the next to repair is document');
    expect(backlog.reason).toContain('{"internalDocumentId": 1, "fixDocument": {}}');
    const fixed = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(fixed.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 1 } });
  });

  it('a repeated update with the target answers the repaired document and leaves the next stuck one alone; the same without the target repairs the next one', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await twoStuck(h);

    const first = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 1 } });
    expect(stateOf(h, 1)).toBe('offline-sent');
    const before = effects(h);
    const second = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 2 })!;

    // The POS never got the first answer and repeats the request: document 1 as it stands now.
    const retry = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(effects(h)).toEqual(before);
    const untouched = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 2 })!;
    expect(untouched).toMatchObject({ sendState: 'stuck', sendingCount: second.sendingCount });
    expect(untouched.repairedBy).toBeUndefined();

    // The same repeat without the target (the API text's request) goes to the next stuck document.
    const blind = await h.post('/api/document/update', { fixDocument: {} });
    expect(blind.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 2 } });
    expect(stateOf(h, 2)).toBe('offline-sent');
    expect(h.sim.history().length).toBeGreaterThan(before.requests);
  });

  it('a stuck document that is not the oldest → 701 naming internalDocumentId and the document to repair first; nothing written or sent', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await twoStuck(h);
    const oldest = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 })!;
    const before = effects(h);
    const refused = await h.post('/api/document/update', { internalDocumentId: 2, fixDocument: {} });
    expect(refused.status).toBe(500);
    expect(refused.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(refused.body.error).toContain(`${oldest.document.documentNumber} (internalDocumentId 1)`);
    expect(refused.body.error).toContain('must be repaired first');
    expect(effects(h)).toEqual(before);
    expect([stateOf(h, 1), stateOf(h, 2)]).toEqual(['stuck', 'stuck']);
    // Naming the oldest repairs it.
    const fixed = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(fixed.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 1 } });
  });

  it('a repaired document whose original is not printed answers 507 with the document on a repeat; nothing printed, sent or written', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    h.sim.injectFault(SCHEMA);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(501);
    h.printer.failNext('PRINTER_NO_PAPER');
    const first = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(first.body).toMatchObject({ resultCode: 105, document: { internalDocumentId: 1 } });
    expect(stateOf(h, 1)).toBe('offline-sent');
    const before = effects(h);

    const retry = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(retry.body).toMatchObject({
      resultCode: 507,
      printResultCode: 105,
      document: { internalDocumentId: 1, uuid: first.body.document.uuid },
    });
    expect(retry.body.error).toContain('print it with POST /api/document/print');
    expect(effects(h)).toEqual(before);

    // Printed: the repeat answers 0.
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(0);
    const after = effects(h);
    const printed = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(printed.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 1 } });
    expect(effects(h)).toEqual(after);
  });

  it('a document repaired while the SFS could not be reached (queued) answers 0 as it stands on a repeat', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    h.sim.injectFault(SCHEMA);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(501);
    await h.sim.goOffline();
    const first = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(first.body).toMatchObject({ resultCode: 0, document: { internalDocumentId: 1 } });
    expect(stateOf(h, 1)).toBe('unsent');
    const before = effects(h);
    const retry = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(retry.body).toEqual(first.body);
    expect(effects(h)).toEqual(before);
  });

  it('a set-aside document answers its SFS error; nothing written or sent', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    h.sim.injectFault({ kind: 'soap-fault', code: -117, text: 'Chýba ReferenceReceiptId.' });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(501);
    expect(
      (await h.post('/api/offline/set-aside', { internalDocumentId: 1, reason: 'test' })).body.resultCode,
    ).toBe(0);
    const before = effects(h);
    const res = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      resultCode: 501,
      internalDocumentId: 1,
      ekasaError: { errorType: 'EKASA', errorCode: -117 },
    });
    expect(res.body.error).toContain('set aside for the tax office');
    expect(res.body.document).toBeUndefined();
    expect(effects(h)).toEqual(before);
  });

  it('a document never rejected → 701 naming internalDocumentId and the one that waits; an unknown one → 506 (HTTP 404); a bad value → 701', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, NO_RETRY);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    h.sim.injectFault(SCHEMA);
    const stuck = await h.post('/api/document/store', pd());
    expect(stuck.body).toMatchObject({ resultCode: 501, internalDocumentId: 2 });
    const before = effects(h);

    const registered = await h.post('/api/document/update', { internalDocumentId: 1, fixDocument: {} });
    expect(registered.body).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    expect(registered.body.error).toContain('was never rejected');
    expect(registered.body.error).toContain(`${stuck.body.documentNumber} (internalDocumentId 2)`);

    const unknown = await h.post('/api/document/update', { internalDocumentId: 99, fixDocument: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.resultCode).toBe(506);
    expect(unknown.body.error).toContain('internalDocumentId 99');

    for (const value of [0, -1, 1.5, '2', 2_147_483_648]) {
      const bad = await h.post('/api/document/update', { internalDocumentId: value, fixDocument: {} });
      expect(bad.body, JSON.stringify(value)).toMatchObject({ resultCode: 701, field: 'internalDocumentId' });
    }
    expect(effects(h)).toEqual(before);
    expect(stateOf(h, 2)).toBe('stuck');
  });
});
