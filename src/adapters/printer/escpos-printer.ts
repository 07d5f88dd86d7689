import { createHash } from 'node:crypto';
import type { PrinterProfile } from '../../config/printer-profile.js';
import { FiscalError } from '../../core/fiscal-error.js';
import type {
  PartialPrintInfo,
  PrinterFault,
  PrinterStatus,
  PrintJob,
  PrintOptions,
  PrintOutcome,
  ReceiptPrinter,
} from '../../core/ports/receipt-printer.js';
import { SerialQueue } from '../../core/serial-queue.js';
import { ByteReader, LineClosed, ReadTimeout } from '../transport/byte-reader.js';
import type { ByteTransport } from '../transport/byte-transport.js';
import { Garbled, readAnswer } from './escpos-answers.js';
import { drawerKick, EscPosEncoder, type EscPosJob, processIdRequest } from './escpos-encoder.js';
import {
  DLE_EOT,
  describeStatus,
  faultOf,
  isOffline,
  paperOf,
  type RealTimeStatus,
} from './escpos-status.js';
import { PrintPacer, realSleep, type Sleep } from './print-pacing.js';
import { type JobProgress, SentKicks, stoppedAt } from './resume-point.js';

export interface EscPosPrinterOptions {
  /** `tcp`, `serial` or `usb`: for `GET /api/printer`. */
  adapter: string;
  /** The `--printer` target as text, for status and errors. */
  target: string;
  profile: PrinterProfile;
  /** Limit for each DLE EOT answer during a job (default 3000 ms). */
  statusTimeoutMs?: number;
  /** Limit for `status()` asked between jobs (default 1000 ms): status answers quickly. */
  statusQueryTimeoutMs?: number;
  /** `confirm=printed`: how long a unit may take to be printed, the printer online (default 20 s). */
  printTimeoutMs?: number;
  sleep?: Sleep;
}

/** While a unit prints (`confirm=printed`), the printer is asked DLE EOT this often. */
const PRINT_POLL_MS = 1000;

/**
 * An ESC/POS printer on a byte line — TCP port 9100, a serial port, or the usblp device file
 * (ADR 0506, 0507). Before every job it asks the real-time status (DLE EOT) and refuses with the
 * printer's code; then it sends the job unit by unit, paced in windows when the caller asks, each
 * unit followed by a DLE EOT (its answer proves the unit ARRIVED) or, with `confirm=printed`, by a
 * process-ID request (`GS ( H` fn 48: its answer proves the unit PRINTED). A line that drops
 * mid-job answers 106 PARTIAL_PRINT with what is on paper for certain; printing the same job again
 * sends ESC @ and the rest from there — a receive buffer of print data earlier when only arrival
 * was confirmed, so lines may repeat but none is lost. A drawer kick counts as sent once its unit
 * is on the line, answered or not, and the same job never kicks again (ADR 0517). The line is
 * opened on first use and again after it drops.
 * `status()` never waits for a job: meanwhile it answers the status last read, marked busy.
 */
export class EscPosPrinter implements ReceiptPrinter {
  readonly target: string;
  readonly charsPerLine: number;
  private readonly encoder: EscPosEncoder;
  private readonly reader = new ByteReader();
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;
  private readonly queryTimeoutMs: number;
  private readonly printTimeoutMs: number;
  private readonly sleep: Sleep;
  private closed = false;
  private jobs = 0;
  /** Jobs and drawer kicks called and not finished: status() answers from the last reading. */
  private underWay = 0;
  /** The last status read (before a job, after each unit), for status() while busy. */
  private last: RealTimeStatus | undefined;
  private lastFault: PrinterFault | undefined;
  /**
   * Print data written on the line since it opened — job units, preludes, kicks: what takes room
   * in the printer's receive buffer. Confirmation requests are left out (ADR 0517): a DLE EOT is
   * answered on arrival and never buffered, and counting it made "a whole buffer back" (ADR 0507)
   * 3 bytes a unit short, so lines still in the buffer counted as printed; a process-ID request
   * is buffered, and leaving it out only errs towards printing a line twice. Arrival is
   * confirmed up to an offset of this.
   */
  private dataOffset = 0;
  private processIds = 0;
  /** The newest process ID the printer answered (printing done up to its request). */
  private printedId: string | undefined;
  /** The last job cut short: printing the same bytes again resumes at its offset. */
  private interrupted: PartialPrintInfo | undefined;
  /** Jobs whose drawer kick went out: printed again, they do not kick (ADR 0517). */
  private readonly kicked = new SentKicks();

  constructor(
    private readonly transport: ByteTransport,
    private readonly options: EscPosPrinterOptions,
  ) {
    this.target = options.target;
    this.charsPerLine = options.profile.charsPerLine;
    this.encoder = new EscPosEncoder(options.profile);
    this.timeoutMs = options.statusTimeoutMs ?? 3000;
    this.queryTimeoutMs = Math.min(this.timeoutMs, options.statusQueryTimeoutMs ?? 1000);
    this.printTimeoutMs = options.printTimeoutMs ?? 20_000;
    this.sleep = options.sleep ?? realSleep;
    transport.onData((b) => this.reader.push(b));
    transport.onClose(() => this.reader.fail(new LineClosed(`${transport.description} closed`)));
  }

  print(job: PrintJob, options?: PrintOptions): Promise<PrintOutcome> {
    let encoded: EscPosJob;
    try {
      const encode = (kick: boolean) =>
        this.encoder.encode(job.layout, {
          ...(kick ? { openDrawer: true } : {}),
          ...(job.images ? { images: job.images } : {}),
        });
      encoded = encode(job.openDrawer === true);
      // The same receipt again after its kick went out (the line dropped before a line of it was
      // confirmed, another job came in between, or kasa restarted and the CHDÚ says so): the
      // drawer opened already, once per receipt (ADR 0507, 0517); the job is sent whole without
      // the kick. A job cut short here (106) resumes after its first unit instead.
      const sha = sha256(encoded.bytes);
      const kickedBefore = this.kicked.has(sha) || job.drawerOpened === true;
      if (encoded.drawerKick && kickedBefore && this.interrupted?.jobSha256 !== sha) {
        encoded = encode(false);
      }
    } catch (e) {
      return Promise.reject(
        new FiscalError('PRINTER_DATA_REFUSED', `The job does not fit the printer: ${(e as Error).message}.`),
      );
    }
    return this.busy(async () => {
      await this.assertReady(this.timeoutMs);
      await this.send(encoded, options);
      this.jobs++;
      return { jobId: String(this.jobs) };
    });
  }

  async status(): Promise<PrinterStatus> {
    // ADR 0514: never behind a job (a paced report may take minutes): the last reading, busy.
    if (this.underWay > 0) return { ...this.snapshot(), busy: true };
    try {
      this.remember(await this.exec(() => this.readStatus(this.queryTimeoutMs)));
    } catch (e) {
      this.last = undefined;
      this.lastFault = FiscalError.is(e) ? (e.resultName as PrinterFault) : 'PRINTER_NOT_CONNECTED';
    }
    return this.snapshot();
  }

  openDrawer(pin: 2 | 5 = 2): Promise<void> {
    return this.busy(async () => {
      await this.assertReady(this.timeoutMs);
      await this.write(drawerKick(pin), 'data');
      await this.probe();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.run(() => this.transport.close());
  }

  /** A job or a kick: counted as under way from the call, so status() does not queue behind it. */
  private async busy<T>(fn: () => Promise<T>): Promise<T> {
    this.underWay++;
    try {
      return await this.exec(fn);
    } catch (e) {
      // The line failed: no reading stands. A fault the printer reported was remembered already.
      const name = FiscalError.is(e) ? e.resultName : undefined;
      if (
        name === 'PRINTER_NOT_CONNECTED' ||
        name === 'PARTIAL_PRINT' ||
        name === 'PRINTER_COMMUNICATION_ERROR'
      ) {
        this.last = undefined;
        this.lastFault = name === 'PRINTER_COMMUNICATION_ERROR' ? name : 'PRINTER_NOT_CONNECTED';
      }
      throw e;
    } finally {
      this.underWay--;
    }
  }

  private remember(s: RealTimeStatus): void {
    this.last = s;
    this.lastFault = faultOf(s);
  }

  /** The status from the last reading (or its failure). */
  private snapshot(): PrinterStatus {
    const base = {
      adapter: this.options.adapter,
      charsPerLine: this.charsPerLine,
      paperWidthDots: this.options.profile.paperWidthDots,
      codepage: this.options.profile.codepage,
      drawer: true,
      model: this.options.profile.model ?? `ESC/POS (${this.options.adapter})`,
    };
    const s = this.last;
    if (s === undefined || this.closed) {
      const fault = this.closed ? 'PRINTER_NOT_CONNECTED' : (this.lastFault ?? 'PRINTER_NOT_CONNECTED');
      return {
        ...base,
        ready: false,
        connected: fault !== 'PRINTER_NOT_CONNECTED',
        paper: 'unknown',
        coverOpen: false,
        fault,
      };
    }
    const fault = faultOf(s);
    return {
      ...base,
      ready: fault === undefined,
      connected: true,
      paper: paperOf(s),
      coverOpen: ((s.offline ?? 0) & 0x04) !== 0,
      ...(fault === undefined ? {} : { fault }),
    };
  }

  /** DLE EOT 1, and 2 and 3 when off-line, and 4 (paper sensor) always. */
  private async readStatus(timeoutMs: number): Promise<RealTimeStatus> {
    const printer = await this.ask(1, timeoutMs);
    const s: RealTimeStatus = { printer };
    if (isOffline(printer)) {
      s.offline = await this.ask(2, timeoutMs);
      s.error = await this.ask(3, timeoutMs);
    }
    s.paper = await this.ask(4, timeoutMs);
    return s;
  }

  private async assertReady(timeoutMs: number): Promise<void> {
    const s = await this.readStatus(timeoutMs);
    this.remember(s);
    const fault = faultOf(s);
    if (fault !== undefined) {
      throw new FiscalError(fault, `Printer ${this.target} is not ready: ${describeStatus(s)}.`, {
        printerStatus: describeStatus(s),
      });
    }
  }

  /** DLE EOT n and its answer; process-ID answers met on the way are noted, not lost. */
  private async ask(n: 1 | 2 | 3 | 4, timeoutMs = this.timeoutMs): Promise<number> {
    if (this.options.profile.confirm === 'received') this.reader.discard();
    await this.write(DLE_EOT(n));
    for (;;) {
      const answer = await readAnswer(this.reader, timeoutMs, `DLE EOT ${n} answer`);
      if (answer.kind === 'status') return answer.byte;
      this.printedId = answer.id;
    }
  }

  /** After a unit: DLE EOT 1 answered confirms every byte before it arrived; off-line stops. */
  private async probe(onArrived?: () => void): Promise<void> {
    const printer = await this.ask(1);
    onArrived?.();
    if (!isOffline(printer)) {
      this.last = { ...(this.last ?? { printer }), printer };
      return;
    }
    const s: RealTimeStatus = {
      printer,
      offline: await this.ask(2),
      error: await this.ask(3),
      paper: await this.ask(4),
    };
    this.remember(s);
    throw new FiscalError(
      faultOf(s) ?? 'PRINTER_NOT_READY',
      `Printer ${this.target} stopped: ${describeStatus(s)}.`,
    );
  }

  /**
   * `confirm=printed`: waits for the process ID `id`, which the printer sends once it has printed
   * everything before it. Quiet for a second: DLE EOT 1, so paper out or an open cover stops the
   * wait at once; a printer that stays ready and never answers is 103 (it lacks `GS ( H`).
   */
  private async printed(id: string, onArrived: () => void): Promise<void> {
    const deadline = Date.now() + this.printTimeoutMs;
    while (this.printedId !== id) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ReadTimeout(
          `process ID ${id} (printing confirmed) — a printer without GS ( H needs confirm=received`,
          this.printTimeoutMs,
        );
      }
      try {
        const answer = await readAnswer(this.reader, Math.min(PRINT_POLL_MS, left), 'process ID');
        if (answer.kind === 'printed') this.printedId = answer.id;
      } catch (e) {
        if (!(e instanceof ReadTimeout)) throw e;
        await this.probe(onArrived);
      }
    }
    onArrived();
  }

  private nextProcessId(): string {
    this.processIds = (this.processIds + 1) % 10_000;
    return String(this.processIds).padStart(4, '0');
  }

  private async send(job: EscPosJob, options: PrintOptions | undefined): Promise<void> {
    const sha = sha256(job.bytes);
    const from = this.interrupted?.jobSha256 === sha ? this.interrupted.resumeOffset : 0;
    this.interrupted = undefined;
    const pacer = new PrintPacer(job.bytes.length - from, options, this.sleep);
    const byPrint = this.options.profile.confirm === 'printed';
    // ADR 0517: the kick counts as sent once its unit is handed to the line, answered or not.
    let kickSent = false;
    const progress: JobProgress & { sent: Array<{ end: number; lineEnd: number }> } = {
      job,
      jobSha256: sha,
      from,
      sent: [],
      arrivedLine: this.dataOffset,
      bufferBytes: this.options.profile.bufferBytes,
      ...(byPrint ? { printedEnd: from } : {}),
    };
    try {
      if (from > 0) await this.write(job.prelude, 'data');
      for (const unit of job.units) {
        if (unit.start < from) continue;
        await pacer.before(unit.end - unit.start);
        if (unit.kind === 'init' && job.drawerKick) kickSent = true;
        await this.write(job.bytes.subarray(unit.start, unit.end), 'data');
        progress.sent.push({ end: unit.end, lineEnd: this.dataOffset });
        if (byPrint) {
          const id = this.nextProcessId();
          await this.write(processIdRequest(id));
          const at = this.dataOffset;
          await this.printed(id, () => {
            progress.arrivedLine = at;
          });
          progress.printedEnd = unit.end;
        } else {
          await this.probe(() => {
            progress.arrivedLine = this.dataOffset;
          });
        }
      }
    } catch (e) {
      const stopped = stoppedAt(progress);
      if (stopped.complete) return; // everything is on paper; only the last answer was lost
      if (!FiscalError.is(e)) await this.transport.close().catch(() => undefined);
      // The kick went out (and the caller records it) even when no line of the receipt was
      // confirmed — the first unit alone confirmed included: the job is then not started (ADR
      // 0507 as amended) — no partialPrint, printed whole again, without the kick.
      const kicked = job.drawerKick && (kickSent || stopped.started);
      if (kicked) this.kicked.add(sha);
      const kick = kicked ? { drawerOpened: true } : {};
      if (!stopped.started) {
        if (!kicked) throw e;
        const base = FiscalError.is(e) ? e : lineFailure(this.target, e);
        throw new FiscalError(base.resultName, base.message, { ...base.details, ...kick }, { cause: e });
      }
      this.interrupted = stopped.info;
      const info = stopped.info;
      if (FiscalError.is(e)) {
        throw new FiscalError(e.resultName, e.message, { ...e.details, partialPrint: info, ...kick });
      }
      throw new FiscalError(
        'PARTIAL_PRINT',
        `The line to printer ${this.target} dropped after ${info.printedLines} line(s) surely printed; printing the same job again goes on from byte ${info.resumeOffset} of ${info.totalBytes}.`,
        { partialPrint: info, ...kick },
        { cause: e },
      );
    }
  }

  /** Writes on the line; `data` counts the bytes as print data (see {@link dataOffset}). */
  private async write(bytes: Uint8Array, kind: 'request' | 'data' = 'request'): Promise<void> {
    try {
      await this.transport.write(bytes);
      if (kind === 'data') this.dataOffset += bytes.length;
    } catch (e) {
      throw new LineClosed(e instanceof Error ? e.message : String(e));
    }
  }

  /** One exchange with the line open; every failure becomes its printer code. */
  private exec<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      if (this.closed) throw notConnected(this.target, 'the adapter is closed');
      if (!this.transport.isOpen) {
        this.reader.reset();
        this.printedId = undefined;
        try {
          await this.transport.open();
        } catch (e) {
          throw notConnected(this.target, e instanceof Error ? e.message : String(e), e);
        }
      }
      try {
        return await fn();
      } catch (e) {
        if (FiscalError.is(e)) throw e;
        // A dropped, silent or garbling line: start afresh with the next job.
        await this.transport.close().catch(() => undefined);
        throw lineFailure(this.target, e);
      }
    });
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A line that dropped (102), stayed silent or garbled its answers (103), as its printer code. */
function lineFailure(target: string, e: unknown): FiscalError {
  if (e instanceof LineClosed) return notConnected(target, e.message, e);
  const what = e instanceof ReadTimeout || e instanceof Garbled ? e.message : String(e);
  return new FiscalError(
    'PRINTER_COMMUNICATION_ERROR',
    `Printer ${target} does not answer properly (${what}).`,
    undefined,
    { cause: e },
  );
}

function notConnected(target: string, reason: string, cause?: unknown): FiscalError {
  return new FiscalError(
    'PRINTER_NOT_CONNECTED',
    `Printer ${target} is not connected (${reason}).`,
    { target },
    cause === undefined ? undefined : { cause },
  );
}
