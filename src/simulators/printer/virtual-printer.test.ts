import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NoPrinter } from '../../adapters/printer/no-printer.js';
import { FiscalError } from '../../core/fiscal-error.js';
import type { PrinterFault, PrintJob } from '../../core/ports/receipt-printer.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { RESULT_CODES } from '../../core/result-codes.js';
import { EscPosDecoder } from './escpos-decoder.js';
import { EscPosPaper, jobText, type PrintedJob } from './escpos-paper.js';
import {
  MAX_JOBS_FILING,
  VIRTUAL_PRINTER_HISTORY,
  VirtualPrinter,
  type VirtualPrinterFiles,
} from './virtual-printer.js';

let dir: string;
const made: VirtualPrinter[] = [];
/** A printer whose files this test waits for before its folder is removed (ADR 1108). */
function vp(options?: ConstructorParameters<typeof VirtualPrinter>[0]): VirtualPrinter {
  const printer = new VirtualPrinter(options);
  made.push(printer);
  return printer;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kasa-virtual-printer-'));
});
afterEach(async () => {
  await Promise.all(made.splice(0).map((p) => p.filed()));
  await rm(dir, { recursive: true, force: true });
});

function job(overrides: Partial<PrintJob> = {}, width = 48): PrintJob {
  return { kind: 'receipt', layout: layoutReceipt(SAMPLE_RECEIPTS.pdOnline, width), ...overrides };
}

/** Printer files whose writes the test decides; everything else does nothing. */
function filesWriting(writeFile: VirtualPrinterFiles['writeFile']): VirtualPrinterFiles {
  return {
    mkdir: async () => {},
    readdir: async () => [],
    readFile: async () => new Uint8Array(0),
    writeFile,
  };
}

/** A promise the test opens when it wants. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function codeOf(p: Promise<unknown>): Promise<number | undefined> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  return FiscalError.is(e) ? e.resultCode : undefined;
}

describe('VirtualPrinter', () => {
  it('keeps each job as <n>-<kind>[-ref].bin (ESC/POS) and .txt; the PNG only when asked for', async () => {
    const printer = vp({ dir, charsPerLine: 32 });
    const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOffline, 32);
    const outcome = await printer.print({ kind: 'receipt', layout, reference: '202601/24' });
    await printer.print({ kind: 'copy', layout: layoutReceipt(SAMPLE_RECEIPTS.copy, 32) });
    expect(outcome.jobId).toBe('1');
    await printer.filed(); // the files follow the jobs (ADR 1108)
    expect((await readdir(dir)).sort()).toEqual([
      '000001-receipt-202601-24.bin',
      '000001-receipt-202601-24.txt',
      '000002-copy.bin',
      '000002-copy.txt',
    ]);
    const txt = await readFile(join(dir, '000001-receipt-202601-24.txt'), 'utf8');
    expect(txt).toBe(renderReceiptText(layout));
    expect(txt).toContain('OFF-LINE DOKLAD');
    // The bytes are what a printer gets: a printer decodes them to the same text and QR.
    const bin = await readFile(join(dir, '000001-receipt-202601-24.bin'));
    const jobs: PrintedJob[] = [];
    const paper = new EscPosPaper((j) => jobs.push(j));
    for (const cmd of new EscPosDecoder().push(bin)) paper.apply(cmd);
    expect(jobText(jobs[0]!, 32)).toBe(txt);
    // The paper image is drawn on demand, after a restart too, and kept beside the bytes.
    const png = await vp({ dir, charsPerLine: 32 }).png(1);
    expect(PNG.sync.read(png).width).toBe(384);
    expect((await readdir(dir)).filter((f) => f.endsWith('.png'))).toEqual(['000001-receipt-202601-24.png']);
    expect(printer.history.map((j) => [j.jobNo, j.kind])).toEqual([
      [1, 'receipt'],
      [2, 'copy'],
    ]);
    expect(printer.target).toBe(`virtual:${dir}`);
  });

  it('continues the numbering of files already in the folder (after a restart)', async () => {
    for (let run = 0; run < 2; run++) {
      const printer = vp({ dir });
      await printer.print(job());
      await printer.close(); // a stop writes the files of every job printed
    }
    expect((await readdir(dir)).filter((f) => f.endsWith('.txt')).sort()).toEqual([
      '000001-receipt.txt',
      '000002-receipt.txt',
    ]);
  });

  it('keeps jobs in memory only when it has no folder', async () => {
    const printer = vp({});
    await printer.print(job());
    expect(printer.target).toBe('virtual:memory');
    expect(printer.history[0]?.files).toBeUndefined();
    expect(printer.history[0]?.text).toContain('POKLADNIČNÝ DOKLAD');
  });

  it('fails with 105 without paper, 100 with the cover open, 102 when disconnected; status says so', async () => {
    const printer = vp({ dir });
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
    await printer.filed();
    expect(await printer.status()).toMatchObject({ ready: true, paper: 'near-end', model: 'virtual' });
    expect(await readdir(dir)).toHaveLength(2);
  });

  it('fails the next N jobs with a chosen code, then prints again; records the failures', async () => {
    const printer = vp({ dir });
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
    const printer = vp({ dir, charsPerLine: 32 });
    expect(await codeOf(printer.print(job({}, 42)))).toBe(101);
  });

  it('answers a job before its files are written, writes them in job order, and close() waits for them', async () => {
    const written: string[] = [];
    const disk = gate();
    const printer = vp({
      dir,
      files: filesWriting(async (path) => {
        await disk.opened;
        written.push(path.slice(dir.length + 1));
      }),
    });
    expect((await printer.print(job({ reference: 'a' }))).jobId).toBe('1');
    expect((await printer.print(job({ reference: 'b' }))).jobId).toBe('2');
    expect(written).toEqual([]);
    expect(printer.history.map((j) => j.reference)).toEqual(['a', 'b']);
    const closed = printer.close();
    disk.open();
    await closed;
    expect(written).toEqual([
      '000001-receipt-a.bin',
      '000001-receipt-a.txt',
      '000002-receipt-b.bin',
      '000002-receipt-b.txt',
    ]);
  });

  it('holds a job back while the files of MAX_JOBS_FILING jobs are still on their way (a slow disk)', async () => {
    const disk = gate();
    const printer = vp({ dir, files: filesWriting(() => disk.opened) });
    for (let i = 0; i < MAX_JOBS_FILING; i++) await printer.print(job());
    let answered = false;
    const next = printer.print(job()).then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    disk.open();
    await next;
    expect(printer.history).toHaveLength(MAX_JOBS_FILING + 1);
  });

  it('refuses the next job with PRINTER_COMMUNICATION_ERROR while an earlier job’s files cannot be written, then writes them', async () => {
    const disk = new Map<string, Uint8Array | string>();
    let full = true;
    const printer = vp({
      dir,
      files: filesWriting(async (path, data) => {
        if (full) throw new Error('ENOSPC');
        disk.set(path.slice(dir.length + 1), data);
      }),
    });
    // The job is on the paper (its history); its files fail behind it.
    expect((await printer.print(job({ reference: 'a' }))).jobId).toBe('1');
    await printer.filed();
    expect(await codeOf(printer.print(job({ reference: 'b' })))).toBe(103);
    expect(printer.history.map((j) => j.reference)).toEqual(['a']);
    full = false;
    expect((await printer.print(job({ reference: 'c' }))).jobId).toBe('2');
    await printer.filed();
    expect([...disk.keys()]).toEqual([
      '000001-receipt-a.bin',
      '000001-receipt-a.txt',
      '000002-receipt-c.bin',
      '000002-receipt-c.txt',
    ]);
  });

  it('kicks the drawer with a job or alone', async () => {
    const printer = vp({ dir });
    await printer.print(job({ openDrawer: true }));
    await printer.print(job());
    await printer.openDrawer();
    expect(printer.drawerOpenings).toBe(2);
    expect(printer.history.map((j) => j.openDrawer)).toEqual([true, false]);
    await printer.openDrawer(5);
    expect(printer.drawerKicks).toEqual([2, 2, 5]);
    printer.setPaper('out');
    expect(await codeOf(printer.openDrawer())).toBe(105);
    printer.setConnected(false);
    expect(await codeOf(printer.openDrawer())).toBe(102);
  });

  it('keeps only the newest jobs and failures in memory; older jobs stay on disk and their PNG still comes', async () => {
    const printer = vp({ dir });
    const small = job({}, 48);
    for (let i = 1; i <= VIRTUAL_PRINTER_HISTORY + 5; i++)
      await printer.print({ ...small, reference: `r${i}` });
    expect(printer.history).toHaveLength(VIRTUAL_PRINTER_HISTORY);
    expect(printer.history[0]?.jobNo).toBe(6);
    expect(printer.history.at(-1)?.jobNo).toBe(VIRTUAL_PRINTER_HISTORY + 5);
    await printer.filed();
    expect((await readdir(dir)).filter((f) => f.endsWith('.bin'))).toHaveLength(VIRTUAL_PRINTER_HISTORY + 5);
    expect(PNG.sync.read(await printer.png(1)).width).toBe(576);
    printer.setPaper('out');
    for (let i = 0; i < VIRTUAL_PRINTER_HISTORY + 1; i++) await codeOf(printer.print(small));
    expect(printer.failures).toHaveLength(VIRTUAL_PRINTER_HISTORY);
  }, 60_000);

  it('records the pacing the caller asked for', async () => {
    const printer = vp({});
    await printer.print(job(), { windowSize: 2500, printDelay: 5000 });
    expect(printer.history[0]?.options).toEqual({ windowSize: 2500, printDelay: 5000 });
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
      adapter: 'none',
      paperWidthDots: 512,
      codepage: 'cp852',
      drawer: false,
      fault: 'PRINTER_NOT_CONFIGURED',
    });
    expect(printer.target).toBe('none');
  });
});
