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
import { drawerKick, EscPosEncoder, type EscPosJob } from './escpos-encoder.js';
import {
  DLE_EOT,
  describeStatus,
  faultOf,
  isOffline,
  isStatusByte,
  paperOf,
  type RealTimeStatus,
} from './escpos-status.js';
import { PrintPacer, realSleep, type Sleep } from './print-pacing.js';

export interface EscPosPrinterOptions {
  /** `tcp`, `serial` or `usb`: for `GET /api/printer`. */
  adapter: string;
  /** The `--printer` target as text, for status and errors. */
  target: string;
  profile: PrinterProfile;
  /** Limit for each DLE EOT answer (default 3000 ms). */
  statusTimeoutMs?: number;
  sleep?: Sleep;
}

class Garbled extends Error {}

/**
 * An ESC/POS printer on a byte line — TCP port 9100, a serial port, or the usblp device file
 * (ADR 0506, 0507). Before every job it asks the real-time status (DLE EOT) and refuses with the
 * printer's code; then it sends the job unit by unit, each followed by a DLE EOT whose answer
 * confirms the unit arrived, paced in windows when the caller asks. A line that drops mid-job
 * answers 106 PARTIAL_PRINT with what was confirmed; printing the same job again sends ESC @ and
 * the rest from there. The line is opened on first use and again after it drops.
 */
export class EscPosPrinter implements ReceiptPrinter {
  readonly target: string;
  readonly charsPerLine: number;
  private readonly encoder: EscPosEncoder;
  private readonly reader = new ByteReader();
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;
  private readonly sleep: Sleep;
  private closed = false;
  private jobs = 0;
  /** The last job cut short: printing the same bytes again resumes at its offset. */
  private interrupted: PartialPrintInfo | undefined;

  constructor(
    private readonly transport: ByteTransport,
    private readonly options: EscPosPrinterOptions,
  ) {
    this.target = options.target;
    this.charsPerLine = options.profile.charsPerLine;
    this.encoder = new EscPosEncoder(options.profile);
    this.timeoutMs = options.statusTimeoutMs ?? 3000;
    this.sleep = options.sleep ?? realSleep;
    transport.onData((b) => this.reader.push(b));
    transport.onClose(() => this.reader.fail(new LineClosed(`${transport.description} closed`)));
  }

  print(job: PrintJob, options?: PrintOptions): Promise<PrintOutcome> {
    let encoded: EscPosJob;
    try {
      encoded = this.encoder.encode(job.layout, {
        ...(job.openDrawer === true ? { openDrawer: true } : {}),
        ...(job.images ? { images: job.images } : {}),
      });
    } catch (e) {
      return Promise.reject(
        new FiscalError('PRINTER_DATA_REFUSED', `The job does not fit the printer: ${(e as Error).message}.`),
      );
    }
    return this.exec(async () => {
      await this.assertReady();
      await this.send(encoded, options);
      this.jobs++;
      return { jobId: String(this.jobs) };
    });
  }

  async status(): Promise<PrinterStatus> {
    const base = {
      adapter: this.options.adapter,
      charsPerLine: this.charsPerLine,
      paperWidthDots: this.options.profile.paperWidthDots,
      codepage: this.options.profile.codepage,
      drawer: true,
      model: this.options.profile.model ?? `ESC/POS (${this.options.adapter})`,
    };
    try {
      const s = await this.exec(() => this.readStatus());
      const fault = faultOf(s);
      return {
        ...base,
        ready: fault === undefined,
        connected: true,
        paper: paperOf(s),
        coverOpen: ((s.offline ?? 0) & 0x04) !== 0,
        ...(fault === undefined ? {} : { fault }),
      };
    } catch (e) {
      const fault: PrinterFault = FiscalError.is(e)
        ? (e.resultName as PrinterFault)
        : 'PRINTER_NOT_CONNECTED';
      return {
        ...base,
        ready: false,
        connected: fault !== 'PRINTER_NOT_CONNECTED',
        paper: 'unknown',
        coverOpen: false,
        fault,
      };
    }
  }

  openDrawer(pin: 2 | 5 = 2): Promise<void> {
    return this.exec(async () => {
      await this.assertReady();
      await this.write(drawerKick(pin));
      await this.probe();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.run(() => this.transport.close());
  }

  /** DLE EOT 1, and 2 and 3 when off-line, and 4 (paper sensor) always. */
  private async readStatus(): Promise<RealTimeStatus> {
    const printer = await this.ask(1);
    const s: RealTimeStatus = { printer };
    if (isOffline(printer)) {
      s.offline = await this.ask(2);
      s.error = await this.ask(3);
    }
    s.paper = await this.ask(4);
    return s;
  }

  private async assertReady(): Promise<void> {
    const s = await this.readStatus();
    const fault = faultOf(s);
    if (fault !== undefined) {
      throw new FiscalError(fault, `Printer ${this.target} is not ready: ${describeStatus(s)}.`, {
        printerStatus: describeStatus(s),
      });
    }
  }

  private async ask(n: 1 | 2 | 3 | 4): Promise<number> {
    this.reader.discard();
    await this.write(DLE_EOT(n));
    const b = await this.reader.readByte(this.timeoutMs, `DLE EOT ${n} answer`);
    if (!isStatusByte(b)) throw new Garbled(`DLE EOT ${n} answered 0x${b.toString(16)}`);
    return b;
  }

  /** After a unit: the printer answering DLE EOT 1 confirms every byte before it arrived. */
  private async probe(): Promise<void> {
    const printer = await this.ask(1);
    if (!isOffline(printer)) return;
    const s: RealTimeStatus = {
      printer,
      offline: await this.ask(2),
      error: await this.ask(3),
      paper: await this.ask(4),
    };
    throw new FiscalError(
      faultOf(s) ?? 'PRINTER_NOT_READY',
      `Printer ${this.target} stopped: ${describeStatus(s)}.`,
    );
  }

  private async send(job: EscPosJob, options: PrintOptions | undefined): Promise<void> {
    const sha = createHash('sha256').update(job.bytes).digest('hex');
    const resume = this.interrupted?.jobSha256 === sha ? this.interrupted.resumeOffset : 0;
    this.interrupted = undefined;
    const pacer = new PrintPacer(options, this.sleep);
    let confirmed = resume;
    let printedLines = 0;
    let lastLine: string | undefined;
    try {
      if (resume > 0) await this.write(job.prelude);
      for (const unit of job.units) {
        if (unit.start < resume) continue;
        const bytes = job.bytes.subarray(unit.start, unit.end);
        await pacer.before(bytes.length);
        await this.write(bytes);
        await this.probe();
        confirmed = unit.end;
        if (unit.kind !== 'init' && unit.kind !== 'cut') printedLines++;
        if (unit.text !== undefined && unit.text !== '') lastLine = unit.text;
      }
    } catch (e) {
      const info: PartialPrintInfo = {
        totalBytes: job.bytes.length,
        resumeOffset: confirmed,
        printedLines,
        ...(lastLine === undefined ? {} : { lastPrintedLine: lastLine }),
        jobSha256: sha,
      };
      const started = confirmed > (job.units[0]?.end ?? 0);
      if (started) this.interrupted = info;
      if (!FiscalError.is(e)) await this.transport.close().catch(() => undefined);
      if (FiscalError.is(e)) {
        throw started ? new FiscalError(e.resultName, e.message, { ...e.details, partialPrint: info }) : e;
      }
      if (!started) throw e;
      throw new FiscalError(
        'PARTIAL_PRINT',
        `The line to printer ${this.target} dropped after ${confirmed} of ${job.bytes.length} bytes; printing the same job again completes it.`,
        { partialPrint: info },
        { cause: e },
      );
    }
  }

  private async write(bytes: Uint8Array): Promise<void> {
    try {
      await this.transport.write(bytes);
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
        if (e instanceof LineClosed) throw notConnected(this.target, e.message, e);
        const what = e instanceof ReadTimeout || e instanceof Garbled ? e.message : String(e);
        throw new FiscalError(
          'PRINTER_COMMUNICATION_ERROR',
          `Printer ${this.target} does not answer properly (${what}).`,
          undefined,
          { cause: e },
        );
      }
    });
  }
}

function notConnected(target: string, reason: string, cause?: unknown): FiscalError {
  return new FiscalError(
    'PRINTER_NOT_CONNECTED',
    `Printer ${target} is not connected (${reason}).`,
    { target },
    cause === undefined ? undefined : { cause },
  );
}
