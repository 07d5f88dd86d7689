import { invalidInput } from '../fiscal-error.js';
import { divRoundHalfAwayFromZero, formatCents, parseCentsText } from './decimal.js';
import { LIMITS } from './limits.js';
import { VAT_RATES, type VatGroup, type VatRate } from './vat-rates.js';

/** One VAT rate of a document: gross = Σ line totals at that rate; vat + base = gross. */
export interface VatRow {
  rate: VatRate;
  grossCents: number;
  vatCents: number;
  baseCents: number;
}

/**
 * VAT of one rate from its gross total (SFS spec §3.3.12.20–22, reference §1.4): VAT = gross ×
 * r / (100 + r) rounded half up to the cent (half away from zero for a negative total, ADR 0400),
 * base = gross − VAT. 25.00 @ 20 % → 4.17 / 20.83.
 */
export function vatOfGross(grossCents: number, rate: VatRate): number {
  if (rate.hundredths === 0) return 0;
  const h = BigInt(rate.hundredths);
  return Number(divRoundHalfAwayFromZero(BigInt(grossCents) * h, 10_000n + h));
}

/**
 * Rows per VAT rate present on the document, in the order of {@link VAT_RATES}. Every item type
 * counts at its own rate — discounts, vouchers, deposits and refunds reduce the VAT of their rate
 * (reference §4.4) — and rounding happens once per rate, never per item.
 * A non-VAT-payer charges no VAT: every row has vat 0 (ADR 0401).
 */
export function vatBreakdown(
  items: ReadonlyArray<{ vatRate: VatRate; totalCents: number }>,
  vatPayer: boolean,
): VatRow[] {
  const gross = new Map<VatRate, number>();
  for (const item of items) gross.set(item.vatRate, (gross.get(item.vatRate) ?? 0) + item.totalCents);
  const rows: VatRow[] = [];
  for (const rate of VAT_RATES) {
    const g = gross.get(rate);
    if (g === undefined) continue;
    const vat = vatPayer ? vatOfGross(g, rate) : 0;
    rows.push({ rate, grossCents: g, vatCents: vat, baseCents: g - vat });
  }
  return rows;
}

/** The recap attributes of SFS ReceiptData (all optional, lexical form). */
export interface SfsVatRecap {
  TaxBaseBasic?: string;
  BasicVatAmount?: string;
  TaxBaseReduced?: string;
  ReducedVatAmount?: string;
  TaxFreeAmount?: string;
}

/**
 * The 2026 recap (Act 384/2025, reference §4.4; ADR 0401): basic = the 23 % row (+ the pre-2025
 * 20 % row of refunds/corrections), reduced = 19 % + 5 % (+ the pre-2025 10 %) added up after
 * per-rate rounding, TaxFreeAmount = the 0 % row. For a non-VAT-payer the whole item sum is
 * TaxFreeAmount and nothing else is sent. A pair is present only when its rates occur (-120/-121).
 */
export function sfsVatRecap(rows: readonly VatRow[], vatPayer: boolean): SfsVatRecap {
  if (!vatPayer) {
    if (rows.length === 0) return {};
    return { TaxFreeAmount: formatCents(rows.reduce((s, r) => s + r.grossCents, 0)) };
  }
  const recap: SfsVatRecap = {};
  const sum = (group: VatRate['group']) => {
    const of = rows.filter((r) => r.rate.group === group);
    if (of.length === 0) return undefined;
    return {
      base: of.reduce((s, r) => s + r.baseCents, 0),
      vat: of.reduce((s, r) => s + r.vatCents, 0),
      gross: of.reduce((s, r) => s + r.grossCents, 0),
    };
  };
  const basic = sum('basic');
  if (basic) {
    recap.TaxBaseBasic = formatCents(basic.base);
    recap.BasicVatAmount = formatCents(basic.vat);
  }
  const reduced = sum('reduced');
  if (reduced) {
    recap.TaxBaseReduced = formatCents(reduced.base);
    recap.ReducedVatAmount = formatCents(reduced.vat);
  }
  const free = sum('free');
  if (free) recap.TaxFreeAmount = formatCents(free.gross);
  return recap;
}

const RECAP_GROUPS: ReadonlyArray<[keyof SfsVatRecap, VatGroup]> = [
  ['TaxBaseBasic', 'basic'],
  ['BasicVatAmount', 'basic'],
  ['TaxBaseReduced', 'reduced'],
  ['ReducedVatAmount', 'reduced'],
  ['TaxFreeAmount', 'free'],
];

/**
 * Every recap attribute must lie in the SFS amount range −10 000 000 … 10 000 000 like `Amount`
 * (schema, SFS −2). The item sum being in range does not bound it: sales at one rate and refunds
 * at another can add up to 0 while each group is far outside. 701 naming `field` (the items of a
 * store or a repair) with the recap attribute, the rates it adds up and its value.
 */
export function checkRecapRange(recap: Readonly<SfsVatRecap>, field: string): void {
  const max = Number(LIMITS.maxAbsAmountCents);
  for (const [key, group] of RECAP_GROUPS) {
    const text = recap[key];
    const cents = text === undefined ? undefined : parseCentsText(text);
    if (cents === undefined || Math.abs(cents) <= max) continue;
    const rates = VAT_RATES.filter((r) => r.group === group).map((r) => r.name);
    throw invalidInput(
      field,
      `the VAT recap ${key} (${rates.length === 1 ? rates[0] : `${rates.join(', ')} together`}) comes to ${text}, outside the SFS amount range -10000000 … 10000000: put these items on two documents`,
    );
  }
}
