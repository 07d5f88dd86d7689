import type { Element } from '@xmldom/xmldom';
import { NS } from '../../adapters/tax-authority/soap-envelope.js';
import { attributesOf, elementChildren, hasOwnText, is } from '../../adapters/tax-authority/xml-dom.js';
import { type SfsViolation, violation } from '../../core/sfs/ekasa-errors.js';
import type {
  SfsItem,
  SfsLocation,
  SfsLocationRequest,
  SfsReceiptData,
  SfsReceiptRequest,
} from '../../core/sfs/message.js';

/**
 * Reads the SOAP Body of a request the way the SFS schema does: exact element names, namespace
 * and order, only the attributes the spec tables list, required ones present (else -2); a request
 * in the v1 namespace is an interface version no longer supported (-8). Values are read as written
 * and checked afterwards by the core rules. Written independently of kasa's request builder so the
 * simulator catches the builder's mistakes instead of mirroring them.
 */
export type ReadRequest =
  | { operation: 'RegisterReceipt'; request: SfsReceiptRequest }
  | { operation: 'RegisterLocation'; request: SfsLocationRequest }
  | { operation?: 'RegisterReceipt' | 'RegisterLocation'; violation: SfsViolation };

class Broken extends Error {
  constructor(readonly violation: SfsViolation) {
    super(violation.detail);
  }
}

const fail = (detail: string): never => {
  throw new Broken(violation(-2, detail));
};

const RECEIPT_HEADER = ['Uuid', 'RequestDate', 'SwId', 'SendingCount', 'Exception'] as const;
const LOCATION_HEADER = ['Uuid', 'RequestDate', 'SwId', 'SendingCount'] as const;
const RECEIPT_DATA_REQUIRED = [
  'ReceiptType',
  'Dic',
  'CashRegisterCode',
  'IssueDate',
  'CreateDate',
  'ReceiptNumber',
  'Paragon',
  'Amount',
];
const RECEIPT_DATA_OPTIONAL = [
  'IcDph',
  'Ico',
  'InvoiceNumber',
  'ParagonNumber',
  'CustomerId',
  'CustomerIdType',
  'TaxBaseBasic',
  'BasicVatAmount',
  'TaxBaseReduced',
  'ReducedVatAmount',
  'TaxFreeAmount',
];
const ITEM_REQUIRED = ['ItemType', 'Name', 'Price', 'Quantity', 'VatRate'];
const ITEM_OPTIONAL = [
  'SpecialRegulation',
  'SellerId',
  'SellerIdType',
  'VoucherNumber',
  'ReferenceReceiptId',
];

export function readRequest(body: Element): ReadRequest {
  if (hasOwnText(body)) return { violation: violation(-2, 'text directly in soap:Body') };
  const children = elementChildren(body);
  const root = children[0];
  if (children.length !== 1 || !root)
    return { violation: violation(-2, 'soap:Body must hold exactly one element') };
  const operation =
    root.localName === 'RegisterReceiptRequest'
      ? 'RegisterReceipt'
      : root.localName === 'RegisterLocationRequest'
        ? 'RegisterLocation'
        : undefined;
  if (root.namespaceURI === NS.ekasaV1 && operation) {
    return { operation, violation: violation(-8, 'interface v1 is no longer supported') };
  }
  if (root.namespaceURI !== NS.ekasa || !operation) {
    return { violation: violation(-2, `unknown operation {${root.namespaceURI}}${root.localName}`) };
  }
  try {
    return operation === 'RegisterReceipt'
      ? { operation, request: readReceipt(root) }
      : { operation, request: readLocation(root) };
  } catch (e) {
    if (e instanceof Broken) return { operation, violation: e.violation };
    throw e;
  }
}

function sequence(parent: Element, names: readonly string[]): Element[] {
  if (hasOwnText(parent)) fail(`text inside ${parent.localName}`);
  const children = elementChildren(parent);
  const got = children.map((c) =>
    c.namespaceURI === NS.ekasa ? c.localName : `{${c.namespaceURI}}${c.localName}`,
  );
  if (got.length !== names.length || got.some((name, i) => name !== names[i])) {
    fail(
      `${parent.localName} must hold ${names.join(', ') || 'nothing'}, found ${got.join(', ') || 'nothing'}`,
    );
  }
  return children;
}

function attributes(
  element: Element,
  required: readonly string[],
  optional: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const attr of attributesOf(element)) {
    if (
      attr.namespace !== null ||
      (!required.includes(attr.localName) && !optional.includes(attr.localName))
    ) {
      fail(`${element.localName} has an unknown attribute ${attr.localName}`);
    }
    out[attr.localName] = attr.value;
  }
  for (const name of required) if (!(name in out)) fail(`${element.localName}@${name} is required`);
  return out;
}

function empty(element: Element): void {
  sequence(element, []);
}

function readReceipt(root: Element): SfsReceiptRequest {
  const [header, data, validation] = sequence(root, ['Header', 'ReceiptData', 'ValidationCode']) as [
    Element,
    Element,
    Element,
  ];
  empty(header);
  const receiptData = attributes(
    data,
    RECEIPT_DATA_REQUIRED,
    RECEIPT_DATA_OPTIONAL,
  ) as unknown as SfsReceiptData;
  if (elementChildren(data).length > 0 || hasOwnText(data)) {
    const [items] = sequence(data, ['Items']) as [Element];
    if (hasOwnText(items)) fail('text inside Items');
    receiptData.Items = elementChildren(items).map((item) => {
      const name = item.localName;
      if (!is(item, NS.ekasa, 'Item')) fail(`Items may hold only Item, found ${name}`);
      empty(item);
      return attributes(item, ITEM_REQUIRED, ITEM_OPTIONAL) as unknown as SfsItem;
    });
  }
  const [pkp, okp] = sequence(validation, ['PKP', 'OKP']) as [Element, Element];
  fixedAttributes(pkp, { cipher: 'RSA2048', digest: 'SHA256', encoding: 'base64' });
  fixedAttributes(okp, { digest: 'SHA1', encoding: 'base16' });
  return {
    header: attributes(header, RECEIPT_HEADER) as unknown as SfsReceiptRequest['header'],
    data: receiptData,
    pkp: textOf(pkp),
    okp: textOf(okp),
  };
}

/** PKP / OKP carry exactly these attribute values (spec §3.3.5). */
function fixedAttributes(element: Element, expected: Record<string, string>): void {
  const names = Object.keys(expected);
  const got = attributes(element, names);
  for (const name of names)
    if (got[name] !== expected[name]) fail(`${element.localName}@${name} must be ${expected[name]}`);
}

function textOf(element: Element): string {
  if (elementChildren(element).length > 0) fail(`${element.localName} must hold text only`);
  return element.textContent ?? '';
}

function readLocation(root: Element): SfsLocationRequest {
  const [header, data] = sequence(root, ['Header', 'LocationData']) as [Element, Element];
  empty(header);
  const { Dic, CashRegisterCode, CreateDate } = attributes(data, [
    'Dic',
    'CashRegisterCode',
    'CreateDate',
  ]) as Record<string, string>;
  const [location] = sequence(data, ['Location']) as [Element];
  if (hasOwnText(location)) fail('text inside Location');
  const kinds = elementChildren(location);
  if (kinds.length !== 1) fail('Location must hold exactly one of Gps, PhysicalAddress, Other');
  return {
    header: attributes(header, LOCATION_HEADER) as unknown as SfsLocationRequest['header'],
    data: {
      Dic: Dic!,
      CashRegisterCode: CashRegisterCode!,
      CreateDate: CreateDate!,
      location: readLocationKind(kinds[0]!),
    },
  };
}

function readLocationKind(element: Element): SfsLocation {
  const name = element.localName;
  if (is(element, NS.ekasa, 'Gps')) {
    empty(element);
    const { AxisX, AxisY } = attributes(element, ['AxisX', 'AxisY']);
    return { kind: 'gps', AxisX: AxisX!, AxisY: AxisY! };
  }
  if (is(element, NS.ekasa, 'PhysicalAddress')) {
    empty(element);
    const a = attributes(
      element,
      ['Municipality', 'StreetName'],
      ['BuildingNumber', 'PropertyRegistrationNumber', 'PostalCode'],
    );
    return { kind: 'address', ...(a as { Municipality: string; StreetName: string }) };
  }
  if (is(element, NS.ekasa, 'Other')) {
    attributes(element, []);
    return { kind: 'other', text: textOf(element) };
  }
  return fail(`Location may not hold ${name}`);
}
