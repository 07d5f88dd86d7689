import CodepageEncoder, { type Codepage } from '@point-of-sale/codepage-encoder';

/**
 * Single-byte code pages of ESC/POS printers, as byte ↔ character tables. kasa prints Slovak in
 * PC852 (Latin 2) or Windows-1250, whichever the model has (ADR 0505); the printer simulator
 * decodes whatever `ESC t n` a job selects. Tables come from @point-of-sale/codepage-encoder.
 */
export interface CodepageTable {
  readonly name: string;
  /** Character → byte; only printable bytes (0x20–0x7E, 0x80–0xFF) are ever produced. */
  readonly toByte: ReadonlyMap<string, number>;
  /** Byte → character (U+FFFD where the page has none). */
  readonly toChar: readonly string[];
  /** `toByte` by UTF-16 code unit, −1 where the page has none (every page character is one unit). */
  readonly byCode: Int16Array;
}

const cache = new Map<string, CodepageTable>();

/** The table of a page by its codepage-encoder name (`cp852`, `windows1250`, `cp437`, …). */
export function codepageTable(name: string): CodepageTable {
  const known = cache.get(name);
  if (known) return known;
  if (!CodepageEncoder.supports(name)) throw new RangeError(`unknown code page ${name}`);
  const points = CodepageEncoder.getEncoding(name as Codepage).codepoints;
  const toChar: string[] = [];
  const toByte = new Map<string, number>();
  for (let b = 0; b < 256; b++) {
    const cp = b >= 0x20 && b < 0x7f ? b : (points[b] ?? 0xfffd);
    const ch = b < 0x20 || b === 0x7f ? '\ufffd' : String.fromCodePoint(cp);
    toChar.push(ch);
    if (ch !== '\ufffd' && !toByte.has(ch)) toByte.set(ch, b);
  }
  const byCode = new Int16Array(0x10000).fill(-1);
  for (const [ch, b] of toByte) if (ch.length === 1) byCode[ch.charCodeAt(0)] = b;
  const table = { name, toByte, toChar, byCode };
  cache.set(name, table);
  return table;
}

/** The code pages kasa prints with, by profile name. */
export const KASA_CODEPAGES = { cp852: 'cp852', cp1250: 'windows1250' } as const;

/**
 * Epson's `ESC t n` table (the numbers most ESC/POS printers follow) for the pages the simulator
 * understands; a number not here decodes as U+FFFD and is reported.
 */
export const EPSON_CODEPAGES: Readonly<Record<number, string>> = {
  0: 'cp437',
  2: 'cp850',
  3: 'cp860',
  4: 'cp863',
  5: 'cp865',
  16: 'windows1252',
  17: 'cp866',
  18: 'cp852',
  19: 'cp858',
  40: 'iso8859-15',
  45: 'windows1250',
  46: 'windows1251',
  47: 'windows1253',
  48: 'windows1254',
  49: 'windows1255',
  50: 'windows1256',
  51: 'windows1257',
  52: 'windows1258',
};

/**
 * Encodes one line. Returns undefined when a character is not in the page: the caller then prints
 * the line as an image rather than a silent `?` (capability 11; docs/printing.md).
 */
export function encodeLine(text: string, table: CodepageTable): Uint8Array | undefined {
  // Printable ASCII is already NFC and is itself in every page (codepageTable keeps the lowest byte
  // of a character, and 0x20–0x7E map to themselves): most of a receipt's lines, byte for byte.
  const out = new Uint8Array(text.length);
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) break;
    out[i] = c;
  }
  if (i === text.length) return out;
  // Otherwise the NFC form, one code unit at a time (a character outside the BMP is in no page).
  const normalized = text.normalize('NFC');
  const bytes = new Uint8Array(normalized.length);
  for (let k = 0; k < normalized.length; k++) {
    const b = table.byCode[normalized.charCodeAt(k)] as number;
    if (b < 0) return undefined;
    bytes[k] = b;
  }
  return bytes;
}

/** Decodes bytes the way a printer with this page prints them. */
export function decodeBytes(bytes: Uint8Array, table: CodepageTable): string {
  let s = '';
  for (const b of bytes) s += table.toChar[b] ?? '\ufffd';
  return s;
}
