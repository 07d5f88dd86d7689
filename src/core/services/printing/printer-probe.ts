import type { ReceiptPrinter } from '../../ports/receipt-printer.js';
import type { ComponentStatus, StatusProbe } from '../register-status.js';
import { printerInfo } from './printer-info.js';

/**
 * `PRINTER` of `GET /api/status/get`: the same facts as `GET /api/printer` (one call,
 * {@link printerInfo}), so the two never disagree.
 */
export function printerProbe(printer: ReceiptPrinter): StatusProbe {
  return {
    component: 'PRINTER',
    async check(): Promise<ComponentStatus> {
      const info = await printerInfo(printer);
      const { status, ...rest } = info;
      const details: Record<string, unknown> = { ...rest, ...status };
      if (status.ready) {
        return {
          component: 'PRINTER',
          state: status.paper === 'near-end' ? 'WARNING' : 'OK',
          reasonCode: 0,
          reason:
            status.paper === 'near-end'
              ? `Printer ${printer.target}: paper near its end.`
              : status.busy === true
                ? `Printer ${printer.target} is printing.`
                : `Printer ${printer.target} is ready.`,
          details,
        };
      }
      return {
        component: 'PRINTER',
        state: info.adapter === 'none' ? 'NOT_CONFIGURED' : 'ERROR',
        reasonCode: status.faultCode ?? 100,
        reason: `Printer ${printer.target} is not ready (${status.fault ?? 'unknown fault'}).`,
        details,
      };
    },
  };
}
