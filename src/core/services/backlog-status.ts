import type { ReceiptPrinter } from '../ports/receipt-printer.js';
import { RESULT_CODES } from '../result-codes.js';
import type { ComponentStatus, StatusProbe } from './register-status.js';

/** `PRINTER` of `GET /api/status/get`. */
export function printerProbe(printer: ReceiptPrinter): StatusProbe {
  return {
    component: 'PRINTER',
    async check(): Promise<ComponentStatus> {
      const s = await printer.status();
      const details: Record<string, unknown> = {
        target: printer.target,
        model: s.model,
        charsPerLine: s.charsPerLine,
        paper: s.paper,
      };
      if (s.ready) {
        return {
          component: 'PRINTER',
          state: s.paper === 'near-end' ? 'WARNING' : 'OK',
          reasonCode: 0,
          reason:
            s.paper === 'near-end'
              ? `Printer ${printer.target}: paper near its end.`
              : `Printer ${printer.target} is ready.`,
          details,
        };
      }
      const code = RESULT_CODES[s.fault ?? 'PRINTER_NOT_READY'].code;
      return {
        component: 'PRINTER',
        state: 'ERROR',
        reasonCode: code,
        reason: `Printer ${printer.target} is not ready (${s.fault ?? 'unknown fault'}).`,
        details,
      };
    },
  };
}
