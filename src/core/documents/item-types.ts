import type { SfsItemType } from '../sfs/message.js';

/**
 * Item types of the API and their SFS codes (protocol reference §1.4, §4.5; API v1.7 text, enumerations).
 * PACKING is a sale of returnable packaging: SFS `K` at 0 % (§4.2, Datapac interpretation).
 */
export type ApiItemType =
  | 'SALE'
  | 'PACKING'
  | 'PACKING_REFUND'
  | 'VOUCHER'
  | 'REFUND'
  | 'UPDATE'
  | 'DISCOUNT'
  | 'DEPOSIT';

/** Sign the line total must have (SFS errors -127 / -128). */
export type PriceSign = 'non-negative' | 'non-positive' | 'any';

export interface ItemTypeRule {
  api: ApiItemType;
  sfs: SfsItemType;
  sign: PriceSign;
  /** Must use VAT_0 (packaging is outside VAT). */
  vat0Only: boolean;
  /** SFS -117/-118: ReferenceReceiptId required for V and O, forbidden for the others. */
  referenceRequired: boolean;
  /** May carry the pre-2025 rates VAT_20 / VAT_10 (refunds and corrections only, ADR 0403). */
  legacyRatesAllowed: boolean;
}

export const ITEM_TYPES: readonly ItemTypeRule[] = [
  rule('SALE', 'K', 'non-negative'),
  rule('PACKING', 'K', 'non-negative', { vat0Only: true }),
  rule('PACKING_REFUND', 'VO', 'non-positive', { vat0Only: true }),
  rule('VOUCHER', 'VP', 'non-positive'),
  rule('REFUND', 'V', 'non-positive', { referenceRequired: true, legacyRatesAllowed: true }),
  rule('UPDATE', 'O', 'any', { referenceRequired: true, legacyRatesAllowed: true }),
  rule('DISCOUNT', 'Z', 'non-positive'),
  rule('DEPOSIT', 'OZ', 'non-positive'),
];

function rule(
  api: ApiItemType,
  sfs: SfsItemType,
  sign: PriceSign,
  flags: Partial<Pick<ItemTypeRule, 'vat0Only' | 'referenceRequired' | 'legacyRatesAllowed'>> = {},
): ItemTypeRule {
  return {
    api,
    sfs,
    sign,
    vat0Only: flags.vat0Only ?? false,
    referenceRequired: flags.referenceRequired ?? false,
    legacyRatesAllowed: flags.legacyRatesAllowed ?? false,
  };
}

/** The SFS letters accepted as input (API v1.7 text, enumerations: Dotypay's example sends `K`); K is a SALE. */
const SFS_ALIASES: Record<SfsItemType, ApiItemType> = {
  K: 'SALE',
  VO: 'PACKING_REFUND',
  VP: 'VOUCHER',
  V: 'REFUND',
  O: 'UPDATE',
  Z: 'DISCOUNT',
  OZ: 'DEPOSIT',
};

const byApi = new Map<string, ItemTypeRule>(ITEM_TYPES.map((t) => [t.api, t] as const));

/** Every spelling a request may use for `itemType`: API names and SFS letters. */
export const ITEM_TYPE_INPUTS: readonly string[] = [
  ...ITEM_TYPES.map((t) => t.api),
  ...Object.keys(SFS_ALIASES),
];

/** The item type a request names (`SALE` or `K`), or undefined when unknown. */
export function resolveItemType(input: string): ItemTypeRule | undefined {
  const api = (SFS_ALIASES as Record<string, ApiItemType | undefined>)[input] ?? input;
  return byApi.get(api);
}

/** The rule of an API item type. */
export function itemTypeRule(api: ApiItemType): ItemTypeRule {
  const found = byApi.get(api);
  if (!found) throw new RangeError(`unknown item type ${api}`);
  return found;
}
