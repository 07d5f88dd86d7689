import type { ApiCash } from '../../documents/api-document.js';
import { toApiCash } from '../../documents/api-document.js';
import type { CashInput } from '../../documents/store-request.js';
import { validateCashRequest } from '../../documents/validate-cash-request.js';
import type { FiscalError } from '../../fiscal-error.js';
import { type MerchantView, merchantView } from '../../merchant/merchant-record.js';
import { CASH_NOT_SENT_REASON, cashDocumentIsSent } from '../../offline/cash-sending.js';
import { readOfflineSettings } from '../../offline/offline-settings.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import type { DocumentDeps } from './document-deps.js';
import { merchantOf, printerError } from './document-receipt.js';
import { idempotentRequest } from './idempotent-request.js';
import { issueDocument, sfsFailure } from './issue-document.js';
import { unprintedOnReplay } from './replay-answer.js';
import { printOptionsOf } from './store-document.js';

/**
 * `POST /api/cash`: a deposit (VK, positive amount) or withdrawal (VY, negative). Shares the
 * monthly numbering with every other document (ADR 0008 §5); printed like any original. Refused
 * with 508 before anything is stored while the last non-electronic document is unprinted.
 */
export class CashOperation {
  constructor(private readonly deps: DocumentDeps) {}

  async execute(
    input: CashInput,
    rawBody: unknown,
    idempotencyKey?: string,
  ): Promise<{ resultCode: 0; cash: ApiCash<MerchantView> }> {
    return this.deps.lock.run('cash', async () => {
      const { idempotency, replay } = idempotentRequest(this.deps.index, 'cash', idempotencyKey, rawBody);
      if (replay) return this.#replay(replay);
      const force = readOfflineSettings(this.deps.index.settings()).forceSendCashDocuments;
      const issued = await issueDocument(this.deps, () => validateCashRequest(input), {
        idempotency,
        // Act 384/2025, by the document's own CreateDate (ADR 0704).
        notSent: (createDate) =>
          cashDocumentIsSent(createDate, force) ? undefined : { reason: CASH_NOT_SENT_REASON },
        printOptions: printOptionsOf(input.printer),
      });
      const merchant = merchantView(
        issued.merchant.recordNo,
        issued.merchant.merchant,
        this.deps.clock.now(),
      );
      const cash = toApiCash(issued.doc, merchant);
      if (issued.printerCode !== undefined) throw cashNotPrinted(issued.doc, issued.printerCode, cash);
      return { resultCode: 0, cash };
    });
  }

  /**
   * ADR 0119: answered as a store replay is — the SFS failure (stuck or set aside), 507 with
   * `cash`, or the cash.
   */
  async #replay(doc: IndexedDocument): Promise<{ resultCode: 0; cash: ApiCash<MerchantView> }> {
    if (doc.sendState === 'stuck' || doc.sendState === 'set-aside') throw sfsFailure(doc);
    const { recordNo, merchant } = await merchantOf(this.deps, doc);
    const view = merchantView(recordNo, merchant, this.deps.clock.now());
    const cash = toApiCash(doc, view);
    const unprinted = unprintedOnReplay(doc, { cash });
    if (unprinted) throw unprinted;
    return { resultCode: 0, cash };
  }
}

/**
 * A cash document that could not be printed: the printer's code (100–106, as the API text says
 * for /api/cash), with the stored `cash` object and its number so the POS can print it with
 * POST /api/document/print.
 */
function cashNotPrinted(doc: IndexedDocument, printerCode: number, cash: ApiCash<MerchantView>): FiscalError {
  return printerError(
    printerCode,
    `Cash document ${doc.document.documentNumber} is stored but printing failed (printer code ${printerCode}); print it with POST /api/document/print.`,
    { documentNumber: doc.document.documentNumber, internalDocumentId: doc.document.documentNo, cash },
  );
}
