import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFreeText } from '../../src/core/receipt/free-text-layout.js';
import { renderReceiptText } from '../../src/core/receipt/receipt-text.js';
import { documentLayout } from '../../src/core/services/documents/document-receipt.js';
import { type Harness, type Json, pd } from '../support/kasa-harness.js';
import { linesRepeatedNoneLost } from '../support/no-line-lost.js';

/** One finished job as the device (simulator) decoded it. */
export interface DeviceJob {
  text: string;
  qrCodes: string[];
}

/** A register wired to one printer adapter, and the printer-side controls of that adapter. */
export interface PrinterRig {
  h: Harness;
  /** The code a print fails with when the paper runs out (105; 100 through the CHDÚ, ADR 0508). */
  paperOutCode: number;
  /**
   * The adapter knows what is printed (process IDs, the virtual printer): a resumed print repeats
   * nothing. Otherwise it knows only what arrived and goes back a receive buffer: lines may repeat,
   * none may be missing (ADR 0507).
   */
  exactResume: boolean;
  setPaperOut(out: boolean): Promise<void>;
  /** The line will drop part way into the next receipt (its fourth line or a few blocks in). */
  armDrop(): Promise<void>;
  /** The line is back. */
  clearDrop(): Promise<void>;
  /** Jobs the device finished (cut), decoded by the device. */
  jobs(): Promise<DeviceJob[]>;
  drawerKicks(): Promise<number>;
  close(): Promise<void>;
}

/** The text of the last document's receipt as kasa laid it out. */
function lastLayoutText(h: Harness, chars: number): string {
  const index = h.kasa.parts.index;
  const doc = index.findDocument({ by: 'last' });
  const merchant = index.currentMerchant();
  if (!doc || !merchant) throw new Error('no document or merchant');
  return renderReceiptText(documentLayout(doc, merchant.merchant, chars));
}

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The ReceiptPrinter contract at the level a POS sees it (capability 11): run against the virtual
 * printer, the TCP, serial and USB adapters ↔ `kasa printer-sim`, and the CHDU pass-through ↔
 * `kasa chdu-sim` with a printer-sim behind it. Each step checks what the device decoded.
 */
export function printerContract(name: string, start: () => Promise<PrinterRig>, chars = 48): void {
  describe(`printer contract: ${name}`, () => {
    let rig: PrinterRig;
    beforeAll(async () => {
      rig = await start();
    }, 60_000);
    afterAll(async () => rig?.close(), 30_000);

    it('a full receipt round-trips: the device decodes the layout text and the QR of the document', async () => {
      const before = (await rig.jobs()).length;
      const res = await rig.h.post('/api/document/store', pd());
      expect(res.body.resultCode).toBe(0);
      const jobs = await waitFor('the receipt', async () => {
        const j = await rig.jobs();
        return j.length > before ? j : undefined;
      });
      const job = jobs.at(-1)!;
      expect(job.text).toBe(lastLayoutText(rig.h, chars));
      expect(job.qrCodes).toEqual([res.body.document.qrCode]);
    }, 60_000);

    it('paper out: the store answers 507 with the printer code; paper back + /api/document/print → 0', async () => {
      await rig.setPaperOut(true);
      const res = await rig.h.post('/api/document/store', pd({ externalId: 'paper-out' }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ resultCode: 507, printResultCode: rig.paperOutCode });
      const printer = (await rig.h.get('/api/printer')).body;
      expect(printer.status).toMatchObject({ ready: false, faultCode: rig.paperOutCode });
      expect((await rig.h.post('/api/document/store', pd())).body.resultCode).toBe(508);
      const before = (await rig.jobs()).length;
      await rig.setPaperOut(false);
      const printed = await rig.h.post('/api/document/print', {});
      expect(printed.body).toEqual({ resultCode: 0 });
      const jobs = await waitFor('the reprint', async () => {
        const j = await rig.jobs();
        return j.length > before ? j : undefined;
      });
      expect(jobs.at(-1)!.text).toBe(lastLayoutText(rig.h, chars));
    }, 60_000);

    it('the line drops mid-job: 106 with where to resume; the resumed print completes exactly the rest', async () => {
      const before = (await rig.jobs()).length;
      await rig.armDrop();
      const res = await rig.h.post('/api/document/store', pd({ externalId: 'dropped' }));
      expect(res.body).toMatchObject({ resultCode: 507, printResultCode: 106 });
      const partial = res.body.partialPrint as Json;
      expect(partial.resumeOffset).toBeGreaterThan(0);
      expect(partial.resumeOffset).toBeLessThan(partial.totalBytes);
      // Lines reached the printer: surely printed, or arrived and not confirmed (printed again).
      expect(partial.printedLines + (partial.unconfirmedLines ?? 0)).toBeGreaterThan(0);
      if (rig.exactResume) expect(partial.printedLines).toBeGreaterThan(0);
      expect(partial.jobSha256).toMatch(/^[0-9a-f]{64}$/);
      await rig.clearDrop();
      const printed = await waitFor('the resumed print', async () => {
        const r = await rig.h.post('/api/document/print', {});
        return r.body.resultCode === 0 ? r : undefined;
      });
      expect(printed.body).toEqual({ resultCode: 0 });
      const jobs = await waitFor('the completed receipt', async () => {
        const j = await rig.jobs();
        return j.length > before ? j : undefined;
      });
      // One receipt on the paper: the part before the drop and the rest, no line missing —
      // every line exactly once when the adapter confirms printing, else lines may repeat.
      expect(jobs.length).toBe(before + 1);
      const repeated = linesRepeatedNoneLost(jobs.at(-1)!.text, lastLayoutText(rig.h, chars));
      if (rig.exactResume) expect(repeated).toBe(0);
      expect(jobs.at(-1)!.qrCodes.at(-1)).toBe(res.body.document.qrCode);
    }, 90_000);

    it('the drawer kick reaches the device, alone and with a receipt', async () => {
      const before = await rig.drawerKicks();
      expect((await rig.h.post('/api/drawer/open', {})).body).toEqual({ resultCode: 0 });
      await waitFor('the kick', async () => ((await rig.drawerKicks()) > before ? true : undefined));
      const jobsBefore = (await rig.jobs()).length;
      expect((await rig.h.post('/api/document/store', pd({ openDrawer: true }))).body.resultCode).toBe(0);
      await waitFor('the kick with the receipt', async () =>
        (await rig.drawerKicks()) > before + 1 ? true : undefined,
      );
      // A printer prints what it took in after the answer came: wait for the receipt to be cut.
      await waitFor('the receipt', async () => ((await rig.jobs()).length > jobsBefore ? true : undefined));
      await rig.setPaperOut(true);
      expect((await rig.h.post('/api/drawer/open', { pin: 5 })).body.resultCode).toBe(rig.paperOutCode);
      await rig.setPaperOut(false);
    }, 60_000);

    it('the adapter serialises concurrent jobs in call order, each with its own id', async () => {
      const printer = rig.h.kasa.parts.printer;
      const before = (await rig.jobs()).length;
      const outcomes = await Promise.all(
        ['first', 'second', 'third'].map((t) =>
          printer.print({ kind: 'text', layout: layoutFreeText(t, printer.charsPerLine) }),
        ),
      );
      expect(new Set(outcomes.map((o) => o.jobId)).size).toBe(3);
      const jobs = await waitFor('three jobs', async () => {
        const j = await rig.jobs();
        return j.length >= before + 3 ? j : undefined;
      });
      expect(jobs.slice(before).map((j) => j.text)).toEqual(['first\n\n', 'second\n\n', 'third\n\n']);
    }, 60_000);

    it('GET /api/printer, /api/status/get and /api/chduinfo agree', async () => {
      const printer = (await rig.h.get('/api/printer')).body;
      expect(printer).toMatchObject({
        resultCode: 0,
        charsPerLine: chars,
        numberOfCharInRow: chars,
        drawer: true,
      });
      expect(printer.status.ready).toBe(true);
      const status = (await rig.h.get('/api/status/get')).body;
      const entry = status.components.find((c: Json) => c.component === 'PRINTER');
      expect(entry).toMatchObject({
        state: 'OK',
        details: { adapter: printer.adapter, target: printer.target, charsPerLine: chars, ready: true },
      });
      const info = (await rig.h.get('/api/chduinfo')).body;
      expect(info.printer).toEqual({ adapter: printer.adapter, target: printer.target, ready: true });
      if (printer.adapter === 'chdu') expect(info.printerReady).toBe(true);
    }, 30_000);

    it('after close every print fails with 102', async () => {
      const printer = rig.h.kasa.parts.printer;
      await printer.close();
      const e = await printer
        .print({ kind: 'text', layout: layoutFreeText('x', printer.charsPerLine) })
        .catch((x: unknown) => x);
      expect((e as { resultCode?: number }).resultCode).toBe(102);
      expect((await printer.status()).connected).toBe(false);
    }, 30_000);
  });
}
