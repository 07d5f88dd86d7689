/**
 * Character rules of the SFS messages (SFS spec §3.1, protocol reference §1.1): only ASCII 9, 10,
 * 13 and 32–126, except the attributes Name, Municipality, StreetName and the element Other, which
 * may hold any UTF-8. kasa refuses (701) what the SFS would refuse, before anything is stored.
 */

/** Number of characters (Unicode code points) — the XSD counts characters, not UTF-16 units. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Printable ASCII (32–126): identifiers sent to the SFS (InvoiceNumber, VoucherNumber, …). */
export function isPrintableAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * Free text that may be sent (Name) or printed: any Unicode except control characters other than
 * TAB, LF, CR, and except what XML 1.0 cannot carry (lone surrogates, U+FFFE, U+FFFF).
 */
export function isSafeText(
  text: string,
  options: { allowTab?: boolean; allowNewlines?: boolean } = {},
): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x09) {
      if (options.allowTab === false) return false;
      continue;
    }
    if (c === 0x0a || c === 0x0d) {
      if (options.allowNewlines === false) return false;
      continue;
    }
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f) || c === 0xfffe || c === 0xffff) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** True when the text has at least one character that is not white space. */
export function isNotBlank(text: string): boolean {
  return text.trim().length > 0;
}
