import {
  MAX_AMOUNT_CENTS,
  moneyCents,
  QUANTITY_PATTERN,
  quantityUnits,
  rateHundredths,
} from './decimal-text.js';
import { type SfsViolation, violation } from './ekasa-errors.js';
import type { SfsItem, SfsLocationRequest, SfsReceiptRequest } from './message.js';
import { OKP_PATTERN } from './okp.js';
import { PKP_PATTERN } from './pkp.js';
import { SW_ID_PATTERN } from './sw-id.js';
import { KNOWN_RATES, RECAP_KEYS } from './vat-recap.js';

/**
 * The schema-level (XSD) rules of the SFS messages, error -2 (spec §3.1, §3.3.12, §3.5). The
 * simulator applies them to what it parsed; a client may use them as a pre-flight check. Where the
 * XSD is not public, kasa is as strict as the spec tables and writes exactly these forms itself.
 */

export const UUID_PATTERN =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-5][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
export const SFS_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})[+-](\d{2}):(\d{2})$/;

const RECEIPT_TYPES = ['PD', 'UF', 'ND', 'VK', 'VY'];
const ITEM_TYPES = ['K', 'VO', 'V', 'O', 'Z', 'OZ', 'VP'];
const CUSTOMER_ID_TYPES = ['ICO', 'DIC', 'IC_DPH', 'INE'];
const SELLER_ID_TYPES = ['DIC', 'IC_DPH'];
const SPECIAL_REGULATIONS = ['PDP', 'OOD', 'CK', 'PT', 'UD', 'ZPS'];
const BOOLEANS = ['true', 'false'];
/** Spec §2.6: at most 500 items per document. */
export const MAX_ITEMS = 500;

/** Spec §3.1: only ASCII 9, 10, 13 and 32–126, except Name, Municipality, StreetName and Other. */
const PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;

type Check = [
  value: string | undefined,
  required: boolean,
  test: (v: string) => boolean,
  name: string,
  ascii?: boolean,
];

function firstBroken(checks: readonly Check[]): SfsViolation | undefined {
  for (const [value, required, test, name, ascii = true] of checks) {
    if (value === undefined) {
      if (required) return violation(-2, `${name} is required`);
      continue;
    }
    if (ascii && !PLAIN_ASCII.test(value))
      return violation(-2, `${name} holds characters outside printable ASCII`);
    if (!test(value)) return violation(-2, `${name} has an invalid value`);
  }
  return undefined;
}

const re = (pattern: RegExp) => (v: string) => pattern.test(v);
const oneOf = (values: readonly string[]) => (v: string) => values.includes(v);
const length = (min: number, max: number) => (v: string) => [...v].length >= min && [...v].length <= max;
const unsignedInt = (v: string) => /^[1-9][0-9]{0,9}$/.test(v) && Number(v) <= 4_294_967_295;
const money = (v: string) => {
  const cents = moneyCents(v);
  return cents !== undefined && Math.abs(cents) <= MAX_AMOUNT_CENTS;
};
const quantity = (v: string) => QUANTITY_PATTERN.test(v) && quantityUnits(v)! <= 10_000_000 * 10_000;
const vatRate = (v: string) => {
  const rate = rateHundredths(v);
  return rate !== undefined && KNOWN_RATES.includes(rate);
};

/** A real calendar instant in the SFS dateTime form (25 chars, explicit offset, no fractions). */
export function isSfsDateTime(v: string): boolean {
  const m = SFS_DATE_TIME_PATTERN.exec(v);
  if (!m) return false;
  const [year, month, day, hour, minute, second, oh, om] = m.slice(1).map(Number) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    oh! <= 14 &&
    om! <= 59
  );
}

/** -2 checks of a RegisterReceiptRequest. */
export function checkReceiptLexical(request: SfsReceiptRequest): SfsViolation | undefined {
  const { header: h, data: d } = request;
  const headerChecks: Check[] = [
    [h.Uuid, true, re(UUID_PATTERN), 'Header@Uuid'],
    [h.RequestDate, true, isSfsDateTime, 'Header@RequestDate'],
    [h.SwId, true, re(SW_ID_PATTERN), 'Header@SwId'],
    [h.SendingCount, true, unsignedInt, 'Header@SendingCount'],
    [h.Exception, true, oneOf(BOOLEANS), 'Header@Exception'],
  ];
  const dataChecks: Check[] = [
    [d.ReceiptType, true, oneOf(RECEIPT_TYPES), 'ReceiptData@ReceiptType'],
    [d.Dic, true, re(/^[0-9]{10}$/), 'ReceiptData@Dic'],
    [d.IcDph, false, re(/^SK[0-9]{8,10}$/), 'ReceiptData@IcDph'],
    [d.Ico, false, re(/^[0-9]{8}$/), 'ReceiptData@Ico'],
    [d.CashRegisterCode, true, re(/^[0-9]{16,17}$/), 'ReceiptData@CashRegisterCode'],
    [d.IssueDate, true, isSfsDateTime, 'ReceiptData@IssueDate'],
    [d.CreateDate, true, isSfsDateTime, 'ReceiptData@CreateDate'],
    [d.ReceiptNumber, true, unsignedInt, 'ReceiptData@ReceiptNumber'],
    [d.InvoiceNumber, false, length(1, 50), 'ReceiptData@InvoiceNumber'],
    [d.Paragon, true, oneOf(BOOLEANS), 'ReceiptData@Paragon'],
    [d.ParagonNumber, false, unsignedInt, 'ReceiptData@ParagonNumber'],
    [d.CustomerId, false, re(/^[0-9a-zA-Z]{1,50}$/), 'ReceiptData@CustomerId'],
    [d.CustomerIdType, false, oneOf(CUSTOMER_ID_TYPES), 'ReceiptData@CustomerIdType'],
    [d.Amount, true, money, 'ReceiptData@Amount'],
    ...RECAP_KEYS.map((key): Check => [d[key], false, money, `ReceiptData@${key}`]),
  ];
  const broken = firstBroken(headerChecks) ?? firstBroken(dataChecks);
  if (broken) return broken;
  if (d.Items !== undefined) {
    if (d.Items.length === 0 || d.Items.length > MAX_ITEMS) {
      return violation(-2, `Items must hold 1 to ${MAX_ITEMS} Item elements`);
    }
    for (const [index, item] of d.Items.entries()) {
      const itemBroken = checkItemLexical(item, index + 1);
      if (itemBroken) return itemBroken;
    }
  }
  if (!PKP_PATTERN.test(request.pkp)) return violation(-2, 'PKP must be 344 Base64 characters');
  if (!OKP_PATTERN.test(request.okp)) return violation(-2, 'OKP must be 5 groups of 8 hex digits');
  return undefined;
}

function checkItemLexical(item: SfsItem, n: number): SfsViolation | undefined {
  const at = `Item[${n}]@`;
  return firstBroken([
    [item.ItemType, true, oneOf(ITEM_TYPES), `${at}ItemType`],
    [item.Name, true, length(1, 255), `${at}Name`, false],
    [item.Price, true, money, `${at}Price`],
    [item.Quantity, true, quantity, `${at}Quantity`],
    [item.VatRate, true, vatRate, `${at}VatRate`],
    [item.SpecialRegulation, false, oneOf(SPECIAL_REGULATIONS), `${at}SpecialRegulation`],
    [item.SellerId, false, re(/^[0-9a-zA-Z]{1,50}$/), `${at}SellerId`],
    [item.SellerIdType, false, oneOf(SELLER_ID_TYPES), `${at}SellerIdType`],
    [item.VoucherNumber, false, length(1, 50), `${at}VoucherNumber`],
    [item.ReferenceReceiptId, false, length(1, 44), `${at}ReferenceReceiptId`],
  ]);
}

/** -2 checks of a RegisterLocationRequest. */
export function checkLocationLexical(request: SfsLocationRequest): SfsViolation | undefined {
  const { header: h, data: d } = request;
  const broken = firstBroken([
    [h.Uuid, true, re(UUID_PATTERN), 'Header@Uuid'],
    [h.RequestDate, true, isSfsDateTime, 'Header@RequestDate'],
    [h.SwId, true, re(SW_ID_PATTERN), 'Header@SwId'],
    [h.SendingCount, true, unsignedInt, 'Header@SendingCount'],
    [d.Dic, true, re(/^[0-9]{10}$/), 'LocationData@Dic'],
    [d.CashRegisterCode, true, re(/^[0-9]{16,17}$/), 'LocationData@CashRegisterCode'],
    [d.CreateDate, true, isSfsDateTime, 'LocationData@CreateDate'],
  ]);
  if (broken) return broken;
  const loc = d.location;
  switch (loc.kind) {
    case 'gps':
      // Spec §3.5.3: 1–20 characters; stricter: WGS-84 decimal degrees within range.
      return firstBroken([
        [loc.AxisX, true, degrees(180), 'Gps@AxisX'],
        [loc.AxisY, true, degrees(90), 'Gps@AxisY'],
      ]);
    case 'address':
      return firstBroken([
        [loc.Municipality, true, length(1, 100), 'PhysicalAddress@Municipality', false],
        [loc.StreetName, true, length(1, 100), 'PhysicalAddress@StreetName', false],
        [loc.BuildingNumber, false, length(1, 20), 'PhysicalAddress@BuildingNumber'],
        [
          loc.PropertyRegistrationNumber,
          false,
          registrationNumber,
          'PhysicalAddress@PropertyRegistrationNumber',
        ],
        [loc.PostalCode, false, re(/^[0-9]{5}$/), 'PhysicalAddress@PostalCode'],
      ]);
    case 'other':
      return firstBroken([[loc.text, true, length(1, 255), 'Location/Other', false]]);
  }
}

const degrees = (limit: number) => (v: string) =>
  v.length <= 20 && /^-?(0|[1-9][0-9]{0,2})(\.[0-9]+)?$/.test(v) && Math.abs(Number(v)) <= limit;
const registrationNumber = (v: string) => /^[1-9][0-9]{0,9}$/.test(v) && Number(v) <= 9_999_999_999;
