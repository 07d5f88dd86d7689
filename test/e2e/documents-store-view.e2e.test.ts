import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IndexedDocument } from '../../src/core/ports/journal-index.js';
import { WrittenDocument } from '../../src/core/services/documents/written-document.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/**
 * ADR 1113: a store decides "stuck?" and prints from the state derived from the records it wrote,
 * and reads its document from the index once, for the answer. The derived state must be exactly
 * what the index would have answered at that moment — for every way a store can end.
 */
let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

interface Seen {
  derived: IndexedDocument;
  indexed: IndexedDocument | undefined;
  atHead: boolean;
}

/** Every `derived()` of a store, with what the index held at that moment; and the `current()` calls. */
function watch(harness: Harness) {
  const seen: Seen[] = [];
  let currents = 0;
  const { index, journal } = harness.kasa.parts;
  const derived = WrittenDocument.prototype.derived;
  vi.spyOn(WrittenDocument.prototype, 'derived').mockImplementation(function (this: WrittenDocument) {
    const view = derived.call(this);
    seen.push({
      derived: view,
      indexed: index.findDocument({ by: 'documentNo', documentNo: this.record.documentNo }),
      atHead: index.highWaterMark() === (journal.head()?.recordNo ?? 0),
    });
    return view;
  });
  const current = WrittenDocument.prototype.current;
  const answered: Array<{ derived: IndexedDocument; indexed: IndexedDocument | undefined }> = [];
  vi.spyOn(WrittenDocument.prototype, 'current').mockImplementation(function (this: WrittenDocument) {
    currents++;
    // What the answer would be if the index were behind: the records written, the print included.
    answered.push({
      derived: derived.call(this),
      indexed: index.findDocument({ by: 'documentNo', documentNo: this.record.documentNo }),
    });
    return current.call(this);
  });
  return {
    /**
     * The view the store decided on, checked against the index; resets. That is the last derived()
     * taken with the index at the CHDÚ head — after the outcome is durable and applied; the layout's
     * view, taken while the outcome is still being written (ADR 1109), is not at the head.
     */
    decided(): IndexedDocument {
      const last = seen.filter((s) => s.atHead).at(-1);
      expect(last, 'no derived view taken after the outcome was written').toBeDefined();
      // The index keeps the first attempt's date for the resend deadline (ADR 0702); the
      // store's decision and its print do not read it.
      const { firstAttemptDate: _deadlineOnly, ...indexed } = last!.indexed ?? ({} as IndexedDocument);
      expect(JSON.parse(JSON.stringify(last!.derived))).toEqual(JSON.parse(JSON.stringify(indexed)));
      seen.length = 0;
      return last!.derived;
    },
    currents: () => currents,
    /** The records' view at the answer, after the print, beside the index row (equal: ADR 0116). */
    atAnswer: () => answered.at(-1),
  };
}

describe('a store decides from the records it wrote, and reads the index once for its answer (ADR 1113)', () => {
  it('online, electronic, printer failure, a VK and rejected: the same view as the index', async () => {
    h = await startHarness();
    const w = watch(h);

    const online = await h.post('/api/document/store', pd());
    expect(online.body.resultCode).toBe(0);
    expect(w.decided()).toMatchObject({ sendState: 'online', printState: 'pending' });
    expect(w.currents()).toBe(1); // two looks before ADR 1113

    const electronic = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(electronic.body.document.electronicReceipt).toEqual(expect.any(String));
    expect(w.decided()).toMatchObject({ sendState: 'online' });
    expect(w.currents()).toBe(2);

    h.printer.failNext('PRINTER_NO_PAPER');
    const unprinted = await h.post('/api/document/store', pd());
    expect(unprinted.body.resultCode).toBe(507);
    expect(w.decided()).toMatchObject({ sendState: 'online', printState: 'pending' });
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(0);

    const deposit = await h.post('/api/cash', { amount: 100 }); // a VK: not sent (ADR 0704)
    expect(deposit.body.resultCode).toBe(0);
    expect(w.decided()).toMatchObject({ sendState: 'not-sent' });

    h.sim.injectFault({ kind: 'soap-fault', code: -100, text: 'Chybný podpisový kód PKP' });
    const rejected = await h.post('/api/document/store', pd());
    expect(rejected.body.resultCode).toBe(501);
    expect(rejected.body.ekasaError).toMatchObject({ errorCode: -100 });
    expect(w.decided()).toMatchObject({ sendState: 'stuck' });
  });

  it("a code that refuses the whole register (-13) on the store's own attempt: stuck as ADR 0711 says, the same view as the index", async () => {
    h = await startHarness();
    const w = watch(h);
    h.sim.injectFault({ kind: 'soap-fault', code: -13, text: 'Certifikát nie je platný.' });
    const refused = await h.post('/api/document/store', pd());
    expect(refused.body.resultCode).toBe(501);
    expect(w.decided()).toMatchObject({ sendState: 'stuck' });
  });

  it("a print cut short (PARTIAL_PRINT): the records' view at the answer equals the index, printStarted included", async () => {
    h = await startHarness();
    const w = watch(h);
    h.printer.failNext('PARTIAL_PRINT');
    const cut = await h.post('/api/document/store', pd());
    expect(cut.body.resultCode).toBe(507);
    expect(cut.body.partialPrint).toBeDefined();
    const at = w.atAnswer()!;
    expect(at.indexed).toMatchObject({ printStarted: true });
    const { firstAttemptDate: _deadlineOnly, ...indexed } = at.indexed!;
    expect(JSON.parse(JSON.stringify(at.derived))).toEqual(JSON.parse(JSON.stringify(indexed)));
  });

  it('an answer that cannot be read (garbage): the same view as the index', async () => {
    h = await startHarness();
    const w = watch(h);
    h.sim.injectFault({ kind: 'garbage' });
    const garbled = await h.post('/api/document/store', pd());
    expect(garbled.body.resultCode).toBe(0);
    expect(w.decided()).toMatchObject({ sendState: 'unsent' });
  });

  it('an answer that cannot be trusted (602): the same view as the index', async () => {
    h = await startHarness();
    const w = watch(h);
    h.sim.injectFault({ kind: 'untrusted-signature' });
    const unverified = await h.post('/api/document/store', pd());
    expect(unverified.body.resultCode).toBe(602);
    expect(w.decided()).toMatchObject({ sendState: 'stuck' });
    expect(w.currents()).toBe(0); // refused before the answer is read
  });

  it('the SFS unreachable (issued offline): the same view as the index', async () => {
    h = await startHarness();
    const w = watch(h);
    await h.sim.goOffline();
    const offline = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(offline.body.resultCode).toBe(0);
    expect(offline.body.document.electronicReceipt).toBeUndefined(); // offline: printed
    expect(w.decided()).toMatchObject({ sendState: 'unsent' });
    expect(w.currents()).toBe(1);
  });
});
