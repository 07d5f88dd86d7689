import type { ApiCash } from '../../documents/api-document.js';
import { toApiCash } from '../../documents/api-document.js';
import type { CashInput } from '../../documents/store-request.js';
import { validateCashRequest } from '../../documents/validate-cash-request.js';
import type { FiscalError } from '../../fiscal-error.js';
import { type MerchantView, merchantView } from '../../merchant/merchant-record.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import { type DocumentDeps, sendCashDocuments } from './document-deps.js';
import { merchantOf, printerError } from './document-receipt.js';
import { idempotentRequest } from './idempotent-request.js';
import { issueDocument, sfsFailure } from './issue-document.js';
import { unprintedOnReplay } from './replay-answer.js';
import { printOptionsOf } from './store-document.js';

/** Why a cash document is not sent when the setting is off. */
export const CASH_NOT_SENT_REASON =
  'Act 384/2025: from 1 Jan 2026 deposits (VK) and withdrawals (VY) are not sent to the SFS (setting sendCashDocuments = false).';

/**
 * `POST /api/cash`: a deposit (VK, positive amount) or withdrawal (VY, negative). Shares the
 * monthly numbering with every other document (DECISIONS 5); printed like any original. Refused
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
      const send = sendCashDocuments(this.deps.index);
      const issued = await issueDocument(this.deps, () => validateCashRequest(input), {
        idempotency,
        notSent: send ? undefined : { reason: CASH_NOT_SENT_REASON },
        printOptions: printOptionsOf(input.printer),
      });
      const merchant = merchantView(
        issued.merchant.recordNo,
        issued.merchant.merchant,
        this.deps.clock.now(),
      );
      const cash = toApiCash(issued.doc, merchant, { sentToSfs: send });
      if (issued.printerCode !== undefined) throw cashNotPrinted(issued.doc, issued.printerCode, cash);
      return { resultCode: 0, cash };
    });
  }

  /** ADR 0119: answered as a store replay is — the SFS failure, 507 with `cash`, or the cash. */
  async #replay(doc: IndexedDocument): Promise<{ resultCode: 0; cash: ApiCash<MerchantView> }> {
    if (doc.sendState === 'stuck') throw sfsFailure(doc);
    const { recordNo, merchant } = await merchantOf(this.deps, doc);
    const view = merchantView(recordNo, merchant, this.deps.clock.now());
    const cash = toApiCash(doc, view, { sentToSfs: doc.sendState !== 'not-sent' });
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
