import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EscPosEncoder } from '../../adapters/printer/escpos-encoder.js';
import { DEFAULT_PROFILE, type PrinterProfile, parsePrinterProfile } from '../../config/printer-profile.js';
import { FiscalError } from '../../core/fiscal-error.js';
import type {
  PartialPrintInfo,
  PrinterFault,
  PrinterStatus,
  PrintJob,
  PrintJobKind,
  PrintOptions,
  PrintOutcome,
  ReceiptPrinter,
} from '../../core/ports/receipt-printer.js';
import type { ReceiptLayout } from '../../core/receipt/receipt-blocks.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { EscPosDecoder } from './escpos-decoder.js';
import { EscPosPaper, type PrintedJob } from './escpos-paper.js';
import { renderJobPng } from './paper-png.js';

/** File operations the printer needs; tests may pass their own. */
export interface VirtualPrinterFiles {
  mkdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  readFile(path: string): Promise<Uint8Array>;
}

const nodeFiles: VirtualPrinterFiles = {
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  readdir: (path) => readdir(path),
  // Through the thread pool, behind the job (ADR 1108). The callback form: fs/promises' writeFile
  // wraps the same open/write/close in a FileHandle and promise chain that cost kasa's thread about
  // twice as much and the process about four times as much CPU per file (ADR 1111, measured).
  writeFile: (path, data) =>
    new Promise<void>((resolve, reject) => writeFile(path, data, (e) => (e ? reject(e) : resolve()))),
  readFile: (path) => readFile(path),
};

/** Jobs whose files may be on their way at once (ADR 1108); the next job waits beyond that. */
export const MAX_JOBS_FILING = 32;

/** Jobs (and refused jobs) kept in memory: the newest ones; older jobs stay as files only. */
export const VIRTUAL_PRINTER_HISTORY = 200;

export interface VirtualPrinterOptions {
  /** Folder for the job files (`<data-dir>/virtual-printer`); without it jobs stay in memory only. */
  dir?: string;
  /** Paper, font and code page; default 48 characters on 80 mm paper, CP852. */
  profile?: PrinterProfile;
  /** Shorthand for a font A profile of this width (32, 42 or 48). */
  charsPerLine?: number;
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
  /** The ESC/POS bytes a real printer would have received (the `.bin` file). */
  bytes: Uint8Array;
  /** A job that completed one cut short by a PARTIAL_PRINT fault: the offset it went on from. */
  resumedFrom?: number;
  /** Pacing the caller asked for (recorded: the virtual printer has no head to cool). */
  options?: PrintOptions;
  files?: { bin: string; txt: string; png: string };
}

/** One refused job (a fault was in effect). */
export interface VirtualPrintFailure {
  kind: PrintJobKind;
  reference?: string;
  fault: PrinterFault;
}

/**
 * The virtual printer (`--printer virtual`, the default): every job is encoded exactly as for a
 * real printer and kept as `<n>-<kind>[-ref].bin` (the ESC/POS bytes) and `.txt` in a folder, plus
 * an in-memory history. The paper image is drawn off the request path, on demand
 * ({@link png}), from the stored bytes by the printer simulator's decoder — so storing a document
 * costs no more than encoding it (capability 11). Faults are injected through methods — paper, cover,
 * connection, or "fail the next N jobs with code X" — as a real printer fails.
 */
export class VirtualPrinter implements ReceiptPrinter {
  readonly target: string;
  readonly charsPerLine: number;
  readonly profile: PrinterProfile;
  private readonly dir: string | undefined;
  private readonly encoder: EscPosEncoder;
  private readonly files: VirtualPrinterFiles;

  private readonly printed: VirtualPrintedJob[] = [];
  private readonly failed: VirtualPrintFailure[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** The files of jobs already on the paper, written in job order behind them (ADR 1108). */
  private filing: Promise<void> = Promise.resolve();
  /** Files a background write could not write: written again before the next job, or it fails. */
  private unfiled: Array<{ path: string; data: Uint8Array | string }> = [];
  private fileError: unknown;
  /** Jobs whose files are still on their way. */
  private filingJobs = 0;
  private lastJobNo: number | undefined;
  private paper: 'ok' | 'near-end' | 'out' = 'ok';
  private coverOpen = false;
  private connected = true;
  private closed = false;
  private scheduled: Array<{ fault: PrinterFault; remaining: number }> = [];
  private readonly kicks: Array<2 | 5> = [];
  private interrupted: PartialPrintInfo | undefined;

  /**
   * How many jobs (and refused jobs) stay in memory; a test that reads every job of a longer run
   * raises it (its run is bounded).
   */
  historyLimit = VIRTUAL_PRINTER_HISTORY;

  constructor(options: VirtualPrinterOptions = {}) {
    this.dir = options.dir;
    this.profile =
      options.profile ??
      (options.charsPerLine === undefined
        ? DEFAULT_PROFILE
        : parsePrinterProfile(new URLSearchParams({ chars: String(options.charsPerLine) })));
    this.charsPerLine = this.profile.charsPerLine;
    this.encoder = new EscPosEncoder(this.profile);
    this.files = options.files ?? nodeFiles;
    this.target = this.dir !== undefined ? `virtual:${this.dir}` : 'virtual:memory';
  }

  print(job: PrintJob, options?: PrintOptions): Promise<PrintOutcome> {
    const run = this.queue.then(() => this.printNow(job, options));
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
      model: this.profile.model ?? 'virtual',
      adapter: 'virtual',
      paperWidthDots: this.profile.paperWidthDots,
      codepage: this.profile.codepage,
      drawer: true,
      ...(fault !== undefined ? { fault } : {}),
    };
  }

  async openDrawer(pin: 2 | 5 = 2): Promise<void> {
    await tick();
    const fault = this.currentFault();
    if (fault !== undefined) throw printerError(fault, `virtual printer: ${fault}`);
    this.kicks.push(pin);
  }

  /**
   * The paper image of a job (PNG, paper width in dots), decoded from its ESC/POS bytes as the
   * printer simulator does; written beside the `.bin` as `.png` the first time it is asked for.
   */
  async png(jobNo: number): Promise<Buffer> {
    const entry = this.printed.find((j) => j.jobNo === jobNo);
    let bytes = entry?.bytes;
    let base: string | undefined;
    if (this.dir !== undefined) {
      const name = (await this.files.readdir(this.dir)).find(
        (n) => n.startsWith(`${String(jobNo).padStart(6, '0')}-`) && n.endsWith('.bin'),
      );
      if (name !== undefined) {
        base = join(this.dir, name.slice(0, -4));
        bytes ??= await this.files.readFile(`${base}.bin`);
      }
    }
    if (bytes === undefined) throw new RangeError(`virtual printer: no job ${jobNo}`);
    const jobs: PrintedJob[] = [];
    const paper = new EscPosPaper((j) => jobs.push(j), undefined, { paperDots: this.profile.paperWidthDots });
    for (const cmd of new EscPosDecoder().push(bytes)) paper.apply(cmd);
    paper.finish();
    const png = renderJobPng(
      jobs[0] ?? { elements: [], drawerKicks: [], cut: false, notes: [] },
      this.profile.paperWidthDots,
      fontAChars(this.profile),
    );
    if (base !== undefined) await this.files.writeFile(`${base}.png`, png);
    return png;
  }

  async close(): Promise<void> {
    await this.queue;
    this.closed = true;
    await this.filed();
    // A stop tries the files a failed write left once more (a full disk freed meanwhile).
    await this.refile().catch(() => undefined);
  }

  /** Resolves once every printed job's files are written (or their write failed). */
  async filed(): Promise<void> {
    await this.filing;
  }

  // --- fault injection and inspection (tests, admin page) ---

  /** Paper state: `out` makes every job fail with PRINTER_NO_PAPER (105). */
  setPaper(state: 'ok' | 'near-end' | 'out'): void {
    this.paper = state;
  }

  /** An open cover makes every job fail with PRINTER_NOT_READY (100). */
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

  /** The last {@link historyLimit} jobs, oldest first (a long-running register keeps no more). */
  get history(): readonly VirtualPrintedJob[] {
    return this.printed;
  }

  get failures(): readonly VirtualPrintFailure[] {
    return this.failed;
  }

  /** Times the drawer was kicked (with a job or alone). */
  get drawerOpenings(): number {
    return this.kicks.length;
  }

  /** The pins kicked, in order. */
  get drawerKicks(): ReadonlyArray<2 | 5> {
    return this.kicks;
  }

  /** Back to a healthy printer with empty history (files on disk stay, numbering continues). */
  reset(): void {
    this.printed.length = 0;
    this.failed.length = 0;
    this.scheduled = [];
    this.paper = 'ok';
    this.coverOpen = false;
    this.connected = true;
    this.kicks.length = 0;
  }

  private currentFault(): PrinterFault | undefined {
    if (!this.connected || this.closed) return 'PRINTER_NOT_CONNECTED';
    if (this.coverOpen) return 'PRINTER_NOT_READY';
    if (this.paper === 'out') return 'PRINTER_NO_PAPER';
    return undefined;
  }

  private async printNow(job: PrintJob, options: PrintOptions | undefined): Promise<PrintOutcome> {
    await tick();
    const fault = this.currentFault() ?? this.takeScheduledFault();
    if (fault === 'PARTIAL_PRINT') return this.cutShort(job);
    if (fault !== undefined) {
      keep(this.historyLimit, this.failed, { kind: job.kind, ...ref(job), fault });
      throw printerError(fault, `virtual printer: ${fault}`);
    }
    if (job.layout.width > this.charsPerLine) {
      keep(this.historyLimit, this.failed, { kind: job.kind, ...ref(job), fault: 'PRINTER_DATA_REFUSED' });
      throw printerError(
        'PRINTER_DATA_REFUSED',
        `job is ${job.layout.width} characters wide, paper ${this.charsPerLine}`,
      );
    }
    await this.refile();
    const jobNo = (await this.lastNumber()) + 1;
    const text = renderReceiptText(job.layout);
    const { bytes } = this.encode(job);
    // Only a job after a PARTIAL_PRINT can be its resumption: hash the bytes only then.
    const interrupted = this.interrupted;
    const resumedFrom =
      interrupted !== undefined && interrupted.jobSha256 === createHash('sha256').update(bytes).digest('hex')
        ? interrupted.resumeOffset
        : undefined;
    this.interrupted = undefined;
    let files: VirtualPrintedJob['files'];
    if (this.dir !== undefined) {
      const base = join(this.dir, fileBase(jobNo, job));
      files = { bin: `${base}.bin`, txt: `${base}.txt`, png: `${base}.png` };
      this.file([
        { path: files.bin, data: bytes },
        { path: files.txt, data: text },
      ]);
    }
    this.lastJobNo = jobNo;
    // As a real printer: the kick goes with the first unit, so a resumed job, or a receipt whose
    // kick reached the printer before (ADR 0507), does not open the drawer again.
    if (job.openDrawer === true && resumedFrom === undefined && job.drawerOpened !== true) this.kicks.push(2);
    keep(this.historyLimit, this.printed, {
      jobNo,
      kind: job.kind,
      ...ref(job),
      openDrawer: job.openDrawer === true,
      layout: job.layout,
      text,
      bytes,
      ...(resumedFrom === undefined ? {} : { resumedFrom }),
      ...(options === undefined ? {} : { options }),
      ...(files !== undefined ? { files } : {}),
    });
    return { jobId: String(jobNo) };
  }

  /**
   * ADR 1108: a job is on the paper once it is in the printer (its history); its two files follow
   * in job order, off kasa's thread, as a real printer prints the job it has taken. A write that
   * fails is kept and written again before the next job.
   */
  private file(writes: Array<{ path: string; data: Uint8Array | string }>): void {
    this.filingJobs++;
    this.filing = this.filing.then(async () => {
      for (const w of writes) {
        try {
          await this.files.writeFile(w.path, w.data);
        } catch (e) {
          this.unfiled.push(w);
          this.fileError ??= e;
        }
      }
      this.filingJobs--;
    });
  }

  /**
   * Before a job: the earlier jobs' files are written (a job never waits for them otherwise); any
   * that could not be written are tried again, and while one still cannot, the job fails with
   * PRINTER_COMMUNICATION_ERROR (nothing of it printed), as a printer that cannot put a job on
   * paper refuses the next one.
   */
  private async refile(): Promise<void> {
    // A slow disk holds the printer back instead of piling up jobs in memory.
    if (this.filingJobs >= MAX_JOBS_FILING) await this.filing;
    if (this.unfiled.length === 0) return;
    await this.filing;
    const missing = this.unfiled;
    this.unfiled = [];
    const cause = this.fileError;
    this.fileError = undefined;
    for (const [i, w] of missing.entries()) {
      try {
        await this.files.writeFile(w.path, w.data);
      } catch (e) {
        this.unfiled = [...missing.slice(i), ...this.unfiled];
        this.fileError = e;
        throw printerError(
          'PRINTER_COMMUNICATION_ERROR',
          `virtual printer cannot write ${this.dir}: ${w.path} of an earlier job is not written yet`,
          e ?? cause,
        );
      }
    }
  }

  private encode(job: PrintJob) {
    return this.encoder.encode(job.layout, {
      ...(job.openDrawer === true ? { openDrawer: true } : {}),
      ...(job.images ? { images: job.images } : {}),
    });
  }

  /**
   * A scheduled PARTIAL_PRINT: the line "drops" halfway through the job, as on a real printer —
   * the first half of its units counts as on paper, and printing the same job again goes on from
   * there (ADR 0507).
   */
  private cutShort(job: PrintJob): never {
    const encoded = this.encode(job);
    const units = encoded.units;
    const done = units.slice(0, Math.max(2, Math.floor(units.length / 2)));
    const last = [...done].reverse().find((u) => u.text !== undefined && u.text !== '');
    const info: PartialPrintInfo = {
      totalBytes: encoded.bytes.length,
      resumeOffset: done.at(-1)?.end ?? 0,
      printedLines: done.filter((u) => u.kind !== 'init' && u.kind !== 'cut').length,
      ...(last?.text === undefined ? {} : { lastPrintedLine: last.text }),
      jobSha256: createHash('sha256').update(encoded.bytes).digest('hex'),
    };
    // The first unit, the kick with it, is on paper (unless this was itself a resumed job).
    const resumed = this.interrupted?.jobSha256 === info.jobSha256;
    const kicked = job.openDrawer === true && !resumed && job.drawerOpened !== true;
    if (kicked) this.kicks.push(2);
    this.interrupted = info;
    keep(this.historyLimit, this.failed, { kind: job.kind, ...ref(job), fault: 'PARTIAL_PRINT' });
    // As the ESC/POS adapters: a failure after the kick went out says so (ADR 0517).
    throw new FiscalError('PARTIAL_PRINT', 'virtual printer: the line dropped mid-job', {
      partialPrint: info,
      ...(kicked ? { drawerOpened: true } : {}),
    });
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

/** Appends, dropping the oldest beyond `limit`: memory stays flat however long it runs. */
function keep<T>(limit: number, list: T[], item: T): void {
  list.push(item);
  if (list.length > limit) list.splice(0, list.length - limit);
}

function fontAChars(p: PrinterProfile): number {
  return p.paperWidthDots === 384 ? 32 : p.paperWidthDots === 512 ? 42 : 48;
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

/** Simulators never answer synchronously (a real device never answers in the same tick). */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
