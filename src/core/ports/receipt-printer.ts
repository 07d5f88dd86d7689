import type { ReceiptLayout } from '../receipt/receipt-blocks.js';
import type { ResultName } from '../result-codes.js';

/**
 * The result codes a printer may raise (FiscalError with one of these names, `resultCode`
 * 100–106). The document flow turns them into 507 `printResultCode` (capability 6).
 */
export const PRINTER_FAULTS = [
  'PRINTER_NOT_READY',
  'PRINTER_DATA_REFUSED',
  'PRINTER_NOT_CONNECTED',
  'PRINTER_COMMUNICATION_ERROR',
  'PRINTER_NOT_CONFIGURED',
  'PRINTER_NO_PAPER',
  'PARTIAL_PRINT',
] as const satisfies readonly ResultName[];

export type PrinterFault = (typeof PRINTER_FAULTS)[number];

/** What is printed: a fiscal document (original or copy) or a free-text print. */
export type PrintJobKind = 'receipt' | 'copy' | 'text';

export interface PrintJob {
  kind: PrintJobKind;
  /** The laid-out content (see `layoutReceipt`, `layoutFreeText`). */
  layout: ReceiptLayout;
  /** Kick the cash drawer with this job (ESC p before the content). */
  openDrawer?: boolean;
  /**
   * The kick of this receipt already went out in an earlier, failed attempt (the CHDÚ's print
   * record says so, also after a restart of kasa): the adapter never kicks again. A job cut short
   * in this process still resumes where it stopped, after its first unit (ADR 0507, 0517).
   */
  drawerOpened?: boolean;
  /** A short reference for logs and file names, e.g. the documentNumber `202601/23`. */
  reference?: string;
  /** Images the layout's `image` blocks name (the stored logo as PNG under `logo`). */
  images?: ReadonlyMap<string, Uint8Array>;
}

/**
 * What a job cut short left on paper (docs/printing.md; `details.partialPrint` of a 106, or of a
 * 100/105 that struck mid-job). The part before `resumeOffset` is on paper for certain: the printer
 * confirmed printing it, or confirmed its arrival a whole receive buffer before the end of what it
 * confirmed. Lines after it that reached the printer may be on paper too (`unconfirmedLines`):
 * a resumed print prints them again, so they may appear twice; nothing is ever missing (ADR 0507).
 */
export interface PartialPrintInfo {
  /** Size of the whole job in printer data bytes (ESC/POS as sent). */
  totalBytes: number;
  /** The first byte not surely printed: a resumed print sends the job from here (after ESC @). */
  resumeOffset: number;
  /** Lines, images and codes before `resumeOffset`: on paper for certain. */
  printedLines: number;
  /** Lines after `resumeOffset` the printer received but did not confirm printing: may repeat. */
  unconfirmedLines?: number;
  /** The text of the last line before `resumeOffset`, to find the place on the paper. */
  lastPrintedLine?: string;
  /** SHA-256 (hex) of the job's bytes: only the same job resumes, anything else starts afresh. */
  jobSha256: string;
}

/**
 * How a long job is paced (the API text's Printer object: `windowSize`, `printDelay`), so a
 * thermal head does not overheat on a long report: the job is sent in windows of about
 * `windowSize` bytes of printer data, with a pause of `printDelay` milliseconds between two
 * windows. Absent or 0: one window, no pause. The pauses of one job add up to at most two
 * minutes: windows widen when they would not (ADR 0516, `PacingPlan`).
 */
export interface PrintOptions {
  /** Bytes of printer data per window (ESC/POS bytes as sent to the device). */
  windowSize?: number;
  /** Milliseconds to wait between two windows. */
  printDelay?: number;
}

/**
 * A printed job. There is no `copies` option on purpose: an eKasa original is printed once, and any
 * further print must be laid out as a copy ("KÓPIA") and sent as its own job.
 */
export interface PrintOutcome {
  /** The printer's own job identifier (the virtual printer: its running number). */
  jobId: string;
}

export interface PrinterStatus {
  /** The adapter: `virtual`, `none`, `tcp`, `serial`, `usb`, `chdu`. */
  adapter?: string;
  /** Paper width in dots at 203 dpi (384, 512, 576). */
  paperWidthDots?: number;
  /** Code page text is printed in (`cp852`, `cp1250`), or `raster`. */
  codepage?: string;
  /** The printer can kick a cash drawer. */
  drawer?: boolean;
  /** True when a job sent now is expected to print. */
  ready: boolean;
  /** The device (or socket) is reachable. */
  connected: boolean;
  paper: 'ok' | 'near-end' | 'out' | 'unknown';
  coverOpen: boolean;
  /** Characters per line at normal size: the width to lay receipts out for. */
  charsPerLine: number;
  /** Printer model or adapter name, e.g. `virtual`, `none`, `TM-T20III`. */
  model: string;
  /** When not ready: the fault a print would fail with now. */
  fault?: PrinterFault;
  /**
   * A job or drawer kick is under way: the rest is the status read last (before the job or after
   * one of its units), not asked now — status never waits for a print (ADR 0514).
   */
  busy?: boolean;
}

/**
 * The receipt printer (ESC/POS over TCP 9100 or serial, CHDÚ pass-through, the virtual printer,
 * or none). Implementations never answer synchronously and serialise their jobs.
 */
export interface ReceiptPrinter {
  /** Where jobs go, for status output: `virtual:<folder>`, `none`, `tcp://host:9100`, … */
  readonly target: string;
  /** Characters per line at normal size (32, 42, 48): what `layoutReceipt` is called with. */
  readonly charsPerLine: number;

  /**
   * Prints one job completely (content, cut, drawer kick when asked).
   * @throws FiscalError PRINTER_NOT_READY (100): cover open, overheated or otherwise not ready;
   *   PRINTER_DATA_REFUSED (101), e.g. a job wider than the paper; PRINTER_NOT_CONNECTED (102) when
   *   the printer cannot be reached; PRINTER_COMMUNICATION_ERROR (103) for no or a garbled answer;
   *   PRINTER_NOT_CONFIGURED (104) when there is none; PRINTER_NO_PAPER (105); PARTIAL_PRINT (106)
   *   when the connection broke mid-job.
   *   On failure the caller treats the job as not printed; a failure after part of the job was
   *   confirmed carries `details.partialPrint` ({@link PartialPrintInfo}), and printing the same
   *   job again resumes there. A failure after the job's drawer kick went out — handed to the
   *   line, answered or not, with or without `partialPrint` — carries `details.drawerOpened: true`:
   *   the caller records it and passes {@link PrintJob.drawerOpened} on later attempts; the
   *   adapter itself does not kick for that job again while it runs (ADR 0517).
   */
  print(job: PrintJob, options?: PrintOptions): Promise<PrintOutcome>;

  /**
   * Current state; never throws (an unreachable printer answers `connected: false`) and never
   * waits for a running job: then it answers the last status read, with `busy: true` (ADR 0514).
   */
  status(): Promise<PrinterStatus>;

  /**
   * Kicks the cash drawer without printing (ESC p on pin 2, the usual one, or pin 5).
   * @throws FiscalError PRINTER_NOT_CONNECTED (102), PRINTER_COMMUNICATION_ERROR (103), PRINTER_NOT_READY (100),
   *   PRINTER_NOT_CONFIGURED (104), PRINTER_NO_PAPER (105).
   */
  openDrawer(pin?: 2 | 5): Promise<void>;

  /** Releases the connection; further calls fail with PRINTER_NOT_CONNECTED. */
  close(): Promise<void>;
}
