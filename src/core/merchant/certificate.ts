/**
 * An X.509 certificate as the merchant rules see it: decoded once by an adapter, plain data here.
 * eKasa merchant certificate profile (SFS "Popis identifikačných a autentifikačných údajov" v2.1, authentication data XSD v2.0): RSA 2048,
 * subject `CN=VATSK-<DIČ> POKLADNICA <register code>, OU=<register code>,
 * organizationIdentifier=VATSK-<DIČ>, C=SK`.
 */
export interface CertificateInfo {
  /** The certificate, DER. */
  der: Uint8Array;
  /** SHA-256 of the DER, lower-case hex. */
  sha256: string;
  /** Serial number, upper-case hex as written in the certificate. */
  serialNumber: string;
  subject: DnAttribute[];
  issuer: DnAttribute[];
  notBefore: Date;
  notAfter: Date;
  /** Public key algorithm (`rsa`, `ec`, ...) and size in bits when known. */
  publicKey: { algorithm: string; bits?: number };
}

/** One attribute of a distinguished name, in certificate order. */
export interface DnAttribute {
  /** Dotted OID, e.g. `2.5.4.97`. */
  oid: string;
  /** Short name (`CN`, `OU`, `organizationIdentifier`, ...) or the OID when unknown. */
  name: string;
  value: string;
}

export const OID = {
  commonName: '2.5.4.3',
  countryName: '2.5.4.6',
  organizationName: '2.5.4.10',
  organizationalUnitName: '2.5.4.11',
  organizationIdentifier: '2.5.4.97',
} as const;

const SHORT_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.42': 'GN',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

/** The short name of an attribute type OID, or the OID itself. */
export function attributeName(oid: string): string {
  return SHORT_NAMES[oid] ?? oid;
}

/** All values of attribute `oid` in a name. */
export function attributeValues(dn: readonly DnAttribute[], oid: string): string[] {
  return dn.filter((a) => a.oid === oid).map((a) => a.value);
}

/** A readable one-line name in certificate order: `CN=…, OU=…, organizationIdentifier=…, C=SK`. */
export function formatDn(dn: readonly DnAttribute[]): string {
  return dn.map((a) => `${a.name}=${a.value.replace(/([,+\\])/g, '\\$1')}`).join(', ');
}

/** What the register keeps about a certificate in the CHDÚ record, enough for its status. */
export interface CertificateSummary {
  /** One-line subject, {@link formatDn}. */
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
}

export function summarizeCertificate(cert: CertificateInfo): CertificateSummary {
  return {
    subject: formatDn(cert.subject),
    issuer: formatDn(cert.issuer),
    serialNumber: cert.serialNumber,
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
  };
}
