import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FiscalError } from '../../core/fiscal-error.js';
import type {
  PrinterFault,
  PrinterStatus,
  PrintJob,
  PrintJobKind,
  PrintOutcome,
  ReceiptPrinter,
} from '../../core/ports/receipt-printer.js';
import type { ReceiptLayout } from '../../core/receipt/receipt-blocks.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import {
  type PaperWidthPx,
  PngReceiptRenderer,
  paperWidthFor,
} from '../receipt-image/png-receipt-renderer.js';

/** File operations the printer needs; tests may pass their own. */
export interface VirtualPrinterFiles {
  mkdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
}

const nodeFiles: VirtualPrinterFiles = {
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  readdir: (path) => readdir(path),
  writeFile: (path, data) => writeFile(path, data),
};

export interface VirtualPrinterOptions {
  /** Folder for the job files (`<data-dir>/virtual-printer`); without it jobs stay in memory only. */
  dir?: string;
  /** Characters per line at normal size; default 48 (80 mm paper). */
  charsPerLine?: number;
  /** Paper width in dots; default 384 for ≤ 32 characters, else 576. */
  paperWidthPx?: PaperWidthPx;
  renderer?: PngReceiptRenderer;
  /** Images for `image` blocks (e.g. the stored logo), PNG by key. */
  images?: ReadonlyMap<string, Uint8Array>;
  files?: VirtualPrinterFiles;
}

/** One job on the virtual paper. */
export interface VirtualPrintedJob {
  jobNo: number;
  kind: PrintJobKind;
  reference?: string;
  openDrawer: boolean;
  layout: ReceiptLayout;
  /** The job as plain text (the `.txt` file). */
  text: string;
  /** The job as the paper would look (the `.png` file). */
  png: Buffer;
  files?: { png: string; txt: string };
}

/** One refused job (a fault was in effect). */
export interface VirtualPrintFailure {
  kind: PrintJobKind;
  reference?: string;
  fault: PrinterFault;
}

/**
 * The virtual printer (`--printer virtual`, the default): every job becomes `<n>-<kind>[-ref].png`
 * (rendered exactly like the electronic receipt) and `.txt` in a folder, plus an in-memory history.
 * Faults are injected through methods — paper, cover, connection, or "fail the next N jobs with
 * code X" — so tests and the admin page can make printing fail the way a real printer does.
 */
export class VirtualPrinter implements ReceiptPrinter {
  readonly target: string;
  readonly charsPerLine: number;
  private readonly dir: string | undefined;
  private readonly paperWidthPx: PaperWidthPx;
  private readonly renderer: PngReceiptRenderer;
  private images: ReadonlyMap<string, Uint8Array>;
  private readonly files: VirtualPrinterFiles;

  private readonly printed: VirtualPrintedJob[] = [];
  private readonly failed: VirtualPrintFailure[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private lastJobNo: number | undefined;
  private paper: 'ok' | 'near-end' | 'out' = 'ok';
  private coverOpen = false;
  private connected = true;
  private closed = false;
  private scheduled: Array<{ fault: PrinterFault; remaining: number }> = [];
  private drawer = 0;

  constructor(options: VirtualPrinterOptions = {}) {
    this.dir = options.dir;
    this.charsPerLine = options.charsPerLine ?? 48;
    this.paperWidthPx = options.paperWidthPx ?? paperWidthFor(this.charsPerLine);
    this.renderer = options.renderer ?? new PngReceiptRenderer();
    this.images = options.images ?? new Map();
    this.files = options.files ?? nodeFiles;
    this.target = this.dir !== undefined ? `virtual:${this.dir}` : 'virtual:memory';
  }

  print(job: PrintJob): Promise<PrintOutcome> {
    const run = this.queue.then(() => this.printNow(job));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async status(): Promise<PrinterStatus> {
    await tick();
    const fault = this.currentFault();
    return {
      ready: fault === undefined,
      connected: this.connected && !this.closed,
      paper: this.paper,
      coverOpen: this.coverOpen,
      charsPerLine: this.charsPerLine,
      model: 'virtual',
      ...(fault !== undefined ? { fault } : {}),
    };
  }

  async openDrawer(): Promise<void> {
    await tick();
    if (!this.connected || this.closed)
      throw printerError('PRINTER_NOT_CONNECTED', 'the virtual printer is disconnected');
    this.drawer++;
  }

  async close(): Promise<void> {
    await this.queue;
    this.closed = true;
  }

  // --- fault injection and inspection (tests, admin page) ---

  /** Paper state: `out` makes every job fail with PRINTER_NO_PAPER (102). */
  setPaper(state: 'ok' | 'near-end' | 'out'): void {
    this.paper = state;
  }

  /** An open cover makes every job fail with PRINTER_NOT_READY (103). */
  setCoverOpen(open: boolean): void {
    this.coverOpen = open;
  }

  /** A disconnected printer fails every job with PRINTER_NOT_CONNECTED (102). */
  setConnected(connected: boolean): void {
    this.connected = connected;
  }

  /** The next `count` jobs fail with `fault` (after the state faults above, which win). */
  failNext(fault: PrinterFault, count = 1): void {
    if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
    this.scheduled.push({ fault, remaining: count });
  }

  /** Jobs still to fail from {@link failNext}. */
  pendingFaults(): number {
    return this.scheduled.reduce((a, s) => a + s.remaining, 0);
  }

  /** For the end of a test: every scheduled fault was used. */
  assertNoPendingFaults(): void {
    const pending = this.pendingFaults();
    if (pending > 0) throw new Error(`virtual printer: ${pending} scheduled fault(s) never happened`);
  }

  /** Images for `image` blocks from now on (e.g. after the logo changed). */
  setImages(images: ReadonlyMap<string, Uint8Array>): void {
    this.images = images;
  }

  get history(): readonly VirtualPrintedJob[] {
    return this.printed;
  }

  get failures(): readonly VirtualPrintFailure[] {
    return this.failed;
  }

  /** Times the drawer was kicked (with a job or alone). */
  get drawerOpenings(): number {
    return this.drawer;
  }

  /** Back to a healthy printer with empty history (files on disk stay, numbering continues). */
  reset(): void {
    this.printed.length = 0;
    this.failed.length = 0;
    this.scheduled = [];
    this.paper = 'ok';
    this.coverOpen = false;
    this.connected = true;
    this.drawer = 0;
  }

  private currentFault(): PrinterFault | undefined {
    if (!this.connected || this.closed) return 'PRINTER_NOT_CONNECTED';
    if (this.coverOpen) return 'PRINTER_NOT_READY';
    if (this.paper === 'out') return 'PRINTER_NO_PAPER';
    return undefined;
  }

  private async printNow(job: PrintJob): Promise<PrintOutcome> {
    await tick();
    const fault = this.currentFault() ?? this.takeScheduledFault();
    if (fault !== undefined) {
      this.failed.push({ kind: job.kind, ...ref(job), fault });
      throw printerError(fault, `virtual printer: ${fault}`);
    }
    if (job.layout.width > this.charsPerLine) {
      this.failed.push({ kind: job.kind, ...ref(job), fault: 'PRINTER_DATA_REFUSED' });
      throw printerError(
        'PRINTER_DATA_REFUSED',
        `job is ${job.layout.width} characters wide, paper ${this.charsPerLine}`,
      );
    }
    const jobNo = (await this.lastNumber()) + 1;
    const text = renderReceiptText(job.layout);
    const { png } = this.renderer.render(job.layout, {
      paperWidthPx: this.paperWidthPx,
      images: this.images,
    });
    let files: VirtualPrintedJob['files'];
    if (this.dir !== undefined) {
      const base = fileBase(jobNo, job);
      files = { png: join(this.dir, `${base}.png`), txt: join(this.dir, `${base}.txt`) };
      try {
        await this.files.writeFile(files.png, png);
        await this.files.writeFile(files.txt, text);
      } catch (e) {
        throw printerError('PRINTER_COMMUNICATION_ERROR', `virtual printer cannot write ${this.dir}`, e);
      }
    }
    this.lastJobNo = jobNo;
    if (job.openDrawer === true) this.drawer++;
    this.printed.push({
      jobNo,
      kind: job.kind,
      ...ref(job),
      openDrawer: job.openDrawer === true,
      layout: job.layout,
      text,
      png,
      ...(files !== undefined ? { files } : {}),
    });
    return { jobId: String(jobNo) };
  }

  private takeScheduledFault(): PrinterFault | undefined {
    const next = this.scheduled[0];
    if (next === undefined) return undefined;
    next.remaining--;
    if (next.remaining === 0) this.scheduled.shift();
    return next.fault;
  }

  /** Numbering continues after a restart: the highest `<n>-` already in the folder. */
  private async lastNumber(): Promise<number> {
    if (this.lastJobNo !== undefined) return this.lastJobNo;
    let last = 0;
    if (this.dir !== undefined) {
      try {
        await this.files.mkdir(this.dir);
        for (const name of await this.files.readdir(this.dir)) {
          const n = /^(\d+)-/.exec(name)?.[1];
          if (n !== undefined) last = Math.max(last, Number(n));
        }
      } catch (e) {
        throw printerError('PRINTER_COMMUNICATION_ERROR', `virtual printer cannot use ${this.dir}`, e);
      }
    }
    this.lastJobNo = last;
    return last;
  }
}

function ref(job: PrintJob): { reference?: string } {
  return job.reference !== undefined ? { reference: job.reference } : {};
}

function fileBase(jobNo: number, job: PrintJob): string {
  const safe = job.reference
    ?.replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${String(jobNo).padStart(6, '0')}-${job.kind}${safe ? `-${safe}` : ''}`;
}

function printerError(fault: PrinterFault, message: string, cause?: unknown): FiscalError {
  return new FiscalError(fault, message, undefined, cause !== undefined ? { cause } : undefined);
}

/** Simulators never answer synchronously (STYLE.md, point 3). */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
