import { z } from 'zod';
import { SET_ASIDE_DETAIL } from '../../core/documents/api-document.js';
import type { FixDocumentInput } from '../../core/offline/fix-document.js';
import type { OfflineReportInput } from '../../core/services/offline/offline-report.js';
import { internalNumber } from './common.js';
import { EkasaStatus, PrinterOptions, ResponseDocument } from './documents.js';
import { Location } from './location.js';
import {
  exampleLocation,
  exampleOfflineDocument,
  exampleSentDocument,
  exampleStuckDocument,
} from './offline-examples.js';
import { strictRequest } from './strict-request.js';

/** Schemas of the Report API, send/offline, get/offline and document/update (API v1.7 text, the offline report models, models other vendors of the same API add). */

export const OfflineDocumentsFilter = strictRequest({
  sequenceId: z.number().int().nullish().describe('Only the document(s) with this sequenceId.'),
  from: z
    .string()
    .nullish()
    .describe('CreateDate on or after: dd.MM.yyyy HH:mm:ss (Bratislava) or ISO 8601.'),
  to: z.string().nullish().describe('CreateDate on or before, same format.'),
}).meta({ id: 'OfflineDocumentsFilter', description: 'Every member optional, any combination.' });

/**
 * `printer` of the report: present (even `{}`) means print it too; `windowSize` in bytes, then a
 * pause of `printDelay` ms (bounds in PrintOptionsFields, ADR 0516). The same object as every
 * Printer member.
 */
export const ReportPrinter = PrinterOptions;

export const GetOfflineDocumentsRequest = strictRequest({
  printer: ReportPrinter.nullish(),
  limit: z.number().int().nullish().describe('At most this many items (1–1000; 1000 when absent).'),
  offset: z
    .number()
    .int()
    .nullish()
    .describe('Skip exactly this many items (documents come first); resumes a print that stopped.'),
  offlineDocumentsFilter: OfflineDocumentsFilter.nullish(),
}).meta({
  id: 'GetOfflineDocumentsRequest',
  examples: [
    {},
    { limit: 10 },
    { offlineDocumentsFilter: { sequenceId: 13, from: '27.08.2025 16:56:02', to: '03.09.2025 16:56:02' } },
    { printer: { windowSize: 2500, printDelay: 5000 } },
    { printer: {}, offset: 70 },
  ],
});

export const OfflineDocument = ResponseDocument.extend({
  status: EkasaStatus.describe('OFFLINE warning while waiting; the SFS code and text when rejected (stuck).'),
}).meta({ id: 'OfflineDocument' });

/** The lists every offline answer carries (no id: each answer names its own component). */
const OfflineItems = z.object({
  resultCode: z.number().int(),
  documents: z.array(OfflineDocument),
  locations: z.array(Location),
});

export const OfflineReportResponse = OfflineItems.extend({
  totalItems: z
    .number()
    .int()
    .describe(
      'How many items match the filter in all, whatever offset and limit (kasa, ADR 0716): more than are listed when the report was cut.',
    ),
  moreItems: z
    .boolean()
    .describe(
      "true: items match past this page; ask again with offset = offset + the items listed. The queue drains meanwhile: keep offlineDocumentsFilter.to at the first page's time and start again at offset 0 when totalItems changed (kasa, ADR 0716).",
    ),
}).meta({
  id: 'OfflineReportResponse',
  description:
    'Empty lists: nothing waits to be sent. At most `limit` items (1000 by default); `totalItems` and `moreItems` say whether the list was cut.',
  examples: [
    {
      resultCode: 0,
      documents: [exampleOfflineDocument, exampleStuckDocument],
      locations: [exampleLocation],
      totalItems: 3,
      moreItems: false,
    },
    {
      resultCode: 0,
      documents: [exampleOfflineDocument],
      locations: [],
      totalItems: 1250,
      moreItems: true,
    },
    { resultCode: 0, documents: [], locations: [], totalItems: 0, moreItems: false },
  ],
});

/** `GET /api/report/offline/oldest`: the oldest item not registered, alone. */
export const OldestOfflineResponse = OfflineItems.meta({
  id: 'OldestOfflineResponse',
  description: 'The oldest document or location not registered; empty lists when nothing waits.',
  examples: [
    { resultCode: 0, documents: [exampleOfflineDocument], locations: [] },
    { resultCode: 0, documents: [], locations: [] },
  ],
});

export const SendOfflineRequest = strictRequest({
  limit: z.number().int().nullish().describe('Send at most this many items now (1–1000).'),
}).meta({ id: 'SendOfflineRequest', examples: [{}, { limit: 10 }] });

export const SendOfflineResponse = OfflineItems.meta({
  id: 'SendOfflineResponse',
  description: 'What this call registered; empty lists when nothing waited or the SFS could not be reached.',
  examples: [
    { resultCode: 0, documents: [exampleSentDocument], locations: [] },
    { resultCode: 0, documents: [], locations: [] },
  ],
});

export const GetOfflineRequest = strictRequest({
  limit: z.number().int().nullish(),
  offset: z.number().int().nullish(),
  offlineDocumentsFilter: OfflineDocumentsFilter.nullish(),
  sequenceId: z.number().int().nullish().describe('Filter members may also be given at the top level.'),
  from: z.string().nullish(),
  to: z.string().nullish(),
}).meta({ id: 'GetOfflineDocumentsLegacyRequest', examples: [{}] });

const FixEntry = strictRequest({
  name: z.string().nullish().describe('New name, 1–255 characters.'),
  quantity: z
    .number()
    .nullish()
    .describe('New quantity (0–10000000, 4 decimals); the line total and the amount are recomputed.'),
  specialRegulationChange: strictRequest({
    newValue: z.string().nullish().describe('PDP, OOD, CK, PT, UD, ZPS, or null to remove it.'),
  })
    .nullish()
    .describe('A new special regulation of the item (only at VAT_0), or `{"newValue": null}` to remove it.'),
})
  .nullish()
  .describe('By position: `{}` leaves an item unchanged.');

export const FixDocument = strictRequest({
  useLastMerchant: z.boolean().nullish().describe('Sign and send it as the merchant in force (new PKP).'),
  createDate: z
    .string()
    .nullish()
    .describe(
      'New creation time, same month, not in the future, not before the document issued before it: dd.MM.yyyy HH:mm:ss or ISO 8601 with an offset, which names the later instant of the repeated autumn hour (new PKP).',
    ),
  issueDate: z.string().nullish().describe('New issue time of a paragón (not later than createDate).'),
  invoiceId: z.string().nullish().describe('New invoice number of a UF, 1–50 ASCII.'),
  documentEntries: z.array(FixEntry).nullish(),
}).meta({ id: 'FixDocument' });

export const UpdateDocumentRequest = strictRequest({
  internalDocumentId: internalNumber()
    .nullish()
    .describe(
      'Extension (ADR 0715), recommended: the document the fix is for (its internalDocumentId, as the 501/502 answer and the offline report name it); it must be the oldest stuck document. Makes a repeated request safe: once that document is repaired, the answer is that document as it stands (0; 507 while its original is not printed), nothing sent or printed again — never a fix of the next stuck document. Without it the oldest stuck document is repaired, as the API text says.',
    ),
  fixDocument: FixDocument.nullish().describe(
    'Required: the fix of the oldest stuck document; `{}` sends it again as it is. A document already handed over (printed) takes only `{}` (ADR 0712).',
  ),
}).meta({
  id: 'UpdateDocumentRequest',
  examples: [
    { internalDocumentId: 7, fixDocument: { createDate: '18.11.2026 17:28:14' } },
    { internalDocumentId: 7, fixDocument: {} },
    { fixDocument: { useLastMerchant: true } },
    { fixDocument: { documentEntries: [{}, { name: 'Daco dobre', quantity: 1 }] } },
    { fixDocument: { documentEntries: [{ specialRegulationChange: { newValue: null } }] } },
  ],
});

/** `POST /api/offline/set-aside` (extension, ADR 0711). */
export const SetAsideRequest = strictRequest({
  internalDocumentId: z
    .number()
    .int()
    .nullish()
    .describe('The document to set aside (its internalDocumentId).'),
  locationInternalId: z.number().int().nullish().describe('Or the location to set aside (its internalId).'),
  reason: z
    .string()
    .nullish()
    .describe('Required: why (1–255 characters); kept in the CHDÚ with the item for the tax office.'),
}).meta({
  id: 'SetAsideRequest',
  description: 'Exactly one of internalDocumentId and locationInternalId, and a reason.',
  examples: [
    {
      internalDocumentId: 7,
      reason: 'SFS -117 although the refund names its receipt; reported to the tax office',
    },
  ],
});

export const SetAsideResponse = z
  .object({
    resultCode: z.number().int(),
    document: OfflineDocument.optional(),
    location: Location.optional(),
  })
  .meta({
    id: 'SetAsideResponse',
    description:
      'The item, now set aside: its status names the SFS rejection and that it needs the tax office.',
    examples: [
      {
        resultCode: 0,
        document: {
          ...exampleStuckDocument,
          status: {
            error: {
              errorType: 'EKASA' as const,
              errorCode: -117,
              message: 'Chýba ReferenceReceiptId.',
              detail: SET_ASIDE_DETAIL,
            },
          },
        },
      },
    ],
  });

type Assert<T extends true> = T;
export type _ReportInputMatches = Assert<
  z.output<typeof GetOfflineDocumentsRequest> extends OfflineReportInput ? true : false
>;
export type _FixMatches = Assert<
  NonNullable<z.output<typeof FixDocument>> extends FixDocumentInput ? true : false
>;
