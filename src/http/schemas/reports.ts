import { z } from 'zod';
import { PrinterOptions, ResponseDocument } from './documents.js';
import { strictRequest } from './strict-request.js';

/** Marks an endpoint as kasa's extension to the API v1.7 text in the OpenAPI document (ADR 1005). */
export const EXTENSION = {
  'x-kasa-extension': true,
  tags: ['extensions (admin page)'],
} as const;

export const EXTENSION_NOTE = 'Extension to the API v1.7 text (kasa; docs/admin.md). ';

const receiptType = z.enum(['PD', 'UF', 'ND', 'VK', 'VY']);
const day = z.string().describe('a day YYYY-MM-DD, Europe/Bratislava');
const sendState = z
  .enum(['unsent', 'online', 'offline-sent', 'stuck', 'not-sent', 'set-aside'])
  .describe(
    'unsent: offline, waits to be sent; online / offline-sent: registered; stuck: rejected, waits for repair; not-sent: not sent by law (VK/VY); set-aside: rejected and set aside for the tax office (POST /api/offline/set-aside), never sent again',
  );
const printState = z.enum(['pending', 'printed', 'failed', 'electronic']);

export const DocumentListQuery = z.strictObject({
  from: day.optional().describe('created on or after this day'),
  to: day.optional().describe('created on or before this day (default: from)'),
  type: z.string().max(20).optional().describe('types, comma-separated: PD,UF,ND,VK,VY'),
  state: z
    .string()
    .max(60)
    .optional()
    .describe('SFS states, comma-separated: unsent,online,offline-sent,stuck,not-sent,set-aside'),
  limit: z.coerce.number().int().optional().describe('page size 1-100, default 20'),
  cursor: z.coerce.number().int().optional().describe('nextCursor of the previous page'),
});

export const DocumentListItem = z
  .object({
    internalDocumentId: z.number().int(),
    documentNumber: z.string(),
    type: receiptType,
    amount: z.number().describe('negative for a withdrawal (VY) or a refund'),
    createDate: z.string().describe('dd.MM.yyyy HH:mm:ss, Europe/Bratislava'),
    externalId: z.string().optional(),
    okp: z.string(),
    uuid: z.string().optional(),
    sendState,
    printState,
    sendingCount: z.number().int(),
  })
  .meta({ id: 'DocumentListItem' });

export const DocumentListResponse = z
  .object({
    resultCode: z.literal(0),
    documents: z.array(DocumentListItem),
    nextCursor: z.number().int().optional().describe('present when more documents follow: pass it as cursor'),
  })
  .meta({
    id: 'DocumentListResponse',
    examples: [
      {
        resultCode: 0,
        documents: [
          {
            internalDocumentId: 42,
            documentNumber: '202603/42',
            type: 'PD',
            amount: 7.45,
            createDate: '02.03.2026 10:15:30',
            okp: '3b1e36b5-6d373c5f-d1942323-37d95ec0-3ab4131f',
            uuid: 'O-7DBC1F0A6E2B4A0C9C1F0A6E2B4A0C9C',
            sendState: 'online',
            printState: 'printed',
            sendingCount: 1,
          },
        ],
        nextCursor: 42,
      },
    ],
  });

export const DocumentViewQuery = z.strictObject({
  id: z.coerce.number().int().describe('internalDocumentId'),
});

export const DocumentViewResponse = z
  .object({
    resultCode: z.literal(0),
    document: ResponseDocument,
    sfs: z.object({
      state: sendState,
      sendingCount: z.number().int(),
      lastAttempt: z
        .object({
          requestDate: z.string(),
          outcome: z.string(),
          errorCode: z.number().int().optional(),
          errorText: z.string().optional(),
        })
        .optional(),
      accepted: z.object({ uuid: z.string().optional(), processDate: z.string().optional() }).optional(),
    }),
    print: z.object({ state: printState, lastPrinterCode: z.number().int().optional() }),
    receipt: z.object({
      imageData: z.string().describe('the receipt as a PNG, Base64'),
      text: z.string().describe('the same receipt as text lines'),
      charsPerLine: z.number().int(),
    }),
  })
  .meta({
    id: 'DocumentViewResponse',
    examples: [
      {
        resultCode: 0,
        document: '(the ResponseDocument, as POST /api/document/get answers it)',
        sfs: {
          state: 'online',
          sendingCount: 1,
          lastAttempt: { requestDate: '2026-03-02T10:15:30+01:00', outcome: 'accepted' },
          accepted: { uuid: 'O-7DBC1F0A6E2B4A0C9C1F0A6E2B4A0C9C', processDate: '2026-03-02T10:15:31+01:00' },
        },
        print: { state: 'printed' },
        receipt: { imageData: 'iVBORw0KGgo…', text: '   POKLADNIČNÝ DOKLAD\n…', charsPerLine: 48 },
      },
    ],
  });

export const SummaryQuery = z.strictObject({
  from: day.optional().describe('first day (default today)'),
  to: day.optional().describe('last day (default: from)'),
});

const cents = z.number().describe('EUR');
const countAndTotal = z.object({ count: z.number().int(), total: cents });

export const Summary = z
  .object({
    counts: z
      .object({
        PD: z.number().int(),
        UF: z.number().int(),
        ND: z.number().int(),
        VK: z.number().int(),
        VY: z.number().int(),
        total: z.number().int(),
      })
      .describe('documents stored in the period, by type'),
    notValid: z
      .number()
      .int()
      .describe('documents the SFS rejected that wait for repair (stuck): counted above, in no sum'),
    setAside: z
      .number()
      .int()
      .describe(
        'documents the SFS rejected that were set aside for the tax office (POST /api/offline/set-aside): counted above, never valid, in no sum',
      ),
    vatRates: z
      .array(z.object({ title: z.string(), base: cents, vat: cents, sum: cents }))
      .describe("per VAT rate: the sum of the PD documents' vatRateSums rows"),
    vatTotal: z.object({ base: cents, vat: cents, sum: cents }),
    turnover: cents.describe('PD and UF amounts (cash rounding included)'),
    sales: countAndTotal.describe('PD documents with an amount ≥ 0'),
    refunds: countAndTotal.describe('PD documents with a negative amount'),
    invoicePayments: countAndTotal.describe('UF documents'),
    rounding: cents.describe('cash rounding included in the amounts'),
    payments: z
      .array(
        z.object({
          name: z.string(),
          total: cents.describe('received under this name, as the documents carry it (change included)'),
          change: cents.describe(
            "change given back out of it: what a document's payments exceed its amount by, taken from its cash payments first",
          ),
          net: cents.describe('total − change: the nets of the period add up to the turnover'),
          cash: z.boolean(),
        }),
      )
      .describe('per payment name as sent; money paid back counts negative'),
    deposits: countAndTotal.describe('VK'),
    withdrawals: countAndTotal.describe('VY, as positive amounts'),
    cashInDrawer: cents.describe(
      'deposits − withdrawals + the cash part of each PD and UF (change excluded)',
    ),
  })
  .meta({ id: 'DailySummary' });

const EXAMPLE_SUMMARY = {
  resultCode: 0,
  from: '2026-03-02',
  to: '2026-03-02',
  summary: {
    counts: { PD: 2, UF: 1, ND: 0, VK: 1, VY: 1, total: 5 },
    notValid: 0,
    setAside: 0,
    vatRates: [
      { title: 'VAT_23', base: 8.13, vat: 1.87, sum: 10 },
      { title: 'VAT_5', base: 0.43, vat: 0.02, sum: 0.45 },
    ],
    vatTotal: { base: 8.56, vat: 1.89, sum: 10.45 },
    turnover: 60.45,
    sales: { count: 1, total: 12.95 },
    refunds: { count: 1, total: -2.5 },
    invoicePayments: { count: 1, total: 50 },
    rounding: 0,
    payments: [
      { name: 'Hotovosť', total: 20, change: 9.55, net: 10.45, cash: true },
      { name: 'Karta', total: 50, change: 0, net: 50, cash: false },
    ],
    deposits: { count: 1, total: 100 },
    withdrawals: { count: 1, total: 40 },
    cashInDrawer: 70.45,
  },
};

const QrSummary = z
  .object({
    tenderName: z.string().describe('the payments name receipts use for QR payments (setting nopTenderName)'),
    tender: cents.describe('what the receipts of the period were paid under that name'),
    used: cents.describe('QR payments of the period used on receipts'),
    paidNotUsed: cents.describe('paid, not used on a receipt (yet)'),
    late: cents.describe('paid after they expired: refund or review'),
    mismatch: cents.describe('paid with another amount: refund or review'),
    count: z.record(z.string(), z.number().int()).describe('QR payments of the period by state'),
  })
  .describe('QR payments through NOP (capability 15), present when the register has them');

export const SummaryResponse = z
  .object({
    resultCode: z.literal(0),
    from: z.string(),
    to: z.string(),
    summary: Summary,
    qr: QrSummary.optional(),
  })
  .meta({ id: 'SummaryResponse', examples: [EXAMPLE_SUMMARY] });

export const SummaryPrintRequest = strictRequest({
  from: day.optional(),
  to: day.optional(),
  printer: PrinterOptions.optional().describe('pacing of the print (windowSize, printDelay)'),
}).meta({ id: 'SummaryPrintRequest', examples: [{ from: '2026-03-02' }] });

export const SummaryPrintResponse = SummaryResponse.extend({
  recordNo: z.number().int().describe('the CHDÚ record of the printed text'),
}).meta({ id: 'SummaryPrintResponse', examples: [{ ...EXAMPLE_SUMMARY, recordNo: 318 }] });
