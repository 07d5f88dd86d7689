import { describe, expect, it } from 'vitest';
import { fiscalFailure as failure } from '../../../test/support/fiscal-failure.js';
import { linesRepeatedNoneLost } from '../../../test/support/no-line-lost.js';
import { DEFAULT_PROFILE } from '../../config/printer-profile.js';
import { FiscalError } from '../../core/fiscal-error.js';
import { BLOCK_PREFIX_SIZE } from '../../core/journal/record-codec.js';
import type { JournalRecord, NewRecord } from '../../core/journal/records.js';
import type { Chdu, ChduStatus } from '../../core/ports/chdu.js';
import type { AppendOptions, Journal } from '../../core/ports/journal.js';
import type { PrintJob } from '../../core/ports/receipt-printer.js';
import { layoutFreeText } from '../../core/receipt/free-text-layout.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { EscPosDecoder } from '../../simulators/printer/escpos-decoder.js';
import { EscPosPaper, jobText, type PrintedJob } from '../../simulators/printer/escpos-paper.js';
import { ChduPassThroughPrinter } from './chdu-pass-through-printer.js';
import { EscPosEncoder } from './escpos-encoder.js';

const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 48);
const receipt: PrintJob = { kind: 'receipt', layout, openDrawer: true, reference: '202601/1' };

const READY: ChduStatus = {
  protocolVersion: '1.3',
  storageOk: true,
  printerReady: true,
  deviceLocked: false,
  printerInvalid: false,
  serial: 1,
  capacityBlocks: 100_000,
  freeBlocks: 100_000,
  blockDataSize: 505,
};

/** Print data in one CHDU Lite block (505 bytes less the block prefix). */
const BLOCK_PRINT_BYTES = 505 - BLOCK_PREFIX_SIZE;

/**
 * The CHDÚ as the pass-through printer sees it: every `print-job` record's print data reach the
 * printer behind it (kept in `forwarded`). The next write can be told to lose its answer, as with
 * the CHDU Lite emulator's `lost-ack` fault on the first print block: that block is stored and
 * forwarded, the host hears nothing back and the journal stops there (`printedBytes` 0).
 */
class ForwardingJournal implements Pick<Journal, 'append'> {
  readonly forwarded: Uint8Array[] = [];
  /** The `print-job` records asked for, with their print data. */
  readonly written: Array<{ body: unknown; print: Uint8Array }> = [];
  loseNextAnswer = false;
  /** The next write: the CHDÚ refuses its first print block (NAK EC_PRINTER), nothing forwarded. */
  refuseNext = false;
  /** The next write: its first print block is forwarded and acknowledged, then the CHDÚ goes away. */
  dropAfterFirstBlock = false;
  private recordNo = 0;

  async append(record: NewRecord, options?: AppendOptions): Promise<JournalRecord> {
    this.recordNo++;
    if (options?.print) this.written.push({ body: record.body, print: options.print });
    if (this.dropAfterFirstBlock && options?.print) {
      this.dropAfterFirstBlock = false;
      this.forwarded.push(options.print.subarray(0, BLOCK_PRINT_BYTES));
      throw new FiscalError('CHDU_NOT_CONNECTED', 'The CHDÚ went away.', {
        recordNo: this.recordNo,
        printedBytes: BLOCK_PRINT_BYTES,
      });
    }
    if (this.refuseNext && options?.print) {
      this.refuseNext = false;
      const device = new FiscalError('PRINTER_NOT_READY', 'CHDÚ: printer not ready.', {
        deviceError: 'EC_PRINTER',
      });
      throw new FiscalError(
        'PRINTER_NOT_READY',
        `Record ${this.recordNo} is written; printing it through the CHDÚ failed.`,
        { recordNo: this.recordNo, printedBytes: 0 },
        { cause: device },
      );
    }
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      if (options?.print) this.forwarded.push(options.print.subarray(0, BLOCK_PRINT_BYTES));
      throw new FiscalError('CHDU_NOT_CONNECTED', 'The CHDÚ did not answer the write.', {
        recordNo: this.recordNo,
        printedBytes: 0,
      });
    }
    if (options?.print) this.forwarded.push(options.print);
    return {
      ...record,
      version: 1,
      recordNo: this.recordNo,
      address: this.recordNo,
      writtenAt: '',
    } as JournalRecord;
  }
}

const chdu: Pick<Chdu, 'status' | 'openDrawer'> = {
  status: async () => READY,
  openDrawer: async () => undefined,
};

/** What the printer behind the CHDÚ made of everything forwarded: the paper and the kicks. */
function printerSaw(forwarded: readonly Uint8Array[]): { jobs: PrintedJob[]; kicks: number } {
  const jobs: PrintedJob[] = [];
  let kicks = 0;
  const paper = new EscPosPaper(
    (j) => jobs.push(j),
    () => kicks++,
  );
  const decoder = new EscPosDecoder();
  for (const bytes of forwarded) for (const cmd of decoder.push(bytes)) paper.apply(cmd);
  return { jobs, kicks };
}

describe('CHDU pass-through: the drawer opens at most once per receipt (ADR 0508, 0517)', () => {
  it('the answer to the part holding the kick is lost (nothing acknowledged): started, since its lines may be on paper (the safe side); the kick counts as sent, the reprint prints every line without it', async () => {
    const journal = new ForwardingJournal();
    const printer = new ChduPassThroughPrinter(chdu, journal, DEFAULT_PROFILE);
    journal.loseNextAnswer = true;
    const e = await failure(printer.print(receipt));
    expect(e.details?.partialPrint).toMatchObject({ printedLines: 0 });
    await printer.print(receipt);
    const saw = printerSaw(journal.forwarded);
    // The lines of the unacknowledged block may be on paper twice (the resumed print begins with
    // its own ESC @); none is missing.
    const paper = saw.jobs.map((j) => jobText(j, 48)).join('');
    expect(linesRepeatedNoneLost(paper, renderReceiptText(layout))).toBeGreaterThan(0);
    expect(saw.kicks).toBe(1);
  });

  it('the printer behind the CHDÚ not ready (the device refused the first part, nothing forwarded): 100 without partialPrint, not started; the reprint prints the whole receipt and opens the drawer, once', async () => {
    const journal = new ForwardingJournal();
    const printer = new ChduPassThroughPrinter(chdu, journal, DEFAULT_PROFILE);
    journal.refuseNext = true;
    const e = await failure(printer.print(receipt));
    expect(e.resultCode).toBe(100);
    expect(e.details?.partialPrint).toBeUndefined();
    await printer.print(receipt);
    const saw = printerSaw(journal.forwarded);
    expect(saw.jobs.map((j) => jobText(j, 48)).join('')).toBe(renderReceiptText(layout));
    // The refused part forwarded nothing, the kick with it: the reprint kicks (ADR 0517 amended).
    expect(saw.kicks).toBe(1);
  });

  it('with another job in between, the receipt printed again still does not kick', async () => {
    const journal = new ForwardingJournal();
    const printer = new ChduPassThroughPrinter(chdu, journal, DEFAULT_PROFILE);
    journal.loseNextAnswer = true;
    expect((await failure(printer.print(receipt))).details?.partialPrint).toBeDefined();
    await printer.print({ kind: 'text', layout: layoutFreeText('between', 48) });
    await printer.print(receipt);
    const saw = printerSaw(journal.forwarded);
    expect(saw.jobs.at(-1) && jobText(saw.jobs.at(-1)!, 48)).toBe(renderReceiptText(layout));
    expect(saw.kicks).toBe(1);
  });

  it('the CHDÚ acknowledged the first unit (ESC @ + kick) but no whole line, then went away: the part of the picture was handed to the CHDÚ, so the job counts as started (the safe side), and the reprint goes on after the first unit, without the kick', async () => {
    // A first line the code page lacks goes as a picture of the text, longer than a CHDÚ block: the
    // acknowledged block holds the first unit and only the start of that picture. Receipt content
    // handed to the device starts the job (ADR 0507 as amended last): its document counts as
    // handed over although a picture cut short prints nothing; the kick is remembered on its own.
    const text: PrintJob = {
      kind: 'text',
      layout: layoutFreeText('✓ Ďakujeme\nDruhý riadok\nTretí riadok', 48),
      openDrawer: true,
    };
    const encoder = new EscPosEncoder(DEFAULT_PROFILE);
    const job = encoder.encode(text.layout, { openDrawer: true });
    expect(job.units[0]!.end).toBeLessThan(BLOCK_PRINT_BYTES);
    expect(job.units[1]!.end).toBeGreaterThan(BLOCK_PRINT_BYTES);
    const journal = new ForwardingJournal();
    const printer = new ChduPassThroughPrinter(chdu, journal, DEFAULT_PROFILE);
    journal.dropAfterFirstBlock = true;
    const e = await failure(printer.print(text));
    expect(e.details?.partialPrint).toMatchObject({ printedLines: 0, resumeOffset: job.units[0]!.end });
    expect(printerSaw(journal.forwarded).kicks).toBe(1);
    await printer.print(text);
    // The reprint: from the first line on, with the prelude, never the kick.
    const reprint = journal.written.at(-1)!;
    expect(reprint.body).toMatchObject({ offset: job.units[0]!.end });
    const saw = printerSaw([reprint.print]);
    expect(saw.kicks).toBe(0);
    // On paper: the picture of the first line, then every other line.
    expect(jobText(saw.jobs[0]!, 48)).toMatch(/^ *\[image 576x24\]\nDruhý riadok\nTretí riadok\n/);
  });
});
