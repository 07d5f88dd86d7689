import { localParts } from '../time.js';
import { divideRounded, formatCents, moneyCents, rateHundredths } from './decimal-text.js';
import type { SfsItem, SfsReceiptData } from './message.js';

/**
 * Which VAT rules apply to a document, by its CreateDate (Europe/Bratislava):
 * - `2019`: 20 / 10 / 0 %, recap required (spec v2.3);
 * - `2025`: 23 / 19 / 5 / 0 %, no recap is sent (SFS guidance of 7 Oct 2024, check -119 removed);
 * - `2026`: 23 / 19 / 5 / 0 %, recap required again (Act 384/2025) — ADR 0305.
 * From 2025 the old 20 % and 10 % stay allowed only on V and O items, which refund or correct a
 * pre-2025 sale (VAT act § 85 as amended by 278/2024).
 */
export type VatRegime = '2019' | '2025' | '2026';

export function vatRegimeAt(instant: Date): VatRegime {
  const { year } = localParts(instant);
  return year >= 2026 ? '2026' : year === 2025 ? '2025' : '2019';
}

/** Whether the regime requires the recap on PD/ND (rule -119). */
export function recapRequired(regime: VatRegime): boolean {
  return regime !== '2025';
}

const BASIC: Record<VatRegime, readonly number[]> = {
  '2019': [2000],
  '2025': [2300, 2000],
  '2026': [2300, 2000],
};
const REDUCED: Record<VatRegime, readonly number[]> = {
  '2019': [1000],
  '2025': [1900, 500, 1000],
  '2026': [1900, 500, 1000],
};
const OLD_RATES = [2000, 1000];

/** Every rate any regime knows, in hundredths of a percent (the lexical check, -2). */
export const KNOWN_RATES: readonly number[] = [2300, 2000, 1900, 1000, 500, 0];

/** Whether `rate` (hundredths) may stand on an item of `itemType` under `regime`. */
export function rateAllowed(regime: VatRegime, rate: number, itemType: SfsItem['ItemType']): boolean {
  if (rate === 0) return true;
  const current = [...BASIC[regime], ...REDUCED[regime]];
  if (!current.includes(rate)) return false;
  if (regime === '2019') return true;
  return !OLD_RATES.includes(rate) || itemType === 'V' || itemType === 'O';
}

export type VatRecap = Pick<
  SfsReceiptData,
  'TaxBaseBasic' | 'BasicVatAmount' | 'TaxBaseReduced' | 'ReducedVatAmount' | 'TaxFreeAmount'
>;

export const RECAP_KEYS = [
  'TaxBaseBasic',
  'BasicVatAmount',
  'TaxBaseReduced',
  'ReducedVatAmount',
  'TaxFreeAmount',
] as const;

/**
 * The VAT recap of a document from its items (Price is the signed line total):
 * per rate, VAT = gross × r / (100 + r) rounded half-up to the cent and base = gross − VAT
 * (spec §3.3.12.20–22); then basic = the basic rate(s) and reduced = 19 % and 5 % (and old 10 %)
 * added together (Act 384/2025, ADR 0305); TaxFreeAmount = the 0 % items. A non-VAT-payer sends
 * only TaxFreeAmount = the whole item sum (spec §3.3.12.24). A group appears when at least one
 * item belongs to it. Items must already be lexically valid.
 */
/**
 * Where the pre-2025 rates (20 %, 10 %, on refunds and corrections of older sales) go in a 2025/2026
 * recap: `in-groups` adds them to basic / reduced (kasa's inference, ADR 0423); `outside` leaves them
 * out of every group (the reference's literal reading: basic = 23 %, reduced = 19 % + 5 %).
 */
export type OldRatePlacement = 'in-groups' | 'outside';

/**
 * What a VAT payer's TaxFreeAmount adds up (ADR 0429): `zero-rate` every 0 % item (the spec's
 * "sum of 0-rate items", what kasa sends); `without-buy-back-and-advances` leaves out the returned
 * packaging (VO) and the deducted advances (OZ) at 0 %, as a certified register's published messages do.
 */
export type TaxFreeReading = 'zero-rate' | 'without-buy-back-and-advances';

export function computeVatRecap(
  items: readonly SfsItem[],
  options: { regime: VatRegime; vatPayer: boolean; oldRates?: OldRatePlacement; taxFree?: TaxFreeReading },
): VatRecap {
  const grossByRate = new Map<number, number>();
  let total = 0;
  const outsideTaxFree = (item: SfsItem) =>
    options.taxFree === 'without-buy-back-and-advances' && (item.ItemType === 'VO' || item.ItemType === 'OZ');
  for (const item of items) {
    const rate = rateHundredths(item.VatRate);
    const price = moneyCents(item.Price);
    if (rate === undefined || price === undefined)
      throw new RangeError(`item ${item.Name}: invalid Price or VatRate`);
    total += price;
    if (rate === 0 && outsideTaxFree(item)) continue;
    grossByRate.set(rate, (grossByRate.get(rate) ?? 0) + price);
  }
  if (!options.vatPayer) return items.length > 0 ? { TaxFreeAmount: formatCents(total) } : {};

  const group = (rates: readonly number[]) => {
    let base = 0;
    let vat = 0;
    let present = false;
    for (const rate of rates) {
      const gross = grossByRate.get(rate);
      if (gross === undefined) continue;
      present = true;
      const v = divideRounded(gross * rate, 10_000 + rate);
      vat += v;
      base += gross - v;
    }
    return present ? { base: formatCents(base), vat: formatCents(vat) } : undefined;
  };
  const recap: VatRecap = {};
  // Before 2025 the old rates are the rates: the placement matters from 2025 on only.
  const outside = options.oldRates === 'outside' && options.regime !== '2019';
  const placed = (rates: readonly number[]) =>
    outside ? rates.filter((r) => !OLD_RATES.includes(r)) : rates;
  const basic = group(placed(BASIC[options.regime]));
  const reduced = group(placed(REDUCED[options.regime]));
  if (basic) {
    recap.TaxBaseBasic = basic.base;
    recap.BasicVatAmount = basic.vat;
  }
  if (reduced) {
    recap.TaxBaseReduced = reduced.base;
    recap.ReducedVatAmount = reduced.vat;
  }
  const free = grossByRate.get(0);
  if (free !== undefined) recap.TaxFreeAmount = formatCents(free);
  return recap;
}

/** Whether the document carries any recap attribute (the "VAT breakdown" of rules -113 / -119). */
export function hasRecap(data: VatRecap): boolean {
  return RECAP_KEYS.some((key) => data[key] !== undefined);
}

/**
 * The recaps the simulator accepts for these items while the rules are unknown: kasa's placement
 * of the old rates and the literal one (ADR 0423), each with TaxFreeAmount read both ways (ADR
 * 0429); recaps that come out the same are listed once. The first is kasa's own, the one to name
 * in a refusal.
 */
export function acceptedRecaps(
  items: readonly SfsItem[],
  options: { regime: VatRegime; vatPayer: boolean },
): VatRecap[] {
  const recaps: VatRecap[] = [];
  for (const oldRates of ['in-groups', 'outside'] as const) {
    for (const taxFree of ['zero-rate', 'without-buy-back-and-advances'] as const) {
      const recap = computeVatRecap(items, { ...options, oldRates, taxFree });
      if (!recaps.some((known) => RECAP_KEYS.every((key) => known[key] === recap[key]))) recaps.push(recap);
    }
  }
  return recaps;
}
