import { createHash, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { attributeName, type CertificateInfo, type DnAttribute } from '../../core/merchant/certificate.js';
import { certificateError } from '../../core/merchant/certificate-rules.js';

type Asn1 = forge.asn1.Asn1;
const { asn1 } = forge;

/**
 * Decodes a certificate (DER) into the plain {@link CertificateInfo} the merchant rules use. The
 * names are read from the ASN.1 so every attribute keeps its OID and its string type is decoded
 * properly (the I.CA issuer name is a UTF8String with Czech letters).
 *
 * @throws FiscalError 402 MERCHANT_CERTIFICATE_ERROR when the bytes are not a readable certificate.
 */
export function certificateInfo(der: Uint8Array): CertificateInfo {
  let x509: X509Certificate;
  let tbs: Asn1[];
  try {
    x509 = new X509Certificate(der);
    const cert = asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary')));
    tbs = children(children(cert)[0]);
  } catch {
    throw certificateError('the certificate in the keystore cannot be read');
  }
  // TBSCertificate: [0] version (optional), serialNumber, signature, issuer, validity, subject, ...
  const offset = tbs[0]?.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const issuer = tbs[offset + 2];
  const validity = children(tbs[offset + 3]);
  const subject = tbs[offset + 4];
  const key = x509.publicKey;
  const bits = key.asymmetricKeyDetails?.modulusLength;
  return {
    der: new Uint8Array(der),
    sha256: createHash('sha256').update(der).digest('hex'),
    serialNumber: x509.serialNumber.toUpperCase(),
    subject: readName(subject),
    issuer: readName(issuer),
    notBefore: readTime(validity[0]),
    notAfter: readTime(validity[1]),
    publicKey: { algorithm: key.asymmetricKeyType ?? 'unknown', ...(bits === undefined ? {} : { bits }) },
  };
}

function readName(name: Asn1 | undefined): DnAttribute[] {
  const out: DnAttribute[] = [];
  for (const rdn of children(name)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value || typeof type.value !== 'string') continue;
      const oid = asn1.derToOid(type.value);
      out.push({ oid, name: attributeName(oid), value: decodeString(value) });
    }
  }
  return out;
}

function decodeString(node: Asn1): string {
  const raw = typeof node.value === 'string' ? node.value : '';
  switch (node.type) {
    case asn1.Type.UTF8:
      return forge.util.decodeUtf8(raw);
    case asn1.Type.BMPSTRING:
      return raw; // forge's decoder already turns BMPString bytes into text
    case 28 as forge.asn1.Type: {
      // UniversalString: UCS-4 big endian.
      let s = '';
      for (let i = 0; i + 3 < raw.length; i += 4) {
        s += String.fromCodePoint(
          ((raw.charCodeAt(i) << 24) |
            (raw.charCodeAt(i + 1) << 16) |
            (raw.charCodeAt(i + 2) << 8) |
            raw.charCodeAt(i + 3)) >>>
            0,
        );
      }
      return s;
    }
    default:
      // PrintableString, IA5String, TeletexString (read as Latin-1).
      return raw;
  }
}

function readTime(node: Asn1 | undefined): Date {
  if (!node || typeof node.value !== 'string')
    throw certificateError('the certificate validity cannot be read');
  return node.type === asn1.Type.UTCTIME
    ? asn1.utcTimeToDate(node.value)
    : asn1.generalizedTimeToDate(node.value);
}

function children(node: Asn1 | undefined): Asn1[] {
  if (!node || !Array.isArray(node.value)) throw certificateError('the certificate structure cannot be read');
  return node.value;
}
