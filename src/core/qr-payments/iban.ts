/**
 * IBAN rules for the merchant's notification account (ISO 13616): upper case, no spaces, two
 * letters, two check digits, up to 30 letters or digits, and the mod-97 check. The Payme link
 * (SBA Payment Link Standard v2, `IBAN` at most 34) and the NOP integrity hash both use the
 * normalised form (ADR 0901).
 */
const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** Upper case with spaces removed (`sk31 1200 …` → `SK311200…`). */
export function normalizeIban(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** True when `iban` (already normalised) has the IBAN shape and passes the mod-97 check. */
export function isValidIban(iban: string): boolean {
  if (!IBAN_SHAPE.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}
