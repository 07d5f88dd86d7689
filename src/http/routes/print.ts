import { printOptionsOf } from '../../core/services/documents/store-document.js';
import type { PrintFreeText } from '../../core/services/printing/print-free-text.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import { PrintStringRequest, RawResponse } from '../schemas/printing.js';

/** `POST /api/print`: free text, stored in the CHDÚ first, then printed as given. */
export function printRoutes(deps: { print: PrintFreeText }): RoutePlugin {
  return (app) => {
    app.post(
      '/api/print',
      {
        schema: {
          tags: ['printer'],
          summary: 'Print free text (stored in the CHDÚ first, no document number)',
          description:
            'The text is written to the CHDÚ as a free-text record, then printed as given. 508/501 while the last document is unprinted or stuck; a failed print answers the printer code with recordNo.',
          body: PrintStringRequest,
          response: { 200: RawResponse, ...errorResponses },
        },
      },
      async (request) => deps.print.execute(request.body.printData, printOptionsOf(request.body.printer)),
    );
  };
}
