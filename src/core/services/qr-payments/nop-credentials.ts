import { FiscalError } from '../../fiscal-error.js';
import type { NotifierCredentials } from '../../ports/payment-notifier.js';
import { identityFromSubject } from '../../qr-payments/nop-identity.js';
import type { UsableMerchant } from '../merchant-session.js';

/**
 * The register's NOP credentials: the merchant's eKasa certificate and key, and the identity its
 * subject names — which must be the stored merchant's DIČ and register code (ADR 0906), else NOP
 * would answer for another register (or refuse).
 *
 * @throws FiscalError 402/405 from the merchant session (no usable certificate), 802 NOP_REFUSED
 *   when the subject names no register or another one.
 */
export function nopCredentials(merchant: { currentSigner(): UsableMerchant }): NotifierCredentials {
  const usable = merchant.currentSigner();
  const m = usable.merchant;
  const subject = m.certificateSubject ?? '';
  const identity = identityFromSubject(subject);
  if (!identity) {
    throw new FiscalError(
      'NOP_REFUSED',
      `The merchant certificate subject (${subject || 'none'}) names no eKasa register (CN=VATSK-<DIČ> POKLADNICA <code>); NOP would refuse it.`,
    );
  }
  const expected = { dic: m.dic, cashRegisterCode: m.organizationUnit.cashRegisterCode };
  if (identity.dic !== expected.dic || identity.cashRegisterCode !== expected.cashRegisterCode) {
    throw new FiscalError(
      'NOP_REFUSED',
      `The merchant certificate names VATSK-${identity.dic} POKLADNICA ${identity.cashRegisterCode}, but the stored merchant is DIČ ${expected.dic}, register ${expected.cashRegisterCode}: store matching authentication data.`,
      { field: 'certificateSubject' },
    );
  }
  return { ...identity, signer: usable.signer };
}
