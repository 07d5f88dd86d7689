import { DEFAULT_PROFILE, type PrinterProfile, paperWidthForChars } from '../../config/printer-profile.js';
import { FiscalError } from '../../core/fiscal-error.js';
import type { PrinterStatus, PrintOutcome, ReceiptPrinter } from '../../core/ports/receipt-printer.js';

/**
 * `--printer none`: a register without a printer. Nothing can be put on paper, so every print and
 * drawer kick fails with PRINTER_NOT_CONFIGURED (104) — succeeding silently would let a document
 * count as handed over on paper when it never was (see docs/receipts.md). Such a register can only
 * issue electronic receipts, which are possible online only (capability 6: offline is always printed).
 */
export class NoPrinter implements ReceiptPrinter {
  readonly target = 'none';
  readonly charsPerLine: number;
  private readonly profile: PrinterProfile;

  /** `charsPerLine` or `profile`: the width electronic receipts are laid out for (default 48). */
  constructor(options: { charsPerLine?: number; profile?: PrinterProfile } = {}) {
    const chars = options.charsPerLine ?? options.profile?.charsPerLine ?? 48;
    this.profile = options.profile ?? {
      ...DEFAULT_PROFILE,
      charsPerLine: chars,
      paperWidthDots: paperWidthForChars(chars),
    };
    this.charsPerLine = chars;
  }

  async print(): Promise<PrintOutcome> {
    await tick();
    throw notConfigured();
  }

  async status(): Promise<PrinterStatus> {
    await tick();
    return {
      ready: false,
      connected: false,
      paper: 'unknown',
      coverOpen: false,
      charsPerLine: this.charsPerLine,
      model: 'none',
      adapter: 'none',
      paperWidthDots: this.profile.paperWidthDots,
      codepage: this.profile.codepage,
      drawer: false,
      fault: 'PRINTER_NOT_CONFIGURED',
    };
  }

  async openDrawer(): Promise<void> {
    await tick();
    throw notConfigured();
  }

  async close(): Promise<void> {}
}

function notConfigured(): FiscalError {
  return new FiscalError('PRINTER_NOT_CONFIGURED', 'no printer is configured (--printer none)');
}

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
