/**
 * Exact decimal arithmetic on scaled integers (ADR 0400). Money and quantities never live in
 * binary floating point: a JSON number is read from its shortest decimal representation (the
 * text `Number.prototype.toString` gives, which round-trips to the same double) and turned into
 * an integer count of 10^-scale units. Amounts use scale 2 (cents), quantities 4, unit prices 6.
 */

/** Scale of amounts (SFS `Amount`, item `Price`): cents. */
export const AMOUNT_SCALE = 2;
/** Scale of quantities (SFS `Quantity`, 4 places). */
export const QUANTITY_SCALE = 4;
/** Scale of API unit prices (ADR 0400: up to 6 decimals). */
export const UNIT_PRICE_SCALE = 6;

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

const POW10: bigint[] = [];
/** 10^n as a bigint (n ≥ 0). */
export function pow10(n: number): bigint {
  let p = POW10[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    POW10[n] = p;
  }
  return p;
}

/**
 * The value of a JSON number as an integer count of 10^-scale units, or undefined when the
 * number is not finite or has more decimals than `scale`. `0.1` at scale 2 is `10n`;
 * `0.30000000000000004` (0.1 + 0.2 in floating point) has 17 decimals and is refused.
 */
export function toScaledInteger(value: number, scale: number): bigint | undefined {
  if (!Number.isFinite(value)) return undefined;
  const m = NUMBER_TEXT.exec(String(value));
  if (!m) return undefined;
  const [, sign, int, frac = '', exp = '0'] = m;
  const digits = BigInt(`${int}${frac}`);
  // value = digits × 10^exponent
  const exponent = Number(exp) - frac.length;
  let units: bigint;
  if (exponent + scale >= 0) {
    units = digits * pow10(exponent + scale);
  } else {
    const divisor = pow10(-(exponent + scale));
    if (digits % divisor !== 0n) return undefined;
    units = digits / divisor;
  }
  return sign === '-' ? -units : units;
}

/**
 * XSD lexical form of a scaled integer: `formatScaled(1230n, 2)` is `12.30`. With `minScale`
 * below `scale`, trailing zeros down to `minScale` places are dropped (`87.123000` → `87.123`).
 */
export function formatScaled(units: bigint | number, scale: number, minScale: number = scale): string {
  const u = typeof units === 'bigint' ? units : BigInt(units);
  const negative = u < 0n;
  const abs = negative ? -u : u;
  const text = abs.toString().padStart(scale + 1, '0');
  const int = text.slice(0, text.length - scale);
  let frac = text.slice(text.length - scale);
  while (frac.length > minScale && frac.endsWith('0')) frac = frac.slice(0, -1);
  const body = frac.length > 0 ? `${int}.${frac}` : int;
  return negative ? `-${body}` : body;
}

/** Formats cents as an SFS amount (`12.30`, `-0.50`). */
export function formatCents(cents: bigint | number): string {
  return formatScaled(cents, AMOUNT_SCALE);
}

/**
 * Scaled integer → JSON number for API responses. The number is parsed from the exact decimal
 * text, so it is the double nearest to the decimal value (no arithmetic on floats).
 */
export function scaledToNumber(units: bigint | number, scale: number): number {
  return Number(formatScaled(units, scale, 0));
}

/** Cents → JSON number (`1230` → `12.3`). */
export function centsToNumber(cents: bigint | number): number {
  return scaledToNumber(cents, AMOUNT_SCALE);
}

/**
 * Integer division rounded half away from zero (commercial rounding, ADR 0400): 0.125 → 0.13 and
 * −0.125 → −0.13, so a refund line is always the exact negative of the sale it returns.
 */
export function divRoundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
}

/**
 * Line total in cents of a unit price (scale 6) times a quantity (scale 4), rounded half away
 * from zero (ADR 0008 §10: the SFS `Price` is the line total). 87.123 × 1 → 87.12.
 */
export function lineTotalCents(unitPriceMicros: bigint, quantityUnits: bigint): bigint {
  const productScale = UNIT_PRICE_SCALE + QUANTITY_SCALE;
  return divRoundHalfAwayFromZero(unitPriceMicros * quantityUnits, pow10(productScale - AMOUNT_SCALE));
}

const CENTS_TEXT = /^(-?)(\d+)\.(\d{2})$/;

/** Cents of an SFS amount string as kasa writes it (`12.30`, `-0.50`); undefined otherwise. */
export function parseCentsText(text: string): number | undefined {
  const m = CENTS_TEXT.exec(text);
  if (!m) return undefined;
  const cents = Number(m[2]) * 100 + Number(m[3]);
  return m[1] === '-' ? -cents : cents;
}
