import { describe, expect, it } from 'vitest';
import { FiscalError } from '../../fiscal-error.js';
import type { UsableMerchant } from '../merchant-session.js';
import { nopCredentials } from './nop-credentials.js';

/** ADR 0906: NOP knows the register by its certificate; it must be the stored merchant's register. */
function merchant(subject: string | undefined): { currentSigner(): UsableMerchant } {
  const usable = {
    recordNo: 1,
    merchant: {
      dic: '2021000003',
      organizationUnit: { cashRegisterCode: '88820210000030001' },
      ...(subject === undefined ? {} : { certificateSubject: subject }),
    },
    signer: {},
  } as unknown as UsableMerchant;
  return { currentSigner: () => usable };
}

function refusal(subject: string | undefined): FiscalError {
  try {
    nopCredentials(merchant(subject));
  } catch (e) {
    if (e instanceof FiscalError) return e;
    throw e;
  }
  throw new Error('nopCredentials accepted the certificate');
}

describe('nopCredentials', () => {
  it('takes the identity of a certificate of the stored register', () => {
    expect(
      nopCredentials(
        merchant('CN=VATSK-2021000003 POKLADNICA 88820210000030001, OU=88820210000030001, C=SK'),
      ),
    ).toMatchObject({ dic: '2021000003', cashRegisterCode: '88820210000030001' });
  });

  it('802 naming both registers when the certificate names another register of the same DIČ', () => {
    const e = refusal('CN=VATSK-2021000003 POKLADNICA 88820210000030002, OU=88820210000030002, C=SK');
    expect(e.resultCode).toBe(802);
    expect(e.message).toContain('POKLADNICA 88820210000030002');
    expect(e.message).toContain('register 88820210000030001');
    expect(e.details).toMatchObject({ field: 'certificateSubject' });
  });

  it('802 when the certificate names another DIČ, or no register at all', () => {
    expect(refusal('CN=VATSK-2021000014 POKLADNICA 88820210000030001').resultCode).toBe(802);
    expect(refusal('CN=shop.example').resultCode).toBe(802);
    expect(refusal(undefined).message).toContain('(none)');
  });
});
