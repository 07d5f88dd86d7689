import type { SfsLocation, SfsLocationRequest, SfsReceiptRequest } from '../../core/sfs/message.js';
import { EKASA_NS } from '../../core/sfs/message.js';
import { escapeAttribute, escapeText } from './xml-dom.js';

/** Namespaces of the SFS SOAP messages (SFS spec §1.5.2, §3.1; the SFS's signed sample requests). */
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
 * How the builders below write: as the message text, or as that text's exclusive C14N form (what
 * its signature digests, ADR 1106) — the same elements, attributes and values either way. C14N
 * writes attributes sorted by name (these are all unqualified, ASCII names), empty elements with
 * an end tag, and its own escapes (XML-C14N §2.3; XML-EXC-C14N). The namespace declaration is the
 * root's only one and every element uses its prefix, so it is rendered on the root alone.
 */
interface Style {
  attribute(value: string): string;
  text(value: string): string;
  empty(name: string, attributes: string): string;
}

const TEXT: Style = {
  attribute: escapeAttribute,
  text: escapeText,
  empty: (name, attributes) => `<${name}${attributes}/>`,
};

const CANONICAL: Style = {
  attribute: (value) =>
    value
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/"/g, '&quot;')
      .replace(/\t/g, '&#x9;')
      .replace(/\n/g, '&#xA;')
      .replace(/\r/g, '&#xD;'),
  text: (value) =>
    value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;'),
  empty: (name, attributes) => `<${name}${attributes}></${name}>`,
};

/**
 * `name="value"` pairs in alphabetical order of the names, undefined values left out. The
 * official samples list attributes alphabetically; order has no meaning in XML, but writing the
 * same order makes our messages easy to compare with theirs (and it is C14N's order).
 */
function attrs(values: Record<string, string | undefined>, style: Style): string {
  return Object.keys(values)
    .filter((name) => values[name] !== undefined)
    .sort()
    .map((name) => ` ${name}="${style.attribute(values[name]!)}"`)
    .join('');
}

/** The `ekasa:RegisterReceiptRequest` element: Header, ReceiptData (+ Items), ValidationCode (spec §3.3). */
export function receiptRequestElement(request: SfsReceiptRequest): string {
  return receiptRequest(request, TEXT);
}

/** The receipt request for `signEnvelope`: its text and that text's canonical form, without a parse. */
export function receiptRequestBody(request: SfsReceiptRequest): string | CanonicalBody {
  return withCanonical(request, receiptRequest);
}

function receiptRequest(request: SfsReceiptRequest, style: Style): string {
  const { header, data, pkp, okp } = request;
  const { Items, ...dataAttributes } = data;
  const items =
    Items === undefined
      ? ''
      : `<ekasa:Items>${Items.map((item) => style.empty('ekasa:Item', attrs({ ...item }, style))).join('')}</ekasa:Items>`;
  const receiptData =
    Items === undefined
      ? style.empty('ekasa:ReceiptData', attrs({ ...dataAttributes }, style))
      : `<ekasa:ReceiptData${attrs({ ...dataAttributes }, style)}>${items}</ekasa:ReceiptData>`;
  return (
    `<ekasa:RegisterReceiptRequest xmlns:ekasa="${NS.ekasa}">` +
    style.empty('ekasa:Header', attrs({ ...header }, style)) +
    receiptData +
    '<ekasa:ValidationCode>' +
    `<ekasa:PKP cipher="RSA2048" digest="SHA256" encoding="base64">${style.text(pkp)}</ekasa:PKP>` +
    `<ekasa:OKP digest="SHA1" encoding="base16">${style.text(okp)}</ekasa:OKP>` +
    '</ekasa:ValidationCode>' +
    '</ekasa:RegisterReceiptRequest>'
  );
}

/** The `ekasa:RegisterLocationRequest` element: Header (no Exception) and LocationData (spec §3.5). */
export function locationRequestElement(request: SfsLocationRequest): string {
  return locationRequest(request, TEXT);
}

/** The location request for `signEnvelope`, as {@link receiptRequestBody}. */
export function locationRequestBody(request: SfsLocationRequest): string | CanonicalBody {
  return withCanonical(request, locationRequest);
}

function locationRequest(request: SfsLocationRequest, style: Style): string {
  const { Dic, CashRegisterCode, CreateDate, location } = request.data;
  return (
    `<ekasa:RegisterLocationRequest xmlns:ekasa="${NS.ekasa}">` +
    style.empty('ekasa:Header', attrs({ ...request.header }, style)) +
    `<ekasa:LocationData${attrs({ Dic, CashRegisterCode, CreateDate }, style)}>` +
    `<ekasa:Location>${locationElement(location, style)}</ekasa:Location>` +
    '</ekasa:LocationData>' +
    '</ekasa:RegisterLocationRequest>'
  );
}

/** Exactly one of Gps, PhysicalAddress (attributes) or Other (text), spec §3.5.3. */
function locationElement(location: SfsLocation, style: Style): string {
  switch (location.kind) {
    case 'gps':
      return style.empty('ekasa:Gps', attrs({ AxisX: location.AxisX, AxisY: location.AxisY }, style));
    case 'address': {
      const { kind: _kind, ...address } = location;
      return style.empty('ekasa:PhysicalAddress', attrs({ ...address }, style));
    }
    case 'other':
      return `<ekasa:Other>${style.text(location.text)}</ekasa:Other>`;
  }
}

/**
 * Text and canonical form of a request — unless a value holds a character XML does not allow
 * (XML 1.0 `Char`): that text goes to `signEnvelope` alone, whose parse refuses it as before.
 */
function withCanonical<R>(request: R, build: (request: R, style: Style) => string): string | CanonicalBody {
  const text = build(request, TEXT);
  if (NOT_XML_CHAR.test(text)) return text;
  return { text, canonical: build(request, CANONICAL) };
}

const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * A Body content with its exclusive C14N form (PrefixList="") worked out by the writer that wrote
 * it. It must use no prefix of the Body element itself (`soapenv`, `wsu`): those would be rendered
 * on the Body, not on the content.
 */
export interface CanonicalBody {
  text: string;
  canonical: string;
}
