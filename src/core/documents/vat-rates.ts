/**
 * VAT rates of the API and their SFS form (protocol reference §4.4). From 1 Jan 2025 the rates are
 * 23 % (basic), 19 % and 5 % (reduced) and 0 %; 20 % and 10 % remain only for items that refund or
 * correct a pre-2025 sale (§ 85 VAT act as amended by 278/2024; ADR 0403).
 */

/** API names of the VAT rates (`vatRate` in requests, `title` of VatRateSum rows). */
export type VatRateName = 'VAT_23' | 'VAT_20' | 'VAT_19' | 'VAT_10' | 'VAT_5' | 'VAT_0';

/** Which SFS recap attribute pair a rate feeds (2026 recap, ADR 0401). */
export type VatGroup = 'basic' | 'reduced' | 'free';

export interface VatRate {
  name: VatRateName;
  /** Rate in hundredths of a percent (2300 = 23 %), so arithmetic stays integer. */
  hundredths: number;
  /** SFS `VatRate` lexical form (`23.00`). */
  sfs: string;
  /** The enum label of the v1.7 text (`23%`). */
  label: string;
  group: VatGroup;
  /** Pre-2025 rate: only on REFUND/UPDATE items. */
  legacy: boolean;
}

/** All rates, in the order the response's `vatRateSums` lists them (highest first). */
export const VAT_RATES: readonly VatRate[] = [
  { name: 'VAT_23', hundredths: 2300, sfs: '23.00', label: '23%', group: 'basic', legacy: false },
  { name: 'VAT_20', hundredths: 2000, sfs: '20.00', label: '20%', group: 'basic', legacy: true },
  { name: 'VAT_19', hundredths: 1900, sfs: '19.00', label: '19%', group: 'reduced', legacy: false },
  { name: 'VAT_10', hundredths: 1000, sfs: '10.00', label: '10%', group: 'reduced', legacy: true },
  { name: 'VAT_5', hundredths: 500, sfs: '5.00', label: '5%', group: 'reduced', legacy: false },
  { name: 'VAT_0', hundredths: 0, sfs: '0.00', label: '0%', group: 'free', legacy: false },
];

/** Every spelling a request may use: the names and the labels (API v1.7 text, enumerations). */
export const VAT_RATE_INPUTS: readonly string[] = VAT_RATES.flatMap((r) => [r.name, r.label]);

const byInput = new Map<string, VatRate>(
  VAT_RATES.flatMap((r) => [[r.name, r] as const, [r.label, r] as const]),
);
const bySfs = new Map<string, VatRate>(VAT_RATES.map((r) => [r.sfs, r] as const));

/** The rate a request names (`VAT_23` or `23%`), or undefined when unknown. */
export function resolveVatRate(input: string): VatRate | undefined {
  return byInput.get(input);
}

/** The rate of an SFS `VatRate` string as kasa writes it (`23.00`). */
export function vatRateFromSfs(sfs: string): VatRate | undefined {
  return bySfs.get(sfs);
}

/** The rate with this API name. */
export function vatRateByName(name: VatRateName): VatRate {
  const rate = byInput.get(name);
  if (!rate) throw new RangeError(`unknown VAT rate ${name}`);
  return rate;
}
