import type { ApiDocument } from '../../documents/api-document.js';
import { toApiDocument } from '../../documents/api-document.js';
import { type ReferencedSaleDate, referenceQuery } from '../../documents/old-rate-references.js';
import type { StoreDocumentInput, ValidatedStoreRequest } from '../../documents/store-request.js';
import { validateStoreRequest } from '../../documents/validate-store-request.js';
import { VAT_RATES } from '../../documents/vat-rates.js';
import { FiscalError } from '../../fiscal-error.js';
import { type MerchantView, merchantView } from '../../merchant/merchant-record.js';
import type { DocumentIndex } from '../../ports/document-index.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import type { PartialPrintInfo, PrintOptions } from '../../ports/receipt-printer.js';
import { readStoredSetting } from '../../settings/stored-settings.js';
import { parseSfsDateTime } from '../../time.js';
import type { DocumentDeps } from './document-deps.js';
import { electronicReceipt, merchantOf } from './document-receipt.js';
import { idempotentRequest } from './idempotent-request.js';
import { issueDocument, sfsFailure } from './issue-document.js';
import { unprintedOnReplay } from './replay-answer.js';

export interface StoreDocumentResult {
  resultCode: 0;
  document: ApiDocument<MerchantView>;
}

/**
 * `POST /api/document/store`: issues a PD, UF or ND (capability 6). With an `Idempotency-Key`, a retry
 * with the same body answers the stored document again — nothing is written, sent or printed
 * twice, also after a restart; the same key with another body is refused (ADR 0008 §7).
 */
export class StoreDocument {
  constructor(private readonly deps: DocumentDeps) {}

  async execute(
    input: StoreDocumentInput,
    rawBody: unknown,
    idempotencyKey?: string,
  ): Promise<StoreDocumentResult> {
    return this.deps.lock.run('document/store', async () => {
      const { idempotency, replay: earlier } = idempotentRequest(
        this.deps.index,
        'document/store',
        idempotencyKey,
        rawBody,
      );
      if (earlier) return replay(this.deps, earlier);
      const cashPaymentNames = readStoredSetting(this.deps.index.settings(), 'cashPaymentNames');
      const referencedSaleDate = saleDateIn(this.deps.index);
      const issued = await issueDocument(
        this.deps,
        (ctx) =>
          withDefaultTexts(
            withQrTender(
              this.deps,
              input,
              validateStoreRequest(input, { ...ctx, cashPaymentNames, referencedSaleDate }),
            ),
            this.deps.receiptTexts?.(),
          ),
        { idempotency, printOptions: printOptionsOf(input.printer) },
      );
      const merchant = merchantView(
        issued.merchant.recordNo,
        issued.merchant.merchant,
        this.deps.clock.now(),
      );
      const document = toApiDocument(issued.doc, merchant, { electronicReceipt: issued.electronicReceipt });
      return withPrintResult(document, issued.printerCode, issued.partialPrint);
    });
  }
}

/**
 * ADR 0430: when this register's document a `referenceDocumentId` names was issued (its SFS
 * IssueDate) — one indexed look-up by UID, OKP or document number, asked only for items at an old
 * rate. Validation runs once the index is at the CHDÚ's head (issueDocument), so it sees every
 * document.
 */
function saleDateIn(index: Pick<DocumentIndex, 'findDocument'>): ReferencedSaleDate {
  return (reference) => {
    const query = referenceQuery(reference);
    const doc = query === undefined ? undefined : index.findDocument(query);
    if (doc === undefined) return undefined;
    // A document of this register that itself carries an old rate is a refund or correction of an
    // older supply: correcting it again takes that supply's rate, whenever it was issued.
    if ((doc.document.sfs.Items ?? []).some((item) => OLD_SFS_RATES.has(item.VatRate))) return undefined;
    return parseSfsDateTime(doc.document.sfs.IssueDate);
  };
}

/** The pre-2025 rates as an SFS item writes them (ADR 0430). */
const OLD_SFS_RATES: ReadonlySet<string> = new Set(VAT_RATES.filter((r) => r.legacy).map((r) => r.sfs));

/** ADR 0907: the one hook of the store path — QR payments must be PAID, exact and unused. */
function withQrTender(
  deps: DocumentDeps,
  input: StoreDocumentInput,
  request: ValidatedStoreRequest,
): ValidatedStoreRequest {
  if (deps.qrTender) return deps.qrTender(input, request);
  if (input.qrPayments && input.qrPayments.length > 0) {
    throw new FiscalError('QR_PAYMENTS_OFF', 'qrPayments: QR payments are not available on this register.', {
      field: 'qrPayments',
    });
  }
  return request;
}

/**
 * Success, or 507 DOCUMENT_NOT_PRINTED carrying the document and the printer code (HTTP 200 on
 * this route, as the API text says; src/http/error-mapping.ts).
 */
function withPrintResult(
  document: ApiDocument<MerchantView>,
  printerCode: number | undefined,
  partialPrint?: PartialPrintInfo,
): StoreDocumentResult {
  if (printerCode === undefined) return { resultCode: 0, document };
  throw new FiscalError(
    'DOCUMENT_NOT_PRINTED',
    `Document ${document.documentNumber} is stored and registered, but printing failed (printer code ${printerCode}); print it with POST /api/document/print.`,
    { document, printResultCode: printerCode, ...(partialPrint === undefined ? {} : { partialPrint }) },
  );
}

/** The configured header and footer where the request gave none (settings, capability 12). */
function withDefaultTexts(
  request: ValidatedStoreRequest,
  texts: { header: string | null; footer: string | null } | undefined,
): ValidatedStoreRequest {
  const out = { ...request };
  if (out.header === undefined && texts?.header) out.header = texts.header;
  if (out.footer === undefined && texts?.footer) out.footer = texts.footer;
  return out;
}

/** The request's Printer object as print pacing (API text: windowSize, printDelay). */
export function printOptionsOf(printer: unknown): PrintOptions | undefined {
  if (printer === null || typeof printer !== 'object') return undefined;
  const { windowSize, printDelay } = printer as { windowSize?: unknown; printDelay?: unknown };
  const options: PrintOptions = {};
  if (typeof windowSize === 'number' && windowSize > 0) options.windowSize = windowSize;
  if (typeof printDelay === 'number' && printDelay > 0) options.printDelay = printDelay;
  return Object.keys(options).length === 0 ? undefined : options;
}

/**
 * The stored answer of an earlier request with the same key: the document as it stands now.
 * A rejected document — stuck or set aside — answers its SFS error again; an unprinted one 507
 * (ADR 0119).
 */
async function replay(deps: DocumentDeps, doc: IndexedDocument): Promise<StoreDocumentResult> {
  const { recordNo, merchant } = await merchantOf(deps, doc);
  if (doc.sendState === 'stuck' || doc.sendState === 'set-aside') throw sfsFailure(doc);
  const png = doc.printState === 'electronic' ? electronicReceipt(deps, doc, merchant) : undefined;
  const document = toApiDocument(doc, merchantView(recordNo, merchant, deps.clock.now()), {
    electronicReceipt: png,
  });
  const unprinted = unprintedOnReplay(doc, { document });
  if (unprinted) throw unprinted;
  return { resultCode: 0, document };
}
