import { z } from 'zod';
import { readIdempotencyKey } from '../../core/documents/idempotency.js';
import type { CashOperation } from '../../core/services/documents/cash-operation.js';
import type { GetDocument } from '../../core/services/documents/get-document.js';
import type { PrintPendingDocument } from '../../core/services/documents/print-pending-document.js';
import { printOptionsOf, type StoreDocument } from '../../core/services/documents/store-document.js';
import type { RoutePlugin } from '../app.js';
import { ErrorResponse, errorResponses, GenericResponse } from '../schemas/common.js';
import {
  CashRequest,
  CashResponse,
  DocumentResponse,
  GetDocumentRequest,
  PrinterOptions,
  StoreDocumentRequest,
} from '../schemas/documents.js';

const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'Up to 100 printable ASCII characters. A retry with the same key and body answers the stored document again; nothing is written, sent or printed twice. The same key with another body is 701.',
    ),
});

const PrintRequest = PrinterOptions.describe(
  'Printer object; `{}` uses the configured printer. windowSize/printDelay pace a long print.',
).meta({ examples: [{}, { windowSize: 2500, printDelay: 5000 }] });

const hasPrinter = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && (body as { printer?: unknown }).printer != null;

export interface DocumentRouteDeps {
  store: StoreDocument;
  get: GetDocument;
  print: PrintPendingDocument;
  cash: CashOperation;
}

/** `POST /api/document/store|get|print` and `POST /api/cash` (capability 6). */
export function documentRoutes(deps: DocumentRouteDeps): RoutePlugin {
  return (app) => {
    app.post(
      '/api/document/store',
      {
        schema: {
          tags: ['documents'],
          summary: 'Store, sign, register and print a PD, UF or ND',
          description:
            'Validates, numbers and signs the document, writes it to the CHDÚ, registers it with the SFS within the online limit (else issues it offline), then prints it or returns an electronic receipt. A failed print answers HTTP 200 with resultCode 507, the document and printResultCode. Header Idempotency-Key makes retries safe.',
          headers: IdempotencyHeaders,
          body: StoreDocumentRequest,
          response: { 200: DocumentResponse, ...errorResponses },
        },
      },
      async (request) => {
        const key = readIdempotencyKey(request.headers['idempotency-key']);
        return deps.store.execute(request.body, request.jsonBody, key);
      },
    );
    app.post(
      '/api/document/get',
      {
        // ADR 0116: a look-up without a copy only reads; it is answered during a storage fault.
        config: { lookup: (body) => !hasPrinter(body) },
        schema: {
          tags: ['documents'],
          summary: 'Look a document up (or the last one); optionally print a copy',
          description:
            'Not found answers HTTP 200 with resultCode 506, the sentence naming what was looked for. A document the SFS did not accept (stuck, or set aside) is not answered as valid: the lookup answers the error its store answered — 501, 502, 601 or 602 with `ekasaError`, `documentNumber` and `internalDocumentId` (HTTP 500).',
          body: GetDocumentRequest,
          // A look-up that finds nothing is an ErrorResponse (506) with HTTP 200 (API text).
          response: { 200: z.union([DocumentResponse, ErrorResponse]), ...errorResponses },
        },
      },
      async (request) => deps.get.execute(request.body),
    );
    app.post(
      '/api/document/print',
      {
        schema: {
          tags: ['documents'],
          summary: 'Print the original of the last document whose print failed',
          description:
            '505 (HTTP 404) when nothing waits to be printed or the last document was electronic; 0 lifts the 507/508 block; a printer that fails again answers its code (HTTP 500) and the block stays. After a 106, printing resumes where the paper stopped.',
          body: PrintRequest,
          response: { 200: GenericResponse, ...errorResponses },
        },
      },
      async (request) => deps.print.execute(printOptionsOf(request.body)),
    );
    app.post(
      '/api/cash',
      {
        schema: {
          tags: ['cash'],
          summary: 'Cash deposit (VK, positive amount) or withdrawal (VY, negative amount)',
          description:
            'A failed print answers the printer code (100–106, HTTP 500) with the stored `cash`. A retry with the same Idempotency-Key answers the stored cash again, 507 with HTTP 200 and `cash` while its original is not printed, or the SFS error of a document the SFS did not accept.',
          headers: IdempotencyHeaders,
          body: CashRequest,
          response: { 200: CashResponse, ...errorResponses },
        },
      },
      async (request) => {
        const key = readIdempotencyKey(request.headers['idempotency-key']);
        return deps.cash.execute(request.body, request.jsonBody, key);
      },
    );
  };
}
