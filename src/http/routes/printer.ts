import type { ReceiptPrinter } from '../../core/ports/receipt-printer.js';
import { printerInfo } from '../../core/services/printing/printer-info.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses, GenericResponse } from '../schemas/common.js';
import { OpenDrawerRequest, PrinterResponse } from '../schemas/printing.js';

/** `GET /api/printer` (always answered, ADR 0514) and `POST /api/drawer/open`. */
export function printerRoutes(deps: { printer: ReceiptPrinter }): RoutePlugin {
  return (app) => {
    app.get(
      '/api/printer',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['printer'],
          summary: 'The printer: adapter, model, characters per line, paper, code page, status, drawer',
          response: { 200: PrinterResponse, ...errorResponses },
        },
      },
      async () => ({ resultCode: 0 as const, ...(await printerInfo(deps.printer)) }),
    );
    app.post(
      '/api/drawer/open',
      {
        schema: {
          tags: ['printer'],
          summary: 'Kick the cash drawer (ESC p)',
          description:
            '104 without a printer, 100 when the printer is not ready, 102 when it cannot be reached.',
          body: OpenDrawerRequest,
          response: { 200: GenericResponse, ...errorResponses },
        },
      },
      async (request) => {
        await deps.printer.openDrawer(request.body.pin ?? 2);
        return { resultCode: 0 as const };
      },
    );
  };
}
