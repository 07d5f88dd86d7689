import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReceiptLayout } from '../../src/core/receipt/receipt-blocks.js';
import type { VirtualPrintedJob } from '../../src/simulators/printer/virtual-printer.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock, ManualClock } from '../support/merchant-register.js';
import { storeSettings } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  h?.printer.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

/** The content of the receipt's QR code (one per receipt). */
function qrOf(layout: ReceiptLayout): string | undefined {
  return layout.blocks.find((b) => b.kind === 'qr')?.text;
}

/** The jobs of one kind for one document, oldest first. */
function jobsOf(kind: 'receipt' | 'copy', documentNumber: string): VirtualPrintedJob[] {
  return h!.printer.history.filter((j) => j.kind === kind && j.reference === documentNumber);
}

/** SFS spec §2.10: a receipt with a UID shows it and its QR, no PKP and no offline heading. */
function expectUidForm(job: VirtualPrintedJob | undefined, uid: string): void {
  expect(job).toBeDefined();
  expect(job!.text).toMatch(new RegExp(`UID:\\s+${uid}`));
  expect(qrOf(job!.layout)).toBe(uid);
  expect(job!.text).not.toContain('OFF-LINE DOKLAD');
  expect(job!.text).not.toContain('PKP:');
}

/** SFS spec §2.9: a receipt without a UID shows the offline heading, PKP and the offline QR. */
function expectOfflineForm(job: VirtualPrintedJob | undefined, offlineQr: string): void {
  expect(job).toBeDefined();
  expect(job!.text).toContain('OFF-LINE DOKLAD');
  expect(job!.text).toContain('PKP:');
  expect(job!.text).not.toContain('UID:');
  expect(qrOf(job!.layout)).toBe(offlineQr);
}

const SCHEMA_FAULT = { kind: 'soap-fault', code: -2, text: 'Chyba schémy.' } as const;
const QUIET_SENDER = { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 } as const;

describe('the form of a receipt follows what its original was handed over with (ADR 0713)', () => {
  it('a document stuck at creation, repaired and registered by the repair: its original, its copies and the API qrCode in the UID form, also after the index is rebuilt from the CHDÚ', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-form-'));
    const markDir = mkdtempSync(join(tmpdir(), 'kasa-form-marks-'));
    h = await startHarness({ dataDir, markDir, clock: new LiveClock() });
    h.sim.injectFault(SCHEMA_FAULT);
    const rejected = await h.post('/api/document/store', pd());
    expect(rejected.body.resultCode).toBe(501);
    const stuck = h.kasa.parts.index.findDocument({ by: 'last' })!;
    const number = stuck.document.documentNumber;
    // Stuck when it was created: never printed, never handed over.
    expect(jobsOf('receipt', number)).toHaveLength(0);

    const repaired = await h.post('/api/document/update', {
      fixDocument: { documentEntries: [{ name: 'Káva zrnková' }] },
    });
    expect(repaired.body.resultCode).toBe(0);
    const uid: string = repaired.body.document.uuid;
    expect(uid).toMatch(/^O-/);
    // Registered by the repair's send (SendingCount 2), a late registration for the index; but the
    // original, printed only now, carries the UID the SFS holds it under.
    const originals = jobsOf('receipt', number);
    expect(originals).toHaveLength(1);
    expectUidForm(originals[0], uid);
    const indexed = h.kasa.parts.index.findDocument({
      by: 'documentNo',
      documentNo: stuck.document.documentNo,
    })!;
    expect(indexed).toMatchObject({ sendState: 'offline-sent', printState: 'printed', receiptForm: 'uid' });
    // The API's qrCode is the code on that paper.
    expect(repaired.body.document.qrCode).toBe(uid);
    const got = await h.post('/api/document/get', { documentByUUID: { uuid: uid } });
    expect(got.body.document.qrCode).toBe(uid);

    // Its copy shows what the original showed.
    const copy = await h.post('/api/document/get', { documentByUUID: { uuid: uid }, printer: {} });
    expect(copy.body.resultCode).toBe(0);
    const copies = jobsOf('copy', number);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.text).toContain('KÓPIA');
    expectUidForm(copies[0], uid);

    // kasa stops; without its index the next start derives the form from the CHDÚ's print record.
    await h.close();
    for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
      rmSync(join(dataDir, f), { force: true });
    h = await startHarness({ dataDir, markDir, clock: new LiveClock() });
    expect(
      h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: stuck.document.documentNo }),
    ).toMatchObject({ sendState: 'offline-sent', receiptForm: 'uid' });
    const again = await h.post('/api/document/get', { documentByUUID: { uuid: uid }, printer: {} });
    expect(again.body.resultCode).toBe(0);
    expect(again.body.document.qrCode).toBe(uid);
    expectUidForm(jobsOf('copy', number).at(-1), uid);
  }, 60_000);

  it('an original printed offline stays offline on its copies after it was sent (SFS spec §2.9), also after the index is rebuilt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-form-'));
    const markDir = mkdtempSync(join(tmpdir(), 'kasa-form-marks-'));
    h = await startHarness({ dataDir, markDir, clock: new LiveClock() });
    await storeSettings(h, QUIET_SENDER);
    await h.sim.goOffline();
    const offline = await h.post('/api/document/store', pd());
    expect(offline.body.resultCode).toBe(0);
    const number: string = offline.body.document.documentNumber;
    const offlineQr: string = offline.body.document.qrCode;
    expectOfflineForm(jobsOf('receipt', number)[0], offlineQr);

    await h.sim.goOnline();
    const sent = await h.post('/api/document/send/offline', {});
    expect(sent.body.documents).toHaveLength(1);
    const uid: string = sent.body.documents[0].uuid;

    const copy = await h.post('/api/document/get', { documentByUUID: { uuid: uid }, printer: {} });
    expect(copy.body.resultCode).toBe(0);
    expect(copy.body.document.qrCode).toBe(offlineQr);
    expectOfflineForm(jobsOf('copy', number)[0], offlineQr);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
      sendState: 'offline-sent',
      receiptForm: 'offline',
    });

    await h.close();
    for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
      rmSync(join(dataDir, f), { force: true });
    h = await startHarness({ dataDir, markDir, clock: new LiveClock() });
    const again = await h.post('/api/document/get', { documentByUUID: { uuid: uid }, printer: {} });
    expect(again.body.resultCode).toBe(0);
    expectOfflineForm(jobsOf('copy', number).at(-1), offlineQr);
  }, 60_000);

  it('an original printed part-way offline, then registered, is finished in the offline form it was started in (ADR 0712), and its copies stay offline', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, QUIET_SENDER);
    await h.sim.goOffline();
    h.printer.failNext('PARTIAL_PRINT');
    const cut = await h.post('/api/document/store', pd());
    expect(cut.body).toMatchObject({ resultCode: 507 });
    expect(cut.body.partialPrint).toBeDefined();
    const number: string = cut.body.document.documentNumber;
    const offlineQr: string = cut.body.document.qrCode;
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
      printState: 'failed',
      printStarted: true,
    });

    await h.sim.goOnline();
    const sent = await h.post('/api/document/send/offline', {});
    expect(sent.body.documents).toHaveLength(1);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })!.sendState).toBe('offline-sent');

    // The rest of the paper the customer holds part of: the same job, resumed where it stopped.
    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
    const finished = jobsOf('receipt', number);
    expect(finished).toHaveLength(1);
    expect(finished[0]!.resumedFrom).toBe(cut.body.partialPrint.resumeOffset);
    expectOfflineForm(finished[0], offlineQr);
    // The form was fixed by the part that reached the paper.
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
      sendState: 'offline-sent',
      printState: 'printed',
      receiptForm: 'offline',
    });

    const copy = await h.post('/api/document/get', {
      documentByOkp: { okp: cut.body.document.okp },
      printer: {},
    });
    expect(copy.body.resultCode).toBe(0);
    expectOfflineForm(jobsOf('copy', number)[0], offlineQr);
  }, 60_000);

  it('an offline document whose print put nothing on paper, registered before it is printed: its original and copies carry the UID', async () => {
    h = await startHarness({ clock: new LiveClock() });
    await storeSettings(h, QUIET_SENDER);
    await h.sim.goOffline();
    h.printer.failNext('PRINTER_NO_PAPER');
    const failed = await h.post('/api/document/store', pd());
    expect(failed.body).toMatchObject({ resultCode: 507, printResultCode: 105 });
    const number: string = failed.body.document.documentNumber;

    await h.sim.goOnline();
    const sent = await h.post('/api/document/send/offline', {});
    expect(sent.body.documents).toHaveLength(1);
    const uid: string = sent.body.documents[0].uuid;

    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
    expectUidForm(jobsOf('receipt', number)[0], uid);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
      sendState: 'offline-sent',
      printState: 'printed',
      receiptForm: 'uid',
    });
    const copy = await h.post('/api/document/get', { documentByUUID: { uuid: uid }, printer: {} });
    expect(copy.body.document.qrCode).toBe(uid);
    expectUidForm(jobsOf('copy', number)[0], uid);
  }, 60_000);

  it('an electronic original (online only) is in the UID form, and so are its copies; a VK not sent by law keeps its own form on its copies (ADR 0515)', async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T10:15:30+01:00')) });
    const electronic = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(electronic.body.resultCode).toBe(0);
    const uid: string = electronic.body.document.uuid;
    expect(electronic.body.document.electronicReceipt).toBeDefined();
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
      sendState: 'online',
      printState: 'electronic',
      receiptForm: 'uid',
    });
    const copy = await h.post('/api/document/get', { documentByUUID: { uuid: uid }, printer: {} });
    expect(copy.body.resultCode).toBe(0);
    expectUidForm(jobsOf('copy', electronic.body.document.documentNumber)[0], uid);

    const deposit = await h.post('/api/cash', { amount: 100 });
    expect(deposit.body.resultCode).toBe(0);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({
      sendState: 'not-sent',
      printState: 'printed',
      receiptForm: 'not-sent',
    });
    expect((await h.post('/api/document/get', { printer: {} })).body.resultCode).toBe(0);
    const cashCopy = jobsOf('copy', deposit.body.cash.documentNumber)[0]!;
    expect(cashCopy.text.replace(/\s+/g, ' ')).toContain('Neodosiela sa do e-kasa (zákon 384/2025 Z. z.)');
    expect(cashCopy.text).not.toContain('OFF-LINE');
    expect(cashCopy.text).not.toContain('UID:');
    expect(qrOf(cashCopy.layout)).toBeUndefined();
  });
});
