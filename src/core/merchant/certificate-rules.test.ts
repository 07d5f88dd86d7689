import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import type { CertificateInfo, DnAttribute } from './certificate.js';
import {
  checkCertificateMatchesIdentity,
  checkCertificateProfile,
  checkCertificateValidity,
} from './certificate-rules.js';
import type { IdentityData } from './identity-data.js';

const identity: IdentityData = {
  dic: '1234567890',
  corporateBodyFullName: 'Firma',
  organizationUnit: { cashRegisterCode: '88812345678900001', cashRegisterType: 'PORTABLE' },
  physicalAddress: { country: 'SK', municipality: 'BA', streetName: 'Hlavná' },
};

function cert(subject: DnAttribute[], extra: Partial<CertificateInfo> = {}): CertificateInfo {
  return {
    der: new Uint8Array(),
    sha256: '0'.repeat(64),
    serialNumber: '01',
    subject,
    issuer: [],
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
    publicKey: { algorithm: 'rsa', bits: 2048 },
    ...extra,
  };
}
const OU = (v: string) => ({ oid: '2.5.4.11', name: 'OU', value: v });
const ORG = (v: string) => ({ oid: '2.5.4.97', name: 'organizationIdentifier', value: v });

function failure(fn: () => void): { code: string; field?: unknown } {
  try {
    fn();
    return { code: 'none' };
  } catch (e) {
    if (!(e instanceof FiscalError)) throw e;
    return e.details?.field === undefined
      ? { code: e.resultName }
      : { code: e.resultName, field: e.details.field };
  }
}

describe('certificate rules', () => {
  const good = cert([OU('88812345678900001'), ORG('VATSK-1234567890')]);

  it('accepts a matching eKasa certificate inside its validity (both ends inclusive)', () => {
    expect(failure(() => checkCertificateProfile(good, true))).toEqual({ code: 'none' });
    expect(failure(() => checkCertificateMatchesIdentity(identity, good))).toEqual({ code: 'none' });
    expect(failure(() => checkCertificateValidity(good, good.notBefore))).toEqual({ code: 'none' });
    expect(failure(() => checkCertificateValidity(good, good.notAfter))).toEqual({ code: 'none' });
  });

  it('402 for a key of another certificate, a non-RSA-2048 key or a subject without OU / organizationIdentifier', () => {
    expect(failure(() => checkCertificateProfile(good, false)).code).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect(
      failure(() =>
        checkCertificateProfile(cert(good.subject, { publicKey: { algorithm: 'rsa', bits: 4096 } }), true),
      ).code,
    ).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect(
      failure(() =>
        checkCertificateProfile(cert(good.subject, { publicKey: { algorithm: 'ec', bits: 256 } }), true),
      ).code,
    ).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect(failure(() => checkCertificateProfile(cert([ORG('VATSK-1234567890')]), true)).code).toBe(
      'MERCHANT_CERTIFICATE_ERROR',
    );
    expect(failure(() => checkCertificateProfile(cert([OU('88812345678900001')]), true)).code).toBe(
      'MERCHANT_CERTIFICATE_ERROR',
    );
  });

  it('400 naming Dic or CashRegisterCode when the certificate is of another merchant or register (ADR 0008 §8)', () => {
    expect(
      failure(() =>
        checkCertificateMatchesIdentity(identity, cert([OU('88812345678900001'), ORG('VATSK-0987654321')])),
      ),
    ).toEqual({
      code: 'MERCHANT_WRONG_FORMAT',
      field: 'IdentityData/Dic',
    });
    expect(
      failure(() =>
        checkCertificateMatchesIdentity(identity, cert([OU('88812345678900002'), ORG('VATSK-1234567890')])),
      ),
    ).toEqual({
      code: 'MERCHANT_WRONG_FORMAT',
      field: 'IdentityData/OrganizationUnit/CashRegisterCode',
    });
  });

  it('405 after notAfter and before notBefore', () => {
    expect(failure(() => checkCertificateValidity(good, new Date(good.notAfter.getTime() + 1000))).code).toBe(
      'MERCHANT_CERTIFICATE_EXPIRED',
    );
    expect(
      failure(() => checkCertificateValidity(good, new Date(good.notBefore.getTime() - 1000))).code,
    ).toBe('MERCHANT_CERTIFICATE_EXPIRED');
  });
});
