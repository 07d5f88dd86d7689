import { invalidInput } from '../fiscal-error.js';
import type { SellerIdType, SpecialRegulation } from '../sfs/message.js';
import { lineTotalCents, QUANTITY_SCALE, UNIT_PRICE_SCALE } from './decimal.js';
import {
  centsText,
  isAbsent,
  readAsciiId,
  readExternalId,
  readOptionalNonEmpty,
  readOptionalString,
  readScaled,
  readText,
} from './field-rules.js';
import { ITEM_TYPE_INPUTS, type ItemTypeRule, resolveItemType } from './item-types.js';
import { LIMITS } from './limits.js';
import { checkOldRateReferences, type ReferencedSaleDate } from './old-rate-references.js';
import type { DocumentEntryInput, ValidatedItem } from './store-request.js';
import { resolveVatRate, VAT_RATE_INPUTS, type VatRate } from './vat-rates.js';

export const SPECIAL_REGULATIONS: readonly SpecialRegulation[] = ['PDP', 'OOD', 'CK', 'PT', 'UD', 'ZPS'];
export const SELLER_ID_TYPES: readonly SellerIdType[] = ['DIC', 'IC_DPH'];

export interface ItemValidationContext {
  /** The merchant has an IČ DPH. A non-payer's items all use VAT_0 (ADR 0401). */
  vatPayer: boolean;
  /**
   * When the sale a reference names was made, if it is this register's document (ADR 0430). Absent:
   * old rates on REFUND and UPDATE are checked by item type only.
   */
  referencedSaleDate?: ReferencedSaleDate;
}

/**
 * Validates `documentEntries` of a PD/ND: every item on its own, then the rules between items
 * (voucher pairs, discounts and advances within a sold rate, old rates against this register's
 * documents). Throws 701 naming `documentEntries[i].field`.
 */
export function validateItems(entries: unknown, ctx: ItemValidationContext): ValidatedItem[] {
  if (!Array.isArray(entries)) throw invalidInput('documentEntries', 'must be a list of items');
  if (entries.length > LIMITS.maxItems) {
    throw invalidInput('documentEntries', `at most ${LIMITS.maxItems} items per document (SFS §2.6)`);
  }
  const items = entries.map((entry, i) => validateItem(entry, `documentEntries[${i}]`, ctx));
  checkVoucherPairs(items);
  checkReductions(items);
  if (ctx.referencedSaleDate) checkOldRateReferences(items, ctx.referencedSaleDate);
  return items;
}

function validateItem(entry: unknown, at: string, ctx: ItemValidationContext): ValidatedItem {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw invalidInput(at, 'must be an item object');
  }
  const e = entry as Partial<Record<keyof DocumentEntryInput, unknown>>;

  const typeText = readOptionalString(e.itemType, `${at}.itemType`);
  if (typeText === undefined) throw invalidInput(`${at}.itemType`, 'is required');
  const itemType = resolveItemType(typeText);
  if (!itemType) {
    throw invalidInput(
      `${at}.itemType`,
      `unknown itemType '${typeText}'; one of ${ITEM_TYPE_INPUTS.join(', ')}`,
    );
  }

  const rateText = readOptionalString(e.vatRate, `${at}.vatRate`);
  if (rateText === undefined) throw invalidInput(`${at}.vatRate`, 'is required');
  const vatRate = resolveVatRate(rateText);
  if (!vatRate) {
    throw invalidInput(
      `${at}.vatRate`,
      `unknown vatRate '${rateText}'; one of ${VAT_RATE_INPUTS.join(', ')}`,
    );
  }

  const name = readText(e.name, `${at}.name`, LIMITS.nameMaxChars, { allowNewlines: true, allowTab: true });
  if (name === undefined) throw invalidInput(`${at}.name`, 'is required');
  if (name.trim().length === 0) throw invalidInput(`${at}.name`, 'must not be blank');

  if (isAbsent(e.price)) throw invalidInput(`${at}.price`, 'is required (the unit price)');
  const unitPriceMicros = readScaled(
    e.price,
    `${at}.price`,
    UNIT_PRICE_SCALE,
    LIMITS.maxAbsUnitPriceMicros,
    'a unit price',
  );
  if (isAbsent(e.quantity)) throw invalidInput(`${at}.quantity`, 'is required');
  const quantityUnits = readScaled(
    e.quantity,
    `${at}.quantity`,
    QUANTITY_SCALE,
    LIMITS.maxQuantityUnits,
    'a quantity',
  );
  if (quantityUnits < 0n) {
    throw invalidInput(
      `${at}.quantity`,
      'must not be negative (SFS Quantity is 0–10000000; the sign goes on price)',
    );
  }
  const total = lineTotalCents(unitPriceMicros, quantityUnits);
  if (total > LIMITS.maxAbsAmountCents || total < -LIMITS.maxAbsAmountCents) {
    throw invalidInput(
      `${at}.price`,
      'the line total (price × quantity) must be between -10000000 and 10000000',
    );
  }

  // SFS -127 / -128: the sign of the line follows the item type
  if (itemType.sign === 'non-negative' && unitPriceMicros < 0n) {
    throw invalidInput(`${at}.price`, `a ${itemType.api} item must not have a negative price (SFS -127)`);
  }
  if (itemType.sign === 'non-positive' && unitPriceMicros > 0n) {
    throw invalidInput(`${at}.price`, `a ${itemType.api} item must have a negative or zero price (SFS -128)`);
  }

  if (!ctx.vatPayer && vatRate.hundredths !== 0) {
    throw invalidInput(`${at}.vatRate`, 'the merchant is not a VAT payer (no IČ DPH): every item uses VAT_0');
  }
  if (itemType.vat0Only && vatRate.name !== 'VAT_0') {
    throw invalidInput(`${at}.vatRate`, `${itemType.api} items (returnable packaging) must use VAT_0`);
  }
  if (vatRate.legacy && !itemType.legacyRatesAllowed) {
    throw invalidInput(
      `${at}.vatRate`,
      `${vatRate.name} is a pre-2025 rate: only REFUND and UPDATE items correcting an earlier sale may use it`,
    );
  }

  const referenceDocumentId = readAsciiId(
    e.referenceDocumentId,
    `${at}.referenceDocumentId`,
    LIMITS.referenceDocumentIdMaxChars,
  );
  if (itemType.referenceRequired && referenceDocumentId === undefined) {
    throw invalidInput(
      `${at}.referenceDocumentId`,
      `is required for ${itemType.api} items: the UID, OKP or number of the corrected document (SFS -117)`,
    );
  }
  if (!itemType.referenceRequired && referenceDocumentId !== undefined) {
    throw invalidInput(
      `${at}.referenceDocumentId`,
      `is only for REFUND and UPDATE items, not ${itemType.api} (SFS -118)`,
    );
  }

  const specialRegulation = readSpecialRegulation(e.specialRegulation, `${at}.specialRegulation`);
  if (specialRegulation !== undefined && vatRate.hundredths !== 0) {
    throw invalidInput(`${at}.specialRegulation`, 'is only allowed with VAT_0 (SFS -130)');
  }

  const seller = readSeller(e.seller, `${at}.seller`);

  const voucherNumber = readAsciiId(e.voucherNumber, `${at}.voucherNumber`, LIMITS.voucherNumberMaxChars);
  if (itemType.api === 'VOUCHER' && voucherNumber === undefined) {
    throw invalidInput(`${at}.voucherNumber`, 'is required for a VOUCHER item');
  }
  if (voucherNumber !== undefined && itemType.api !== 'VOUCHER' && itemType.api !== 'SALE') {
    throw invalidInput(
      `${at}.voucherNumber`,
      `is only for VOUCHER items and the SALE item they pay, not ${itemType.api} (SFS -131)`,
    );
  }

  const externalId = readExternalId(e.externalId, `${at}.externalId`);

  const item: ValidatedItem = {
    itemType,
    name,
    unitPriceMicros,
    quantityUnits,
    totalCents: Number(total),
    vatRate,
  };
  if (specialRegulation !== undefined) item.specialRegulation = specialRegulation;
  if (seller !== undefined) item.seller = seller;
  if (voucherNumber !== undefined) item.voucherNumber = voucherNumber;
  if (referenceDocumentId !== undefined) item.referenceDocumentId = referenceDocumentId;
  if (externalId !== undefined) item.externalId = externalId;
  return item;
}

function readSpecialRegulation(value: unknown, field: string): SpecialRegulation | undefined {
  const text = readOptionalNonEmpty(value, field);
  if (text === undefined) return undefined;
  const found = SPECIAL_REGULATIONS.find((s) => s === text);
  if (!found)
    throw invalidInput(
      field,
      `unknown specialRegulation '${text}'; one of ${SPECIAL_REGULATIONS.join(', ')}`,
    );
  return found;
}

/** SFS -129: SellerId and SellerIdType both or neither; `{}` is no seller. */
function readSeller(value: unknown, field: string): { id: string; type: SellerIdType } | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidInput(field, 'must be an object {id, sellerIdType}');
  const s = value as Record<string, unknown>;
  const id = readOptionalNonEmpty(s.id, `${field}.id`);
  const type = readOptionalNonEmpty(s.sellerIdType, `${field}.sellerIdType`);
  if (id === undefined && type === undefined) return undefined;
  if (id === undefined) throw invalidInput(`${field}.id`, 'is required with sellerIdType (SFS -129)');
  if (type === undefined) throw invalidInput(`${field}.sellerIdType`, 'is required with id (SFS -129)');
  if (!LIMITS.partyIdPattern.test(id))
    throw invalidInput(`${field}.id`, 'must be 1–50 letters or digits (SFS SellerId)');
  const found = SELLER_ID_TYPES.find((t) => t === type);
  if (!found)
    throw invalidInput(`${field}.sellerIdType`, `unknown sellerIdType '${type}'; one of DIC, IC_DPH`);
  return { id, type: found };
}

/**
 * A VOUCHER (single-purpose voucher redeemed, SFS VP) pairs with exactly one SALE through the same
 * voucherNumber, and carries the SALE's VAT rate: it reduces the VAT of that rate (reference §4.4).
 */
function checkVoucherPairs(items: ValidatedItem[]): void {
  const vouchers = new Map<string, number>();
  const sales = new Map<string, number>();
  items.forEach((item, i) => {
    if (item.voucherNumber === undefined) return;
    const map = item.itemType.api === 'VOUCHER' ? vouchers : sales;
    const first = map.get(item.voucherNumber);
    if (first !== undefined) {
      const what = item.itemType.api === 'VOUCHER' ? 'VOUCHER' : 'SALE';
      throw invalidInput(
        `documentEntries[${i}].voucherNumber`,
        `voucherNumber '${item.voucherNumber}' is already used by the ${what} item documentEntries[${first}]; one ${what} per voucher`,
      );
    }
    map.set(item.voucherNumber, i);
  });
  for (const [number, v] of vouchers) {
    const s = sales.get(number);
    if (s === undefined) {
      throw invalidInput(
        `documentEntries[${v}].voucherNumber`,
        `a VOUCHER pairs with a SALE item carrying the same voucherNumber; there is none for '${number}'`,
      );
    }
    const voucher = items[v]!;
    const sale = items[s]!;
    if (voucher.vatRate.name !== sale.vatRate.name) {
      throw invalidInput(
        `documentEntries[${v}].vatRate`,
        `a VOUCHER uses the VAT rate of the SALE it pays (documentEntries[${s}], ${sale.vatRate.name})`,
      );
    }
  }
  for (const [number, s] of sales) {
    if (!vouchers.has(number)) {
      throw invalidInput(
        `documentEntries[${s}].voucherNumber`,
        `no VOUCHER item with voucherNumber '${number}' on this document`,
      );
    }
  }
}

/** What the reduction check reads of an item: its type, its rate and its line total. */
export interface ReducibleItem {
  itemType: Pick<ItemTypeRule, 'api' | 'sfs'>;
  vatRate: Pick<VatRate, 'name' | 'hundredths'>;
  totalCents: number;
}

/**
 * Discounts (Z), vouchers (VP) and deducted advances (OZ) carry the VAT rate of the items they
 * reduce and reduce that rate's VAT (ADR 0430, after the certified vendor's published cases):
 * - a DISCOUNT, and an advance at a rate above 0 %, need a SALE/PACKING at their rate here;
 * - the DISCOUNT and VOUCHER lines of a rate together reduce at most what is sold at it: down to
 *   zero, never below (a rate whose VAT would turn negative on a sale);
 * - an advance at 0 % reduces no VAT, so it may exceed the sale (the advance paid back as change);
 *   one at a taxed rate is not capped either (ADR 0430).
 * REFUND and UPDATE lines are negative on purpose and are neither reductions nor sales here.
 * `fieldOf` names the item's member in a refusal: a store names `documentEntries[i].price` /
 * `.vatRate`; a repair (which changes only quantities) names its own entry (docs/offline.md).
 */
export function checkReductions(
  items: readonly ReducibleItem[],
  fieldOf: (i: number, member: 'price' | 'vatRate') => string = (i, member) =>
    `documentEntries[${i}].${member}`,
): void {
  const sold = new Map<string, number>();
  for (const item of items) {
    if (item.itemType.sfs === 'K')
      sold.set(item.vatRate.name, (sold.get(item.vatRate.name) ?? 0) + item.totalCents);
  }
  const reduced = new Map<string, number>();
  items.forEach((item, i) => {
    const rate = item.vatRate.name;
    const api = item.itemType.api;
    if ((api === 'DISCOUNT' || (api === 'DEPOSIT' && item.vatRate.hundredths !== 0)) && !sold.has(rate)) {
      throw invalidInput(
        fieldOf(i, 'vatRate'),
        api === 'DISCOUNT'
          ? `a DISCOUNT reduces the VAT of its own rate: no SALE item at ${rate} on this document`
          : `a DEPOSIT (deducted advance) at ${rate} reduces the VAT of that rate: no SALE item at ${rate} on this document (an advance at VAT_0 reduces no VAT and needs none)`,
      );
    }
    if (api !== 'DISCOUNT' && api !== 'VOUCHER') return;
    const total = (reduced.get(rate) ?? 0) - item.totalCents;
    reduced.set(rate, total);
    const available = sold.get(rate) ?? 0;
    if (total > available) {
      throw invalidInput(
        fieldOf(i, 'price'),
        `the DISCOUNT and VOUCHER items at ${rate} (${centsText(-total)} up to this one) exceed what is sold at ${rate} (${centsText(available)}): they may reduce a rate to zero, not below (send a voucher at most at the value of what it pays)`,
      );
    }
  });
}
