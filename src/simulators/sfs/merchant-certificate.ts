import type { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import type { CertificateCache } from '../../adapters/tax-authority/certificate-cache.js';
import { type SfsViolation, violation } from '../../core/sfs/ekasa-errors.js';

/**
 * What the SFS reads from a merchant certificate (SFS "Popis identifikačných a autentifikačných
 * údajov" §3.3).
 */
export interface CertificateIdentity {
  /** From organizationIdentifier (2.5.4.97) `VATSK-<DIČ>`. */
  dic: string | undefined;
  /** From OU: the register code. */
  registerCode: string | undefined;
}

/**
 * The certificate format the SFS issues (-12): RSA-2048 (PKP cipher RSA2048), a subject the
 * simulator can read. Returns the identity or the violation.
 */
export function readMerchantCertificate(certificate: X509Certificate): CertificateIdentity | SfsViolation {
  if (certificate.publicKey.asymmetricKeyDetails?.modulusLength !== 2048) {
    return violation(-12, 'the certificate key is not RSA-2048');
  }
  let subject: forge.pki.Certificate['subject'];
  try {
    subject = forge.pki.certificateFromAsn1(forge.asn1.fromDer(certificate.raw.toString('binary'))).subject;
  } catch {
    return violation(-12, 'the certificate cannot be read');
  }
  const field = (type: string) => {
    const value = subject.getField({ type })?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const orgId = field('2.5.4.97');
  return {
    dic: orgId?.startsWith('VATSK-') ? orgId.slice('VATSK-'.length) : undefined,
    registerCode: field('2.5.4.11'),
  };
}

/**
 * -13: the certificate must be issued by the CA the simulator stands in for and be valid at the
 * processing time (a message sent after the PKP certificate expired is signed with the current one,
 * spec §2.4, so the signing certificate is always judged at processing time).
 */
export function checkCertificateValidity(
  certificate: X509Certificate,
  ca: X509Certificate,
  at: Date,
  certificates?: CertificateCache,
): SfsViolation | undefined {
  const issued = () => certificate.checkIssued(ca) && certificate.verify(ca.publicKey);
  // Whether the CA issued it does not change; the time check below is made every time.
  if (!(certificates ? certificates.fact(certificate, 'issued-by-ca', issued) : issued())) {
    return violation(-13, 'the certificate is not issued by the eKasa CA');
  }
  if (certificate.ca) return violation(-13, 'a CA certificate cannot sign messages');
  const from = Date.parse(certificate.validFrom);
  const to = Date.parse(certificate.validTo);
  if (!(at.getTime() >= from && at.getTime() <= to))
    return violation(-13, 'the certificate is not valid at processing time');
  return undefined;
}
