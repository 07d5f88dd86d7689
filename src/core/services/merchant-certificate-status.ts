import { FiscalError } from '../fiscal-error.js';
import { type CertificateStatus, certificateStatus } from '../merchant/certificate-status.js';
import { recordCertificate } from '../merchant/merchant-record.js';
import type { Clock } from '../ports/clock.js';
import type { JournalIndex } from '../ports/journal-index.js';
import type { MerchantSession } from './merchant-session.js';
import { NO_MERCHANT } from './merchant-session.js';

export interface MerchantCertificateReport extends CertificateStatus {
  dic: string;
  cashRegisterCode: string;
  demo: boolean;
  /** False when the register cannot sign now (expired, keystore unreadable). */
  usable: boolean;
  /** Why not, and what to do, when `usable` is false. */
  problem?: string;
  problemCode?: number;
}

/**
 * `GET /api/merchant/status`: the certificate of the merchant in force at the injected clock's
 * now — OK, EXPIRES_SOON (the last 30 days, showWarning) or EXPIRED.
 *
 * @throws FiscalError 402 MERCHANT_CERTIFICATE_ERROR when no merchant is stored.
 */
export function merchantCertificateStatus(deps: {
  index: JournalIndex;
  session: MerchantSession;
  clock: Clock;
}): MerchantCertificateReport {
  const current = deps.index.currentMerchant();
  if (!current) throw new FiscalError('MERCHANT_CERTIFICATE_ERROR', NO_MERCHANT);
  const refusal = deps.session.refusal();
  return {
    ...certificateStatus(recordCertificate(current.merchant), deps.clock.now()),
    dic: current.merchant.dic,
    cashRegisterCode: current.merchant.organizationUnit.cashRegisterCode,
    demo: current.merchant.demo,
    usable: refusal === undefined,
    ...(refusal ? { problem: refusal.message, problemCode: refusal.resultCode } : {}),
  };
}
