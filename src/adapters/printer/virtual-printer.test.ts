import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FiscalError } from '../../core/fiscal-error.js';
import type { PrinterFault, PrintJob } from '../../core/ports/receipt-printer.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { RESULT_CODES } from '../../core/result-codes.js';
import { PngReceiptRenderer } from '../receipt-image/png-receipt-renderer.js';
import { NoPrinter } from './no-printer.js';
import { receiptPrinterContract } from './receipt-printer.contract.js';
import { VirtualPrinter } from './virtual-printer.js';

const renderer = new PngReceiptRenderer();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kasa-virtual-printer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function job(overrides: Partial<PrintJob> = {}, width = 48): PrintJob {
  return { kind: 'receipt', layout: layoutReceipt(SAMPLE_RECEIPTS.pdOnline, width), ...overrides };
}

async function codeOf(p: Promise<unknown>): Promise<number | undefined> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  return FiscalError.is(e) ? e.resultCode : undefined;
}

describe('VirtualPrinter (contract)', () => {
  receiptPrinterContract(async () => {
    const printer = new VirtualPrinter({ dir, renderer, charsPerLine: 42 });
    return {
      printer,
      failNextJob: (fault: PrinterFault) => printer.failNext(fault),
      printedReferences: async () => printer.history.map((j) => j.reference ?? ''),
    };
  });
});

describe('VirtualPrinter', () => {
  it('writes each job as <n>-<kind>[-ref].png and .txt: the same PNG renderer, the plain text', async () => {
    const printer = new VirtualPrinter({ dir, renderer, charsPerLine: 32 });
    const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOffline, 32);
    const outcome = await printer.print({ kind: 'receipt', layout, reference: '202601/24' });
    await printer.print({ kind: 'copy', layout: layoutReceipt(SAMPLE_RECEIPTS.copy, 32) });
    expect(outcome.jobId).toBe('1');
    expect((await readdir(dir)).sort()).toEqual([
      '000001-receipt-202601-24.png',
      '000001-receipt-202601-24.txt',
      '000002-copy.png',
      '000002-copy.txt',
    ]);
    const txt = await readFile(join(dir, '000001-receipt-202601-24.txt'), 'utf8');
    expect(txt).toBe(renderReceiptText(layout));
    expect(txt).toContain('OFF-LINE DOKLAD');
    const png = await readFile(join(dir, '000001-receipt-202601-24.png'));
    expect(png.equals(renderer.render(layout, { paperWidthPx: 384 }).png)).toBe(true);
    expect(PNG.sync.read(png).width).toBe(384);
    expect(printer.history.map((j) => [j.jobNo, j.kind])).toEqual([
      [1, 'receipt'],
      [2, 'copy'],
    ]);
    expect(printer.target).toBe(`virtual:${dir}`);
  });

  it('continues the numbering of files already in the folder (after a restart)', async () => {
    await new VirtualPrinter({ dir, renderer }).print(job());
    await new VirtualPrinter({ dir, renderer }).print(job());
    expect((await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()).toEqual([
      '000001-receipt.txt',
      '000002-receipt.txt',
    ]);
  });

  it('keeps jobs in memory only when it has no folder', async () => {
    const printer = new VirtualPrinter({ renderer });
    await printer.print(job());
    expect(printer.target).toBe('virtual:memory');
    expect(printer.history[0]?.files).toBeUndefined();
    expect(printer.history[0]?.text).toContain('POKLADNIČNÝ DOKLAD');
  });

  it('fails with 105 without paper, 100 with the cover open, 102 when disconnected; status says so', async () => {
    const printer = new VirtualPrinter({ dir, renderer });
    const cases: Array<[() => void, PrinterFault, number]> = [
      [() => printer.setPaper('out'), 'PRINTER_NO_PAPER', 105],
      [() => printer.setCoverOpen(true), 'PRINTER_NOT_READY', 100],
      [() => printer.setConnected(false), 'PRINTER_NOT_CONNECTED', 102],
    ];
    for (const [inject, fault, code] of cases) {
      printer.reset();
      inject();
      expect(await codeOf(printer.print(job()))).toBe(code);
      expect(await codeOf(printer.print(job()))).toBe(code);
      const status = await printer.status();
      expect(status.ready).toBe(false);
      expect(status.fault).toBe(fault);
      expect(RESULT_CODES[fault].code).toBe(code);
    }
    printer.reset();
    printer.setPaper('near-end');
    await printer.print(job());
    expect(await printer.status()).toMatchObject({ ready: true, paper: 'near-end', model: 'virtual' });
    expect(await readdir(dir)).toHaveLength(2);
  });

  it('fails the next N jobs with a chosen code, then prints again; records the failures', async () => {
    const printer = new VirtualPrinter({ dir, renderer });
    printer.failNext('PRINTER_NOT_READY', 2);
    printer.failNext('PRINTER_COMMUNICATION_ERROR');
    expect(printer.pendingFaults()).toBe(3);
    expect(() => printer.assertNoPendingFaults()).toThrow();
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await codeOf(printer.print(job({ reference: `r${i}` }))));
    expect(codes).toEqual([100, 100, 103, undefined]);
    printer.assertNoPendingFaults();
    expect(printer.failures.map((f) => [f.reference, f.fault])).toEqual([
      ['r0', 'PRINTER_NOT_READY'],
      ['r1', 'PRINTER_NOT_READY'],
      ['r2', 'PRINTER_COMMUNICATION_ERROR'],
    ]);
    expect(printer.history.map((j) => j.reference)).toEqual(['r3']);
    expect(printer.history[0]?.jobNo).toBe(1);
  });

  it('refuses a job wider than its paper with PRINTER_DATA_REFUSED', async () => {
    const printer = new VirtualPrinter({ dir, renderer, charsPerLine: 32 });
    expect(await codeOf(printer.print(job({}, 42)))).toBe(101);
  });

  it('turns a write failure into PRINTER_COMMUNICATION_ERROR', async () => {
    const printer = new VirtualPrinter({
      dir,
      renderer,
      files: {
        mkdir: async () => {},
        readdir: async () => [],
        writeFile: async () => {
          throw new Error('ENOSPC');
        },
      },
    });
    expect(await codeOf(printer.print(job()))).toBe(103);
  });

  it('kicks the drawer with a job or alone', async () => {
    const printer = new VirtualPrinter({ dir, renderer });
    await printer.print(job({ openDrawer: true }));
    await printer.print(job());
    await printer.openDrawer();
    expect(printer.drawerOpenings).toBe(2);
    expect(printer.history.map((j) => j.openDrawer)).toEqual([true, false]);
    printer.setConnected(false);
    expect(await codeOf(printer.openDrawer())).toBe(102);
  });
});

describe('NoPrinter (--printer none)', () => {
  it('prints nothing: every print and drawer kick fails with PRINTER_NOT_CONFIGURED; status says none', async () => {
    const printer = new NoPrinter({ charsPerLine: 42 });
    expect(await codeOf(printer.print())).toBe(104);
    expect(await codeOf(printer.openDrawer())).toBe(104);
    expect(await printer.status()).toEqual({
      ready: false,
      connected: false,
      paper: 'unknown',
      coverOpen: false,
      charsPerLine: 42,
      model: 'none',
      fault: 'PRINTER_NOT_CONFIGURED',
    });
    expect(printer.target).toBe('none');
  });
});
