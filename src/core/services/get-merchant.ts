import { FiscalError } from '../fiscal-error.js';
import { type MerchantView, merchantView } from '../merchant/merchant-record.js';
import type { Clock } from '../ports/clock.js';
import type { JournalIndex } from '../ports/journal-index.js';
import { NO_MERCHANT } from './merchant-session.js';

/**
 * `POST /api/merchant/get`: the merchant in force (the last merchant record in the CHDÚ).
 *
 * @throws FiscalError 402 MERCHANT_CERTIFICATE_ERROR when none is stored (HTTP 500 ErrorResponse;
 *   402 is the code every fiscal request gets in that state, so a POS sees one cause).
 */
export function getMerchant(deps: { index: JournalIndex; clock: Clock }): MerchantView {
  const current = deps.index.currentMerchant();
  if (!current) throw new FiscalError('MERCHANT_CERTIFICATE_ERROR', NO_MERCHANT);
  return merchantView(current.recordNo, current.merchant, deps.clock.now());
}
