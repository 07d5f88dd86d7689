import { FiscalError } from '../fiscal-error.js';
import { UDAJE_NS, type XmlNode } from './xml-tree.js';
import { checkElement, childText, enumeration, length, type SequenceType } from './xsd-sequence.js';

/**
 * The merchant's authentication data (`AuthData`, XSD `autentifikacneUdaje_v2.0_20190117.xsd`,
 * SFS "Popis identifikačných a autentifikačných údajov" v2.1, authentication data XSD v2.0): a PKCS#12 keystore in Base64 and the alias of the
 * entry holding the merchant's key and certificate.
 */
export interface AuthData {
  keyStoreType: 'PKCS12';
  /** The keystore bytes (`Data`, xs:base64Binary, decoded). */
  keyStore: Uint8Array;
  certificateAlias: string;
}

/** `KeyStoreCType`, the content of the root element `AuthData`. */
export const AUTH_DATA_TYPE: SequenceType = {
  sequence: [
    { name: 'KeyStoreType', type: enumeration(['PKCS12']) },
    { name: 'Data', type: base64Binary },
    { name: 'CertificateAlias', type: length(1, 50) },
  ],
};

function parseError(field: string, rule: string): FiscalError {
  return new FiscalError('MERCHANT_PARSE_ERROR', `authentication data ${field}: ${rule}`, { field });
}

/**
 * Checks a parsed authentication data file against the XSD and decodes the keystore.
 *
 * @throws FiscalError 404 MERCHANT_PARSE_ERROR naming the element for any broken rule (wrong root,
 *   missing element, Data that is not Base64). Whether the keystore inside opens is decided later
 *   (403).
 */
export function authDataFromXml(root: XmlNode): AuthData {
  if (root.namespace !== UDAJE_NS || root.localName !== 'AuthData') {
    throw parseError(
      'AuthData',
      `the root element must be AuthData in namespace ${UDAJE_NS}, found ${root.localName}`,
    );
  }
  const violation = checkElement(root, 'AuthData', AUTH_DATA_TYPE, UDAJE_NS);
  if (violation) throw parseError(violation.path, violation.rule);
  const keyStore = decodeBase64(childText(root, 'Data')!);
  if (keyStore.length === 0) throw parseError('AuthData/Data', 'the keystore is empty');
  return {
    keyStoreType: 'PKCS12',
    keyStore,
    certificateAlias: childText(root, 'CertificateAlias')!,
  };
}

/**
 * The lexical space of xs:base64Binary: groups of four Base64 characters, whitespace allowed
 * between them, `=` padding only at the end, unused bits of the last character zero.
 */
export function base64Binary(value: string): string | undefined {
  const text = value.replace(/[\t\n\r ]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text))
    return 'must be Base64 (characters A-Z a-z 0-9 + / and = padding only)';
  if (text.length % 4 !== 0)
    return `must be Base64 in groups of 4 characters (length ${text.length} is not, truncated?)`;
  if (text.endsWith('==')) {
    if (!/[AQgw]==$/.test(text)) return 'must be canonical Base64 (bad last character before ==)';
  } else if (text.endsWith('=')) {
    if (!/[AEIMQUYcgkosw048]=$/.test(text)) return 'must be canonical Base64 (bad last character before =)';
  }
  return undefined;
}

/** Decodes xs:base64Binary already checked by {@link base64Binary} (web-standard `atob`). */
function decodeBase64(value: string): Uint8Array {
  const binary = atob(value.replace(/[\t\n\r ]/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
