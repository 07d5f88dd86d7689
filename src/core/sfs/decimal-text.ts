/**
 * The decimal lexical forms of the SFS message, read into integers (money in cents, rates in
 * hundredths of a percent) so no binary floating point touches an amount.
 */

/** Money: exactly two decimals (spec §3.3.12: "decimal, 2 places"), kasa writes nothing else. */
export const MONEY_PATTERN = /^-?(0|[1-9][0-9]*)\.[0-9]{2}$/;
/** Quantity: non-negative, at most four decimals (spec §3.3.12.28). */
export const QUANTITY_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]{1,4})?$/;
/** VAT rate in percent, at most two decimals (`23.00`; Datapac messages also show `23`, `23.0`). */
export const VAT_RATE_PATTERN = /^(0|[1-9][0-9]?)(\.[0-9]{1,2})?$/;

/** Largest absolute amount the spec allows (−10 000 000 … 10 000 000). */
export const MAX_AMOUNT_CENTS = 1_000_000_000;

/** Cents of a money string, or undefined when it is not one (negative zero included). */
export function moneyCents(text: string): number | undefined {
  if (!MONEY_PATTERN.test(text) || text === '-0.00') return undefined;
  const negative = text.startsWith('-');
  const [whole, fraction] = (negative ? text.slice(1) : text).split('.') as [string, string];
  const cents = Number(whole) * 100 + Number(fraction);
  return negative ? -cents : cents;
}

/** `1234` cents → `12.34`; `-5` → `-0.05`. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Ten-thousandths of a quantity string, or undefined. */
export function quantityUnits(text: string): number | undefined {
  if (!QUANTITY_PATTERN.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

/** Hundredths of a percent of a VAT rate string (`23.00` → 2300), or undefined. */
export function rateHundredths(text: string): number | undefined {
  if (!VAT_RATE_PATTERN.test(text)) return undefined;
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** `numerator / denominator` rounded half away from zero (the spec's "half-up" for both signs). */
export function divideRounded(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new RangeError('divideRounded needs safe integers and a positive denominator');
  }
  const abs = Math.abs(numerator);
  const q = Math.floor((2 * abs + denominator) / (2 * denominator));
  return numerator < 0 ? -q : q;
}
