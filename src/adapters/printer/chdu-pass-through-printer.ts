import { createHash } from 'node:crypto';
import type { PrinterProfile } from '../../config/printer-profile.js';
import { FiscalError } from '../../core/fiscal-error.js';
import { MAX_PRINT_BYTES } from '../../core/journal/record-codec.js';
import type { Chdu } from '../../core/ports/chdu.js';
import type { Journal } from '../../core/ports/journal.js';
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
import { EscPosEncoder, type EscPosJob, type PrintUnit } from './escpos-encoder.js';
import { PrintPacer, realSleep, type Sleep } from './print-pacing.js';
import { type JobProgress, SentKicks, type SentUnit, type StoppedJob, stoppedAt } from './resume-point.js';

/** The smallest part written as one `print-job` record (ADR 0516): eight CHDÚ blocks of data. */
export const MIN_PART_BYTES = 4096;

/**
 * `--printer chdu`: the printer on the CHDU Lite's RS-232 port (ADR 0508). Every job is written
 * into the CHDÚ as `print-job` records whose ESC/POS bytes follow in WRITE_PRINT_OFFSET blocks:
 * the device stores them and forwards them to the printer, so the CHDÚ holds exactly what was
 * printed, as on a certified register. A job is cut into parts at line boundaries, each at most
 * one record's print payload (64 KiB) or the caller's `windowSize`, with `printDelay` between
 * them. The device reports only PRINTER_READY, so a printer that is out of paper is 100 here; a
 * line that drops mid-job is 106, and printing the same job again resumes at the first line the
 * CHDÚ did not acknowledge.
 */
export class ChduPassThroughPrinter implements ReceiptPrinter {
  readonly target = 'chdu';
  readonly charsPerLine: number;
  private readonly encoder: EscPosEncoder;
  private readonly queue = new SerialQueue();
  private readonly sleep: Sleep;
  private closed = false;
  private jobs = 0;
  private interrupted: PartialPrintInfo | undefined;
  /** Jobs whose drawer kick went out to the CHDÚ: printed again, they do not kick (ADR 0517). */
  private readonly kicked = new SentKicks();
  /** Jobs and kicks called and not finished: status() answers the last reading meanwhile. */
  private underWay = 0;
  private last: PrinterStatus | undefined;

  constructor(
    private readonly chdu: Pick<Chdu, 'status' | 'openDrawer'>,
    private readonly journal: Pick<Journal, 'append'>,
    private readonly profile: PrinterProfile,
    options: { sleep?: Sleep } = {},
  ) {
    this.charsPerLine = profile.charsPerLine;
    this.encoder = new EscPosEncoder(profile);
    this.sleep = options.sleep ?? realSleep;
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
      // The kick of this receipt went out in an earlier attempt (this adapter remembers it, or
      // the CHDÚ's print record says so, also after a restart): printed afresh, it does not kick
      // again; a job cut short in this process resumes after its first unit instead (ADR 0507,
      // 0517).
      if (encoded.drawerKick) {
        const sha = createHash('sha256').update(encoded.bytes).digest('hex');
        const kickedBefore = this.kicked.has(sha) || job.drawerOpened === true;
        if (kickedBefore && this.interrupted?.jobSha256 !== sha) encoded = encode(false);
      }
    } catch (e) {
      return Promise.reject(
        new FiscalError('PRINTER_DATA_REFUSED', `The job does not fit the printer: ${(e as Error).message}.`),
      );
    }
    return this.busy(async () => {
      await this.assertReady();
      await this.send(job, encoded, options);
      this.jobs++;
      return { jobId: String(this.jobs) };
    });
  }

  /** Counted from the call: status() must not wait in the queue behind a job (ADR 0514). */
  private async busy<T>(fn: () => Promise<T>): Promise<T> {
    this.underWay++;
    try {
      return await this.queue.run(fn);
    } finally {
      this.underWay--;
    }
  }

  async status(): Promise<PrinterStatus> {
    // The CHDÚ is busy forwarding the job: answer the reading taken before it, marked busy.
    if (this.underWay > 0 && this.last !== undefined) return { ...this.last, busy: true };
    this.last = await this.readStatus();
    return this.last;
  }

  private async readStatus(): Promise<PrinterStatus> {
    if (this.closed) return this.toStatus(undefined);
    try {
      return this.toStatus(await this.chdu.status());
    } catch {
      return this.toStatus(undefined);
    }
  }

  /** The device's flags as printer status (ADR 0508); undefined: the CHDÚ does not answer. */
  private toStatus(s: Awaited<ReturnType<Chdu['status']>> | undefined): PrinterStatus {
    const base = {
      adapter: 'chdu',
      charsPerLine: this.charsPerLine,
      paperWidthDots: this.profile.paperWidthDots,
      codepage: this.profile.codepage,
      drawer: true,
      model: this.profile.model ?? 'printer behind the CHDU Lite',
      paper: 'unknown' as const,
      coverOpen: false,
    };
    if (s === undefined) return { ...base, ready: false, connected: false, fault: 'PRINTER_NOT_CONNECTED' };
    const fault = s.printerInvalid
      ? 'PRINTER_NOT_CONNECTED'
      : s.printerReady
        ? undefined
        : 'PRINTER_NOT_READY';
    return {
      ...base,
      ready: fault === undefined,
      connected: !s.printerInvalid,
      ...(fault ? { fault } : {}),
    };
  }

  openDrawer(pin: 2 | 5 = 2): Promise<void> {
    return this.busy(async () => {
      await this.assertReady();
      try {
        await this.chdu.openDrawer(pin);
      } catch (e) {
        throw toPrinterError(e);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.run(async () => undefined);
  }

  private async assertReady(): Promise<void> {
    if (this.closed) throw new FiscalError('PRINTER_NOT_CONNECTED', 'The printer adapter is closed.');
    let s: Awaited<ReturnType<Chdu['status']>>;
    try {
      s = await this.chdu.status();
    } catch (e) {
      this.last = this.toStatus(undefined);
      throw toPrinterError(e);
    }
    this.last = this.toStatus(s);
    if (s.printerInvalid) {
      throw new FiscalError(
        'PRINTER_NOT_CONNECTED',
        'The CHDÚ reports no usable printer line (PRINTER_INVALID).',
      );
    }
    if (!s.printerReady)
      throw new FiscalError('PRINTER_NOT_READY', 'The printer behind the CHDÚ is not ready.');
  }

  private async send(job: PrintJob, encoded: EscPosJob, options: PrintOptions | undefined): Promise<void> {
    const sha = createHash('sha256').update(encoded.bytes).digest('hex');
    const from = this.interrupted?.jobSha256 === sha ? this.interrupted.resumeOffset : 0;
    this.interrupted = undefined;
    const pacer = new PrintPacer(encoded.bytes.length - from, options, this.sleep);
    // A part is one `print-job` record: at least MIN_PART_BYTES (a window is no reason to spend a
    // CHDÚ record per line of a write-once device), at most one record's print payload.
    const limit = Math.min(
      MAX_PRINT_BYTES - encoded.prelude.length,
      Math.max(MIN_PART_BYTES, pacer.windowSize || MAX_PRINT_BYTES),
    );
    // Bytes forwarded to the printer in this attempt, counted like a line (ADR 0507, 0508).
    let line = 0;
    const progress: JobProgress & { sent: SentUnit[] } = {
      job: encoded,
      jobSha256: sha,
      from,
      sent: [],
      arrivedLine: 0,
      bufferBytes: this.profile.bufferBytes,
    };
    // ADR 0517: the kick counts as sent once the part holding it is handed to the CHDÚ — the
    // device may forward it and lose its answer.
    let kickSent = false;
    for (const part of parts(encoded.units, from, limit)) {
      const prefix = part.start === from && from > 0 ? encoded.prelude : new Uint8Array(0);
      const bytes = concat(prefix, encoded.bytes.subarray(part.start, part.end));
      await pacer.before(bytes.length);
      for (const u of encoded.units) {
        if (u.start >= part.start && u.end <= part.end) {
          progress.sent.push({ end: u.end, lineEnd: line + prefix.length + (u.end - part.start) });
        }
      }
      if (encoded.drawerKick && part.start === 0) kickSent = true;
      try {
        await this.journal.append(
          {
            type: 'print-job',
            body: {
              kind: job.kind,
              ...(job.reference === undefined ? {} : { reference: job.reference }),
              offset: part.start,
              totalBytes: encoded.bytes.length,
              jobSha256: sha,
            },
          },
          { print: bytes },
        );
        line += bytes.length;
        progress.arrivedLine = line;
      } catch (e) {
        // The journal reports how many print bytes the device acknowledged (forwarded).
        const forwarded = (FiscalError.is(e) && (e.details?.printedBytes as number | undefined)) || 0;
        progress.arrivedLine = line + forwarded;
        // A device that refused the write (NAK with its error code: printer not ready, full,
        // locked) forwarded exactly what it acknowledged; a lost or garbled answer leaves the rest
        // of the part possibly on paper.
        const refused = refusedByDevice(e);
        if (refused) progress.sent = progress.sent.filter((u) => u.lineEnd <= progress.arrivedLine);
        const stopped = stoppedAt(progress);
        // The part holding the kick refused before a byte of it was forwarded (e.g. paper out):
        // the drawer did not open, so the next print of the receipt kicks it.
        const kickRefused = refused && part.start === 0 && forwarded === 0;
        const kicked = encoded.drawerKick && ((kickSent && !kickRefused) || stopped.started);
        if (kicked) this.kicked.add(sha);
        throw this.cutShort(e, stopped, kicked);
      }
    }
  }

  /**
   * The error of a job stopped part way: 106 (or the device's code) with where to resume once a
   * unit with receipt content was acknowledged — the first unit alone (ESC @, the kick) does not
   * start a job (ADR 0507 as amended); with `drawerOpened` when its kick went out, also when
   * nothing of the receipt counts as forwarded.
   */
  private cutShort(e: unknown, stopped: StoppedJob, kicked: boolean): FiscalError {
    const base = toPrinterError(e);
    const kick = kicked ? { drawerOpened: true } : {};
    if (!stopped.started) {
      return kicked
        ? new FiscalError(base.resultName, base.message, { ...base.details, ...kick }, { cause: e })
        : base;
    }
    const info = stopped.info;
    this.interrupted = info;
    const name: PrinterFault =
      base.resultName === 'PRINTER_NOT_CONNECTED' ? 'PARTIAL_PRINT' : (base.resultName as PrinterFault);
    return new FiscalError(
      name,
      name === 'PARTIAL_PRINT'
        ? `The CHDÚ line dropped part way through the job (${info.printedLines} line(s) surely printed); printing the same job again goes on from byte ${info.resumeOffset} of ${info.totalBytes}.`
        : base.message,
      { ...base.details, partialPrint: info, ...kick },
      { cause: e },
    );
  }
}

/** Consecutive units from `from`, grouped into parts of at most `limit` bytes (a bigger unit alone). */
function parts(
  units: readonly PrintUnit[],
  from: number,
  limit: number,
): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const u of units) {
    if (u.start < from) continue;
    const last = out.at(-1);
    if (last !== undefined && u.end - last.start <= limit) last.end = u.end;
    else out.push({ start: u.start, end: u.end });
  }
  return out;
}

/** Whether the CHDÚ itself refused the write (NAK with an error code), directly or as the cause. */
function refusedByDevice(e: unknown): boolean {
  if (!FiscalError.is(e)) return false;
  if (e.details?.deviceError !== undefined) return true;
  const cause = (e as { cause?: unknown }).cause;
  return FiscalError.is(cause) && cause.details?.deviceError !== undefined;
}

/** A CHDÚ or device error as the printer code it means for printing (ADR 0508). */
function toPrinterError(e: unknown): FiscalError {
  if (!FiscalError.is(e)) {
    return new FiscalError('PRINTER_COMMUNICATION_ERROR', `Printing through the CHDÚ failed: ${String(e)}.`);
  }
  switch (e.resultName) {
    case 'PRINTER_NOT_READY':
      return new FiscalError(
        'PRINTER_NOT_READY',
        'The printer behind the CHDÚ is not ready (EC_PRINTER).',
        e.details ? { ...e.details } : undefined,
      );
    case 'CHDU_NOT_CONNECTED':
      return new FiscalError(
        'PRINTER_NOT_CONNECTED',
        `The CHDÚ, and the printer behind it, cannot be reached: ${e.message}`,
        { chduResultCode: e.resultCode },
      );
    default:
      return new FiscalError(
        'PRINTER_COMMUNICATION_ERROR',
        `Printing through the CHDÚ failed: ${e.message}`,
        {
          chduResultCode: e.resultCode,
        },
      );
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
