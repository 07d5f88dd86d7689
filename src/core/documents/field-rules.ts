import { invalidInput } from '../fiscal-error.js';
import { formatCents, toScaledInteger } from './decimal.js';
import { LIMITS } from './limits.js';
import { charCount, isNotBlank, isPrintableAscii, isSafeText } from './text-rules.js';

/**
 * Small readers for one request field each. Every one throws a FiscalError 701 naming the field
 * path and the rule (`invalidInput`); `null` and `undefined` mean "absent" for optional fields.
 */

export function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** A JSON number with at most `scale` decimals and |value| ≤ maxAbs (in units of 10^-scale). */
export function readScaled(
  value: unknown,
  field: string,
  scale: number,
  maxAbs: bigint,
  what: string,
): bigint {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidInput(field, 'must be a number');
  const units = toScaledInteger(value, scale);
  if (units === undefined) throw invalidInput(field, `${what} must have at most ${scale} decimal places`);
  if (units > maxAbs || units < -maxAbs) {
    throw invalidInput(
      field,
      `${what} must be between -${formatScaledLimit(maxAbs, scale)} and ${formatScaledLimit(maxAbs, scale)}`,
    );
  }
  return units;
}

function formatScaledLimit(maxAbs: bigint, scale: number): string {
  return (maxAbs / 10n ** BigInt(scale)).toString();
}

/** An amount in cents: 2 decimals, |amount| ≤ 10 000 000 (SFS Amount range). */
export function readAmountCents(value: unknown, field: string): number {
  return Number(readScaled(value, field, 2, LIMITS.maxAbsAmountCents, 'an amount'));
}

/** Describes cents for a message: `12.30`. */
export function centsText(cents: number): string {
  return formatCents(cents);
}

export function readBoolean(value: unknown, field: string): boolean {
  if (isAbsent(value)) return false;
  if (typeof value !== 'boolean') throw invalidInput(field, 'must be true or false');
  return value;
}

export function readOptionalString(value: unknown, field: string): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') throw invalidInput(field, 'must be a string');
  return value;
}

/** An optional string where `""` also means absent. */
export function readOptionalNonEmpty(value: unknown, field: string): string | undefined {
  const text = readOptionalString(value, field);
  return text === '' ? undefined : text;
}

/**
 * A string sent to the SFS as an identifier: 1–max characters of printable ASCII (SFS §3.1).
 * An empty string counts as absent (many POS clients send `""` for "none").
 */
export function readAsciiId(value: unknown, field: string, max: number): string | undefined {
  const text = readOptionalString(value, field);
  if (text === undefined || text === '') return undefined;
  if (text.length < 1 || text.length > max) throw invalidInput(field, `must be 1–${max} characters`);
  if (!isPrintableAscii(text)) {
    throw invalidInput(
      field,
      'must contain only printable ASCII characters (SFS allows no other characters here)',
    );
  }
  if (!isNotBlank(text)) throw invalidInput(field, 'must not be blank');
  return text;
}

/** A free text: 1–max characters (code points), no control characters; `""` counts as absent. */
export function readText(
  value: unknown,
  field: string,
  max: number,
  options: { allowNewlines: boolean; allowTab: boolean },
): string | undefined {
  const text = readOptionalString(value, field);
  if (text === undefined || text === '') return undefined;
  const n = charCount(text);
  if (n < 1 || n > max) throw invalidInput(field, `must be 1–${max} characters`);
  if (!isSafeText(text, options)) throw invalidInput(field, 'must not contain control characters');
  return text;
}

/** A POS id (`externalId`): 1–50 characters, no control characters. Not sent to the SFS. */
export function readExternalId(value: unknown, field: string): string | undefined {
  return readText(value, field, LIMITS.externalIdMaxChars, { allowNewlines: false, allowTab: false });
}
