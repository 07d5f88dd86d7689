import { FiscalError } from '../fiscal-error.js';
import { formatSfsDateTime } from '../time.js';
import { attributeValues, type CertificateInfo, OID } from './certificate.js';
import { type IdentityData, wrongIdentity } from './identity-data.js';

/**
 * The rules that tie a keystore entry to the identification data (SFS errors -101/-102, SFS spec
 * §2.6, checked locally before anything is sent; the certificate profile of
 * SFS "Popis identifikačných a autentifikačných údajov" §3.3) and to the clock. Order, ADR 0008 §8:
 * profile (402) → identity match (400) → validity (405), so an expired certificate with matching
 * data gives 405 and a mismatch gives 400.
 */

/** 402 MERCHANT_CERTIFICATE_ERROR with the reason. */
export function certificateError(reason: string, details?: Record<string, unknown>): FiscalError {
  return new FiscalError('MERCHANT_CERTIFICATE_ERROR', `merchant certificate: ${reason}`, details);
}

/**
 * The eKasa certificate profile and the key pairing.
 *
 * @throws FiscalError 402 when the private key does not belong to the certificate, the key is not
 *   RSA 2048 (the PKP is `cipher="RSA2048"`, 256 bytes, spec §2.1), or the subject lacks the
 *   OU / organizationIdentifier an eKasa certificate carries.
 */
export function checkCertificateProfile(cert: CertificateInfo, keyMatchesCertificate: boolean): void {
  if (!keyMatchesCertificate) {
    throw certificateError('the private key in the keystore does not belong to the certificate');
  }
  if (cert.publicKey.algorithm !== 'rsa' || cert.publicKey.bits !== 2048) {
    const bits = cert.publicKey.bits ? ` ${cert.publicKey.bits}` : '';
    throw certificateError(
      `the key must be RSA 2048 (PKP cipher RSA2048), found ${cert.publicKey.algorithm}${bits}`,
    );
  }
  if (attributeValues(cert.subject, OID.organizationalUnitName).length !== 1) {
    throw certificateError(
      'the subject must hold exactly one OU (the cash register code); not an eKasa certificate',
    );
  }
  if (attributeValues(cert.subject, OID.organizationIdentifier).length !== 1) {
    throw certificateError(
      'the subject must hold exactly one organizationIdentifier (VATSK-<DIČ>); not an eKasa certificate',
    );
  }
}

/**
 * The certificate must name this merchant and this register (SFS -101: DIČ ≠ certificate, -102:
 * register code ≠ certificate).
 *
 * @throws FiscalError 400 MERCHANT_WRONG_FORMAT naming `IdentityData/Dic` or
 *   `IdentityData/OrganizationUnit/CashRegisterCode`.
 */
export function checkCertificateMatchesIdentity(identity: IdentityData, cert: CertificateInfo): void {
  const orgId = attributeValues(cert.subject, OID.organizationIdentifier)[0];
  if (orgId !== `VATSK-${identity.dic}`) {
    throw wrongIdentity(
      'IdentityData/Dic',
      `${identity.dic} does not match the certificate (organizationIdentifier ${orgId ?? 'missing'})`,
    );
  }
  const ou = attributeValues(cert.subject, OID.organizationalUnitName)[0];
  if (ou !== identity.organizationUnit.cashRegisterCode) {
    throw wrongIdentity(
      'IdentityData/OrganizationUnit/CashRegisterCode',
      `${identity.organizationUnit.cashRegisterCode} does not match the certificate (OU ${ou ?? 'missing'})`,
    );
  }
}

/**
 * X.509 validity, both ends inclusive (RFC 5280 §4.1.2.5).
 *
 * @throws FiscalError 405 MERCHANT_CERTIFICATE_EXPIRED when `now` is after notAfter or before
 *   notBefore (the text says which).
 */
export function checkCertificateValidity(cert: { notBefore: Date; notAfter: Date }, now: Date): void {
  const details = {
    notBefore: formatSfsDateTime(cert.notBefore),
    notAfter: formatSfsDateTime(cert.notAfter),
  };
  if (now.getTime() > cert.notAfter.getTime()) {
    throw new FiscalError(
      'MERCHANT_CERTIFICATE_EXPIRED',
      `merchant certificate expired on ${details.notAfter}; download new authentication data from the eKasa zone of the Financial Administration portal and store them`,
      details,
    );
  }
  if (now.getTime() < cert.notBefore.getTime()) {
    throw new FiscalError(
      'MERCHANT_CERTIFICATE_EXPIRED',
      `merchant certificate is not valid before ${details.notBefore}; check the register clock`,
      details,
    );
  }
}
