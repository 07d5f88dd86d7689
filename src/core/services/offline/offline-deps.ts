import { FiscalError } from '../../fiscal-error.js';
import { type MerchantView, merchantView } from '../../merchant/merchant-record.js';
import type { SendClaims } from '../../offline/send-claims.js';
import type { Scheduler } from '../../ports/scheduler.js';
import type { MessageSigner } from '../../ports/tax-authority.js';
import type { DocumentDeps } from '../documents/document-deps.js';

/** What the offline use cases (send now, report, repair, location) need; wired once in compose. */
export interface OfflineDeps extends DocumentDeps {
  claims: SendClaims;
  /** The key a resend of a message signed under a merchant record uses (ADR 0703). */
  signers: { forMerchantRecord(recordNo: number): Promise<MessageSigner> };
  scheduler: Scheduler;
}

/** The API merchant view of the merchant record an item was signed under. */
export function merchantViewOf(deps: Pick<DocumentDeps, 'index' | 'clock'>, recordNo: number): MerchantView {
  const record = deps.index.merchantByRecordNo(recordNo);
  if (!record) {
    throw new FiscalError(
      'CHDU_WRITE_ERROR',
      `The merchant record ${recordNo} is not in the index; reindex the CHDÚ.`,
    );
  }
  return merchantView(recordNo, record, deps.clock.now());
}
