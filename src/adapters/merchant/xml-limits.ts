/**
 * Bounds on the merchant XML files (ADR 0602: bounded work for untrusted input). The SFS files are
 * a few KiB with a few dozen elements, at most six levels deep; the authentication data also
 * carries the keystore in Base64 (at most 64 KiB of keystore, ADR 0602, so about 88 KiB of text).
 * Past these bounds a file is refused before the XML parser sees it: parsing 16,000 elements or
 * 10,000 levels takes the parser a few hundred milliseconds of the event loop.
 */
export const XML_LIMITS = {
  /** UTF-8 bytes of the identification data. */
  identificationBytes: 64 * 1024,
  /** UTF-8 bytes of the authentication data (the keystore in Base64 inside). */
  authenticationBytes: 128 * 1024,
  /** Elements in one file. */
  elements: 1_000,
  /** Elements nested in one another (the root is level 1). */
  depth: 32,
} as const;

/** What the scan found beyond a bound, as a sentence tail ("…: <reason>"). */
export type XmlLimitBreach = string;

/**
 * Counts the elements and the nesting of `text` in one linear pass, without building anything, and
 * returns why it breaks {@link XML_LIMITS}, or undefined. Comments, CDATA sections, processing
 * instructions and quoted attribute values are skipped; malformed XML is left to the parser, which
 * then only sees a bounded amount of it.
 */
export function xmlShapeBreach(text: string): XmlLimitBreach | undefined {
  let elements = 0;
  let depth = 0;
  let i = text.indexOf('<');
  while (i !== -1 && i < text.length) {
    let end: number;
    if (text.startsWith('<!--', i)) end = after(text, '-->', i + 4);
    else if (text.startsWith('<![CDATA[', i)) end = after(text, ']]>', i + 9);
    else if (text.startsWith('<?', i)) end = after(text, '?>', i + 2);
    else if (text.startsWith('<!', i)) end = after(text, '>', i + 2);
    else if (text.startsWith('</', i)) {
      depth = Math.max(0, depth - 1);
      end = after(text, '>', i + 2);
    } else {
      end = tagEnd(text, i + 1);
      elements++;
      if (end === -1 || text.charCodeAt(end - 2) !== 0x2f /* '/' */) depth++;
      if (elements > XML_LIMITS.elements) return `more than ${XML_LIMITS.elements} elements`;
      if (depth > XML_LIMITS.depth) return `elements nested more than ${XML_LIMITS.depth} levels deep`;
    }
    if (end === -1) return undefined;
    i = text.indexOf('<', end);
  }
  return undefined;
}

/** The index just after `marker` at or after `from`, -1 when it never comes. */
function after(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at === -1 ? -1 : at + marker.length;
}

/** The index just after the `>` closing a start tag, skipping quoted attribute values. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return j + 1;
  }
  return -1;
}
