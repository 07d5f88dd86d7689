import { z } from 'zod';
import { allResultCodes } from '../../core/result-codes.js';
import { PROTOCOL_STATUSES } from '../error-mapping.js';
import { PartialPrintInfo } from './printing.js';
import { strictRequest } from './strict-request.js';

/** Every failure: `{resultCode, error, errorMessage}` (+ details named by the endpoint). */
export const ErrorResponse = z
  .object({
    resultCode: z.number().int().describe('Result code (see docs/errors.md); never 0.'),
    error: z.string().describe('What went wrong, naming the field or the cause.'),
    errorMessage: z.string().describe('The same text, for clients written against other vendors.'),
    printResultCode: z
      .number()
      .int()
      .optional()
      .describe('A failed print: the printer code 100–106 (docs/printing.md).'),
    partialPrint: PartialPrintInfo.optional().describe(
      'A print that failed part way (106, or 100/105 mid-job): what is on paper and where printing again goes on.',
    ),
    recordNo: z
      .number()
      .int()
      .optional()
      .describe('POST /api/print: the CHDÚ record that holds the text even though printing failed.'),
    field: z
      .string()
      .optional()
      .describe('701 and other input errors: the member at fault, as a path (`documentEntries[2].price`).'),
    issues: z
      .array(z.object({ field: z.string(), rule: z.string() }))
      .optional()
      .describe(
        '701 from the request schema: the problems found, unknown members first, at most 20 (ADR 0427).',
      ),
    issuesNotListed: z
      .number()
      .int()
      .optional()
      .describe('701: how many more problems were found than `issues` lists.'),
    ekasaError: z
      .object({
        errorType: z.literal('EKASA'),
        errorCode: z.number().int(),
        message: z.string(),
        detail: z.string(),
      })
      .optional()
      .describe(
        '501, 502, 601, 602 for a document or location the SFS did not accept: the SFS code and text (also when POST /api/document/get looks up such a document).',
      ),
    documentNumber: z
      .string()
      .optional()
      .describe(
        'The document the failure is about (yyyyMM/sequenceId): one the SFS did not accept, one whose print failed, or the one a reused Idempotency-Key made (701).',
      ),
    internalDocumentId: z.number().int().optional().describe("The same document's internalDocumentId."),
  })
  .loose()
  .meta({
    id: 'ErrorResponse',
    // Every result code with its name, for generated clients (clients/typescript, ADR 0806).
    'x-kasa-result-codes': allResultCodes().map(({ code, name, meaning }) => ({ code, name, meaning })),
    examples: [
      { resultCode: 701, error: 'amount: must be a number', errorMessage: 'amount: must be a number' },
    ],
  });

/** `{resultCode: 0}` and nothing else. */
export const GenericResponse = z
  .object({ resultCode: z.literal(0) })
  .meta({ id: 'GenericResponse', examples: [{ resultCode: 0 }] });

/** An empty request object `{}`; any member is unknown (701, ADR 0424). */
export const EmptyRequest = strictRequest({}).meta({ examples: [{}] });

/** An internal number a request names (a document's or a location's): a whole number, 1…2³¹−1. */
export const internalNumber = () => z.number().int().min(1).max(2_147_483_647);

/**
 * Response schemas every route shares for its failures: the HTTP rules' statuses, which any
 * /api/ route may answer (PROTOCOL_STATUSES), 404 (505, 506, 803) and 500 (every other code).
 * The 200 answers that carry a failure (506 on document/get, 507 on store and cash) are in each
 * route's own 200 schema. A test compares this with what error-mapping.ts sends (ADR 0010).
 */
export const errorResponses = {
  ...(Object.fromEntries(PROTOCOL_STATUSES.map((status) => [status, ErrorResponse])) as Record<
    (typeof PROTOCOL_STATUSES)[number],
    typeof ErrorResponse
  >),
  500: ErrorResponse,
};
