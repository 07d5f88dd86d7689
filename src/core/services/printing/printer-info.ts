import type { ReceiptPrinter } from '../../ports/receipt-printer.js';
import { RESULT_CODES } from '../../result-codes.js';

/**
 * `GET /api/printer` (and the PRINTER entry of `/api/status/get`, the `printer` of
 * `/api/chduinfo`, built from the same call so they agree): what the printer is and how it is.
 */
export interface PrinterInfo {
  adapter: string;
  target: string;
  model: string;
  charsPerLine: number;
  /** The same number, under the name other vendors' clients read (API v1.7 text, Printer). */
  numberOfCharInRow: number;
  paperWidthDots: number;
  codepage: string;
  drawer: boolean;
  status: {
    ready: boolean;
    connected: boolean;
    paper: 'ok' | 'near-end' | 'out' | 'unknown';
    coverOpen: boolean;
    /** When not ready: the code a print would fail with now, and its name. */
    faultCode?: number;
    fault?: string;
    /** A job is printing: the rest is the last reading, not asked now (ADR 0514). */
    busy?: boolean;
  };
}

export async function printerInfo(printer: ReceiptPrinter): Promise<PrinterInfo> {
  const s = await printer.status();
  return {
    adapter: s.adapter ?? printer.target.split(':', 1)[0] ?? 'unknown',
    target: printer.target,
    model: s.model,
    charsPerLine: s.charsPerLine,
    numberOfCharInRow: s.charsPerLine,
    paperWidthDots: s.paperWidthDots ?? (s.charsPerLine <= 32 ? 384 : 576),
    codepage: s.codepage ?? 'cp852',
    drawer: s.drawer ?? false,
    status: {
      ready: s.ready,
      connected: s.connected,
      paper: s.paper,
      coverOpen: s.coverOpen,
      ...(s.fault === undefined ? {} : { fault: s.fault, faultCode: RESULT_CODES[s.fault].code }),
      ...(s.busy === true ? { busy: true } : {}),
    },
  };
}
