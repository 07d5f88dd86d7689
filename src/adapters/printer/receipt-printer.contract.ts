import { expect, it } from 'vitest';
import { FiscalError } from '../../core/fiscal-error.js';
import type { PrinterFault, ReceiptPrinter } from '../../core/ports/receipt-printer.js';
import { layoutFreeText } from '../../core/receipt/free-text-layout.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { RESULT_CODES } from '../../core/result-codes.js';

/** What the contract needs from one adapter under test. */
export interface PrinterUnderTest {
  printer: ReceiptPrinter;
  /** Makes the next job fail the way the device would (simulator method, fake device, …). */
  failNextJob(fault: PrinterFault): void;
  /** What reached the paper, as text lines per job, for order checks. */
  printedReferences(): Promise<string[]>;
}

/**
 * The ReceiptPrinter contract (STYLE.md point 4): one suite run against every adapter — the
 * virtual printer always, an ESC/POS printer against a wire-level fake. Call inside `describe`.
 */
export function receiptPrinterContract(create: () => Promise<PrinterUnderTest>): void {
  const receipt = (width: number) => layoutReceipt(SAMPLE_RECEIPTS.pdOnline, width);

  it('contract: reports a ready status with its line width', async () => {
    const { printer } = await create();
    const status = await printer.status();
    expect(status).toMatchObject({ ready: true, connected: true, charsPerLine: printer.charsPerLine });
    expect(status.fault).toBeUndefined();
    await printer.close();
  });

  it('contract: prints receipts and free text, each job with its own id, never synchronously', async () => {
    const { printer, printedReferences } = await create();
    let settled = false;
    const first = printer.print({
      kind: 'receipt',
      layout: receipt(printer.charsPerLine),
      reference: '202601/23',
    });
    void first.then(() => {
      settled = true;
    });
    expect(settled).toBe(false);
    const a = await first;
    const b = await printer.print({ kind: 'text', layout: layoutFreeText('Stôl 4', printer.charsPerLine) });
    expect(a.jobId).not.toBe(b.jobId);
    expect(await printedReferences()).toEqual(['202601/23', '']);
    await printer.close();
  });

  it('contract: serialises concurrent jobs in call order', async () => {
    const { printer, printedReferences } = await create();
    const jobs = ['1', '2', '3'].map((reference) =>
      printer.print({ kind: 'copy', layout: receipt(printer.charsPerLine), reference }),
    );
    await Promise.all(jobs);
    expect(await printedReferences()).toEqual(['1', '2', '3']);
    await printer.close();
  });

  it('contract: a device fault rejects the job with its printer code and prints nothing', async () => {
    const { printer, failNextJob, printedReferences } = await create();
    failNextJob('PRINTER_NO_PAPER');
    const error = await printer
      .print({ kind: 'receipt', layout: receipt(printer.charsPerLine) })
      .catch((e) => e);
    expect(FiscalError.is(error)).toBe(true);
    expect((error as FiscalError).resultCode).toBe(RESULT_CODES.PRINTER_NO_PAPER.code);
    expect(await printedReferences()).toEqual([]);
    await printer.print({ kind: 'receipt', layout: receipt(printer.charsPerLine), reference: 'after' });
    expect(await printedReferences()).toEqual(['after']);
    await printer.close();
  });

  it('contract: after close every call fails with PRINTER_NOT_CONNECTED', async () => {
    const { printer } = await create();
    await printer.close();
    const error = await printer
      .print({ kind: 'receipt', layout: receipt(printer.charsPerLine) })
      .catch((e) => e);
    expect((error as FiscalError).resultCode).toBe(RESULT_CODES.PRINTER_NOT_CONNECTED.code);
    expect((await printer.status()).connected).toBe(false);
  });
}
