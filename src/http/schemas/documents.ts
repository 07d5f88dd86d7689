import { z } from 'zod';
import type { ApiCash, ApiDocument } from '../../core/documents/api-document.js';
import type { GetDocumentInput } from '../../core/documents/document-query.js';
import { ITEM_TYPE_INPUTS, ITEM_TYPES } from '../../core/documents/item-types.js';
import { LIMITS } from '../../core/documents/limits.js';
import type { CashInput, StoreDocumentInput } from '../../core/documents/store-request.js';
import { SELLER_ID_TYPES, SPECIAL_REGULATIONS } from '../../core/documents/validate-items.js';
import { CUSTOMER_ID_TYPES } from '../../core/documents/validate-store-request.js';
import { VAT_RATE_INPUTS, VAT_RATES } from '../../core/documents/vat-rates.js';
import type { MerchantView } from '../../core/merchant/merchant-record.js';
import { exampleCash, exampleDocument } from './examples.js';
import { Merchant } from './merchant.js';
import { PartialPrintInfo, PrintOptionsFields } from './printing.js';
import { strictRequest } from './strict-request.js';

/**
 * Request and response schemas of `POST /api/document/store`, `POST /api/document/get` and
 * `POST /api/cash` (API v1.7 text, models; capability 6). The schemas check the JSON shape (types, required
 * members, enumerations) and document every rule; the values themselves (ranges, decimals, the
 * rules between fields) are checked by `src/core/documents/validate-*.ts`, which throw 701
 * naming the same field paths. `null` counts as absent on every optional member, and an empty
 * string as absent on optional texts and enumerations (POS clients send both for "none").
 */

// Messages are rules without the field name: the HTTP layer writes `<field path>: <rule>`.
const enumMessage = (values: readonly string[]) => (issue: { input?: unknown }) =>
  issue.input === undefined
    ? 'is required'
    : `unknown value ${JSON.stringify(issue.input)}; one of ${values.join(', ')}`;

/** An optional enumeration where `""` and `null` mean absent. */
function optionalEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.literal('')], { error: enumMessage(values) }).nullish();
}

/** A required member: "is required" when missing, else `rule`. */
const required = (rule: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'is required' : rule;

const nonEmpty = <T extends readonly string[]>(values: T) =>
  values as unknown as readonly [string, ...string[]];

const amount = (what: string) =>
  z
    .number({ error: required('must be a number') })
    .meta({ description: `${what}: up to 2 decimals, −10000000 to 10000000` });

/** The printer options object itself (also the whole body of `POST /api/document/print`). */
export const PrinterOptions = strictRequest({ ...PrintOptionsFields }, 'Printer');

export const Printer = PrinterOptions.nullish().describe(
  'Printer options; null or {} means the default printer.',
);

export const Seller = strictRequest({
  id: z.string().nullish().describe('Seller id, 1–50 letters or digits; with sellerIdType.'),
  sellerIdType: optionalEnum(SELLER_ID_TYPES as readonly ['DIC', 'IC_DPH']),
}).meta({
  id: 'Seller',
  description: 'Sale on behalf of another seller (SFS SellerId/SellerIdType: both or neither).',
});

export const Customer = strictRequest({
  id: z.string().nullish().describe('Buyer id, 1–50 letters or digits; with customerIdType. Not on ND.'),
  customerIdType: optionalEnum(CUSTOMER_ID_TYPES as readonly ['ICO', 'DIC', 'IC_DPH', 'INE']),
  type: optionalEnum(CUSTOMER_ID_TYPES as readonly ['ICO', 'DIC', 'IC_DPH', 'INE']).describe(
    'Alias of customerIdType.',
  ),
}).meta({
  id: 'Customer',
  description: 'Buyer id (SFS CustomerId/CustomerIdType: both or neither; not for ND).',
});

const itemTypeNames = ITEM_TYPES.map((t) => `${t.api} (${t.sfs})`).join(', ');

export const DocumentReceiptItem = strictRequest({
  name: z.string({ error: required('must be a string') }).describe('1–255 characters.'),
  price: z
    .number({ error: required('must be a number (the unit price)') })
    .describe(
      'Unit price, up to 6 decimals, −10000000 to 10000000; the line total is price × quantity rounded half up to cents. SALE/PACKING ≥ 0; PACKING_REFUND, VOUCHER, REFUND, DISCOUNT, DEPOSIT ≤ 0; UPDATE either.',
    ),
  quantity: z.number({ error: required('must be a number') }).describe('0 to 10000000, up to 4 decimals.'),
  vatRate: z
    .enum(nonEmpty(VAT_RATE_INPUTS), { error: enumMessage(VAT_RATE_INPUTS) })
    .describe(
      'VAT_23, VAT_19, VAT_5, VAT_0 (or labels 23%, 19%, 5%, 0%). VAT_20/VAT_10 only on REFUND and UPDATE items of pre-2025 sales: refused when referenceDocumentId is a document of this register issued from 1 Jan 2025 (ADR 0430). PACKING and PACKING_REFUND use VAT_0.',
    ),
  itemType: z
    .enum(nonEmpty(ITEM_TYPE_INPUTS), { error: enumMessage(ITEM_TYPE_INPUTS) })
    .describe(`Item type (SFS code): ${itemTypeNames}; the SFS codes are accepted too (K = SALE).`),
  voucherNumber: z
    .string()
    .nullish()
    .describe('1–50 ASCII. Required on VOUCHER; the SALE it pays carries the same number.'),
  referenceDocumentId: z
    .string()
    .nullish()
    .describe(
      '1–44 ASCII: UID, OKP or number of the corrected document. Required exactly on REFUND and UPDATE.',
    ),
  specialRegulation: optionalEnum(
    SPECIAL_REGULATIONS as readonly ['PDP', 'OOD', 'CK', 'PT', 'UD', 'ZPS'],
  ).describe('Only with VAT_0.'),
  seller: Seller.nullish(),
  externalId: z.string().nullish().describe("The POS's item id, 1–50 characters."),
}).meta({ id: 'DocumentReceiptItem' });

export const StoreDocumentRequest = strictRequest({
  type: z
    .enum(['PD', 'UF', 'ND', 'VK', 'VY'], { error: enumMessage(['PD', 'UF', 'ND']) })
    .describe(
      'PD receipt, UF invoice payment, ND invalid (training) document. VK/VY only through /api/cash.',
    ),
  amount: amount('amount').describe(
    'Total the customer pays: the item sum, or — only when a payment is cash — the item sum with the cash part rounded to 5 cents (PD/ND, ADR 0420); the invoice payment (UF, ≠ 0).',
  ),
  documentEntries: z
    .array(DocumentReceiptItem, { error: 'must be a list of items' })
    .max(LIMITS.maxItems, { error: `at most ${LIMITS.maxItems} items per document` })
    .nullish()
    .describe('Items: required (≥ 1) for PD and ND, none for UF.'),
  payments: z
    .record(z.string(), amount('payment amount'), {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? 'is required: an object of payment name → amount, e.g. {"Cash": 12.30}'
          : 'must be an object of payment name → amount',
    })
    .describe(
      'Payment name (free text) → amount ≥ 0. Required; their sum is not checked against amount. Names in the stored setting cashPaymentNames (default Hotovosť, Hotovost, Cash; any case) are cash: only they may carry a 5-cent rounding.',
    ),
  externalId: z.string().nullish().describe("The POS's document id, 1–50 characters; searchable."),
  invoiceId: z
    .string()
    .nullish()
    .describe('Invoice number, 1–50 ASCII: required for UF, forbidden otherwise.'),
  paragonNumber: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.maxParagonNumber)
    .nullish()
    .describe('Paragón number, with paragonDate; not for ND.'),
  paragonDate: z
    .string()
    .nullish()
    .describe('When the paper paragón was issued: dd.MM.yyyy HH:mm:ss or ISO 8601; not in the future.'),
  header: z.string().nullish().describe(`Printed at the top, up to ${LIMITS.headerMaxChars} characters.`),
  footer: z.string().nullish().describe(`Printed at the bottom, up to ${LIMITS.footerMaxChars} characters.`),
  printer: Printer,
  electronicReceipt: z.boolean().nullish().describe('Electronic receipt instead of paper (online only).'),
  openDrawer: z.boolean().nullish(),
  exception: z.boolean().nullish().describe('The merchant holds an exemption from sending data.'),
  customer: Customer.nullish(),
  // Extension (ADR 0907): QR payments (NOP) that pay this document.
  qrPayments: z
    .array(strictRequest({ id: z.string(), amount: z.number() }))
    .max(10)
    .nullish()
    .describe(
      'Extension: QR payments that pay this PD/UF, each PAID with exactly this amount and never used before; the QR tender in payments (nopTenderName, default "QR platba") must be their sum. Not sent to the SFS.',
    ),
}).meta({
  id: 'StoreDocumentRequest',
  examples: [
    {
      type: 'PD',
      amount: 8.15,
      documentEntries: [
        { name: 'Káva', price: 3.69, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' },
        { name: 'Džús', price: 2.38, quantity: 1, vatRate: 'VAT_19', itemType: 'SALE' },
        { name: 'Rožok', price: 1.05, quantity: 2, vatRate: 'VAT_5', itemType: 'SALE' },
      ],
      payments: { Cash: 8.15 },
      externalId: '03/02',
    },
  ],
});

export const CashRequest = strictRequest(
  {
    amount: amount('amount').describe(
      'Positive: deposit (VK); negative: withdrawal (VY); not 0; 2 decimals.',
    ),
    externalId: z.string().nullish().describe("The POS's id, 1–50 characters."),
    printer: Printer,
    exception: z.boolean().nullish(),
    openDrawer: z.boolean().nullish(),
  },
  'CashRequest',
).meta({ id: 'CashRequest', examples: [{ amount: 100 }, { amount: -100, openDrawer: true }] });

export const GetDocumentRequest = strictRequest(
  {
    documentBySequenceId: strictRequest({
      sequenceId: z.number().int().nullish(),
      month: z.number().int().nullish(),
      year: z.number().int().nullish(),
    }).nullish(),
    documentByExternalId: strictRequest({ externalId: z.string().nullish() }).nullish(),
    documentByOkp: strictRequest({ okp: z.string().nullish() }).nullish(),
    documentByPkp: strictRequest({ pkp: z.string().nullish() }).nullish(),
    documentByUUID: strictRequest({ uuid: z.string().nullish() }).nullish(),
    printer: Printer.describe('When given, the found document is also printed as a copy (KÓPIA).'),
  },
  'GetDocumentRequest',
).meta({
  id: 'GetDocumentRequest',
  description: 'At most one look-up member; none returns the last document.',
  examples: [
    {},
    { documentBySequenceId: { sequenceId: 7, month: 3, year: 2026 } },
    { documentByExternalId: { externalId: '03/02' } },
  ],
});

const vatRateName = z.enum(
  VAT_RATES.map((r) => r.name) as ['VAT_23', 'VAT_20', 'VAT_19', 'VAT_10', 'VAT_5', 'VAT_0'],
);
const apiItemType = z.enum(
  ITEM_TYPES.map((t) => t.api) as [
    'SALE',
    'PACKING',
    'PACKING_REFUND',
    'VOUCHER',
    'REFUND',
    'UPDATE',
    'DISCOUNT',
    'DEPOSIT',
  ],
);
const receiptType = z.enum(['PD', 'UF', 'ND', 'VK', 'VY']);
const apiDate = z.string().describe('dd.MM.yyyy HH:mm:ss, Europe/Bratislava');

export const DocumentItem = z
  .object({
    type: apiItemType,
    name: z.string(),
    price: z.number().describe('Unit price.'),
    quantity: z.number(),
    totalPrice: z.number().describe('Line total (price × quantity rounded half up to cents).'),
    vatRate: vatRateName,
    referenceDocumentId: z.string().optional(),
    specialRegulation: z.enum(['PDP', 'OOD', 'CK', 'PT', 'UD', 'ZPS']).optional(),
    seller: z.object({ id: z.string(), sellerIdType: z.enum(['DIC', 'IC_DPH']) }).optional(),
    voucherNumber: z.string().optional(),
    externalId: z.string().optional(),
  })
  .meta({ id: 'DocumentItem' });

export const VatRateSum = z
  .object({
    title: z.union([vatRateName, z.literal('TOTAL')]),
    base: z.number(),
    vat: z.number(),
    sum: z.number(),
  })
  .meta({ id: 'VatRateSum', examples: [{ title: 'VAT_23', base: 3, vat: 0.69, sum: 3.69 }] });

export const ResponseDocument = z
  .object({
    type: receiptType,
    merchant: Merchant,
    cashRegisterCode: z.string(),
    amount: z.number().describe('What the customer paid; negative for a withdrawal (VY).'),
    issueDate: apiDate,
    createDate: apiDate,
    processDate: apiDate.optional().describe('When the SFS registered it; absent while offline.'),
    sequenceId: z.number().int(),
    uuid: z.string().optional().describe('eKasa receipt UID; absent while offline.'),
    pkp: z.string(),
    okp: z.string(),
    qrCode: z
      .string()
      .describe(
        'The UID when the original receipt carries it (printed once registered), else the offline QR text.',
      ),
    documentEntries: z.array(DocumentItem),
    vatRateSums: z.array(VatRateSum),
    paymentTypes: z.record(z.string(), z.number()),
    header: z.string().optional(),
    footer: z.string().optional(),
    exception: z.boolean(),
    electronic: z.boolean(),
    electronicReceipt: z.string().optional().describe('Base64 PNG of the electronic receipt.'),
    documentNumber: z.string().describe('yyyyMM/<sequenceId>'),
    externalId: z.string().optional(),
    invoiceId: z.string().optional(),
    paragonNumber: z.number().int().optional(),
    customer: z
      .object({ id: z.string(), customerIdType: z.enum(['ICO', 'DIC', 'IC_DPH', 'INE']) })
      .optional(),
    internalDocumentId: z.number().int(),
    sendingCount: z.number().int(),
  })
  .meta({ id: 'ResponseDocument' });

export const EkasaStatus = z
  .object({
    warning: z.object({ warningType: z.string(), message: z.string(), detail: z.string() }).optional(),
    error: z
      .object({
        errorType: z.literal('EKASA'),
        errorCode: z.number().int(),
        message: z.string(),
        detail: z.string(),
      })
      .optional(),
  })
  .meta({ id: 'EkasaStatus' });

export const Cash = z
  .object({
    internalDocumentId: z.number().int(),
    sequenceId: z.number().int(),
    merchant: Merchant,
    cashRegisterCode: z.string(),
    amount: z.number().describe('Positive deposit, negative withdrawal.'),
    issueDate: apiDate,
    createDate: apiDate,
    processDate: apiDate.optional(),
    uuid: z.string().optional(),
    pkp: z.string(),
    okp: z.string(),
    exception: z.boolean(),
    electronic: z.boolean(),
    documentNumber: z.string(),
    sendingCount: z.number().int(),
    qrCode: z.string(),
    status: EkasaStatus,
    documentType: z.enum(['VK', 'VY']),
    externalId: z.string().optional(),
  })
  .meta({ id: 'Cash' });

export const DocumentResponse = z
  .object({
    resultCode: z.number().int(),
    document: ResponseDocument,
    printResultCode: z.number().int().optional().describe('Printer code 100–106 when printing failed (507).'),
    partialPrint: PartialPrintInfo.optional().describe(
      '507 after a print that failed part way: what is on paper and where POST /api/document/print goes on.',
    ),
    error: z.string().optional().describe('507: what happened and what to do.'),
    errorMessage: z.string().optional().describe('507: the same text, for clients of other vendors.'),
  })
  .meta({
    id: 'DocumentResponse',
    examples: [
      { resultCode: 0, document: exampleDocument },
      {
        resultCode: 507,
        document: exampleDocument,
        printResultCode: 102,
        error:
          'Document 202611/1 is stored and registered, but printing failed (printer code 102); print it with POST /api/document/print.',
        errorMessage:
          'Document 202611/1 is stored and registered, but printing failed (printer code 102); print it with POST /api/document/print.',
      },
    ],
  });

export const CashResponse = z
  .object({
    resultCode: z.number().int(),
    cash: Cash,
    // ADR 0119: a same-key retry of a cash document whose original is not printed answers 507 with
    // HTTP 200 and the stored `cash` (src/http/error-mapping.ts), as a store retry does.
    printResultCode: z
      .number()
      .int()
      .optional()
      .describe('507 on a same-key retry: the printer code 100–106 when printing was tried and failed.'),
    error: z.string().optional().describe('507: what happened and what to do.'),
    errorMessage: z.string().optional().describe('507: the same text, for clients of other vendors.'),
  })
  .meta({
    id: 'CashResponse',
    description:
      'resultCode 0, or 507 (HTTP 200) when a retry with the same Idempotency-Key finds the cash document stored but its original not printed: print it with POST /api/document/print.',
    examples: [
      { resultCode: 0, cash: exampleCash },
      {
        resultCode: 507,
        cash: exampleCash,
        printResultCode: 105,
        error:
          'Document 202611/2 is stored, but printing its original failed (printer code 105); print it with POST /api/document/print.',
        errorMessage:
          'Document 202611/2 is stored, but printing its original failed (printer code 105); print it with POST /api/document/print.',
      },
    ],
  });

// Compile-time links between the schemas and the core types: a drift fails `tsc`.
type Assert<T extends true> = T;
export type _StoreInputMatches = Assert<
  z.output<typeof StoreDocumentRequest> extends StoreDocumentInput ? true : false
>;
export type _CashInputMatches = Assert<z.output<typeof CashRequest> extends CashInput ? true : false>;
export type _GetInputMatches = Assert<
  z.output<typeof GetDocumentRequest> extends GetDocumentInput ? true : false
>;
export type _DocumentMatches = Assert<
  ApiDocument<MerchantView> extends z.input<typeof ResponseDocument> ? true : false
>;
export type _CashMatches = Assert<ApiCash<MerchantView> extends z.input<typeof Cash> ? true : false>;
