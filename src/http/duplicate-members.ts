/**
 * The path of the first object member that appears twice in its object (`['documentEntries', 0,
 * 'name']`), or undefined. `JSON.parse` keeps the last of two equal names silently; RFC 8259 §4
 * leaves such a text's meaning to the parser and I-JSON (RFC 7493 §2.3) forbids it, so kasa refuses
 * it (ADR 0425). Names are compared as the strings they spell (`"a"` and `"\u0061"` are one name).
 *
 * Call only on text `JSON.parse` accepted and {@link nestingDepth} bounded: the scan does not
 * re-check the syntax. One pass, strings skipped with `indexOf`; the names kept are at most the
 * body's own, and only for the objects still open (at most `MAX_JSON_DEPTH`).
 */
export function duplicateMember(text: string): Array<string | number> | undefined {
  const open: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const top = open.at(-1);
      if (top?.names !== undefined && top.expectName) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.expectName = false;
        top.at = name;
        if (top.names.has(name)) return open.map((f) => f.at);
        top.names.add(name);
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      open.push({ names: new Set(), expectName: true, at: '' });
    } else if (c === OPEN_ARRAY) {
      open.push({ names: undefined, expectName: false, at: 0 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA) {
      const top = open.at(-1);
      if (top === undefined) continue;
      if (top.names === undefined) top.at = (top.at as number) + 1;
      else top.expectName = true;
    }
  }
  return undefined;
}

/** An open object (its names so far, and the member being read) or array (the element's index). */
interface Frame {
  names: Set<string> | undefined;
  expectName: boolean;
  at: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Index of the quote closing the string that opens at `start` (one not escaped by a backslash). */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    if (end < 0) return text.length; // unclosed: not JSON.parse's text, nothing more to read
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}
