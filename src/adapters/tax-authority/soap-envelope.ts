import type { SfsLocation, SfsLocationRequest, SfsReceiptRequest } from '../../core/sfs/message.js';
import { EKASA_NS } from '../../core/sfs/message.js';
import { escapeAttribute, escapeText } from './xml-dom.js';

/** Namespaces of the SFS SOAP messages (ekasa-protocol.md §1.1, §1.3; official samples). */
export const NS = {
  soap: 'http://www.w3.org/2003/05/soap-envelope',
  wsse: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
  wsu: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ec: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  ekasa: EKASA_NS,
  /** The namespace the spec's Fault example puts `EkasaErrorCode` in (spec §3.7). */
  ekasaV1: 'http://financnasprava.sk/ekasa/schema/v1',
} as const;

/**
 * `name="value"` pairs in alphabetical order of the names, undefined values left out. The
 * official samples list attributes alphabetically; order has no meaning in XML, but writing the
 * same order makes our messages easy to compare with theirs.
 */
function attrs(values: Record<string, string | undefined>): string {
  return Object.keys(values)
    .filter((name) => values[name] !== undefined)
    .sort()
    .map((name) => ` ${name}="${escapeAttribute(values[name]!)}"`)
    .join('');
}

/** The `ekasa:RegisterReceiptRequest` element: Header, ReceiptData (+ Items), ValidationCode (spec §3.3). */
export function receiptRequestElement(request: SfsReceiptRequest): string {
  const { header, data, pkp, okp } = request;
  const { Items, ...dataAttributes } = data;
  const items =
    Items === undefined
      ? ''
      : `<ekasa:Items>${Items.map((item) => `<ekasa:Item${attrs({ ...item })}/>`).join('')}</ekasa:Items>`;
  const receiptData =
    Items === undefined
      ? `<ekasa:ReceiptData${attrs({ ...dataAttributes })}/>`
      : `<ekasa:ReceiptData${attrs({ ...dataAttributes })}>${items}</ekasa:ReceiptData>`;
  return (
    `<ekasa:RegisterReceiptRequest xmlns:ekasa="${NS.ekasa}">` +
    `<ekasa:Header${attrs({ ...header })}/>` +
    receiptData +
    '<ekasa:ValidationCode>' +
    `<ekasa:PKP cipher="RSA2048" digest="SHA256" encoding="base64">${escapeText(pkp)}</ekasa:PKP>` +
    `<ekasa:OKP digest="SHA1" encoding="base16">${escapeText(okp)}</ekasa:OKP>` +
    '</ekasa:ValidationCode>' +
    '</ekasa:RegisterReceiptRequest>'
  );
}

/** The `ekasa:RegisterLocationRequest` element: Header (no Exception) and LocationData (spec §3.5). */
export function locationRequestElement(request: SfsLocationRequest): string {
  const { Dic, CashRegisterCode, CreateDate, location } = request.data;
  return (
    `<ekasa:RegisterLocationRequest xmlns:ekasa="${NS.ekasa}">` +
    `<ekasa:Header${attrs({ ...request.header })}/>` +
    `<ekasa:LocationData${attrs({ Dic, CashRegisterCode, CreateDate })}>` +
    `<ekasa:Location>${locationElement(location)}</ekasa:Location>` +
    '</ekasa:LocationData>' +
    '</ekasa:RegisterLocationRequest>'
  );
}

/** Exactly one of Gps, PhysicalAddress (attributes) or Other (text), spec §3.5.3. */
function locationElement(location: SfsLocation): string {
  switch (location.kind) {
    case 'gps':
      return `<ekasa:Gps${attrs({ AxisX: location.AxisX, AxisY: location.AxisY })}/>`;
    case 'address': {
      const { kind: _kind, ...address } = location;
      return `<ekasa:PhysicalAddress${attrs({ ...address })}/>`;
    }
    case 'other':
      return `<ekasa:Other>${escapeText(location.text)}</ekasa:Other>`;
  }
}
