import {
  lineCapacity,
  printedLength,
  type ReceiptBlock,
  type ReceiptLayout,
  type TextAlign,
  type TextBlock,
} from './receipt-blocks.js';

export interface TextStyle {
  align?: TextAlign;
  bold?: boolean;
  size?: TextBlock['size'];
}

/** The narrowest and widest paper we lay out for (characters per line at normal size). */
export const MIN_RECEIPT_WIDTH = 24;
export const MAX_RECEIPT_WIDTH = 80;

/**
 * Accumulates layout blocks and does the character arithmetic (wrapping, label/value lines,
 * columns), so the receipt layout reads as a list of sections. Every text block it emits fits.
 */
export class LineBuilder {
  readonly width: number;
  private readonly blocks: ReceiptBlock[] = [];

  constructor(width: number) {
    if (!Number.isInteger(width) || width < MIN_RECEIPT_WIDTH || width > MAX_RECEIPT_WIDTH) {
      throw new RangeError(
        `receipt width must be an integer ${MIN_RECEIPT_WIDTH}–${MAX_RECEIPT_WIDTH}, got ${width}`,
      );
    }
    this.width = width;
  }

  /** Free text, word-wrapped; `\n` starts a new line, an empty line is kept. */
  wrapped(text: string, style: TextStyle = {}): this {
    const size = style.size ?? 'normal';
    const capacity = lineCapacity(this.width, size);
    for (const line of wrapText(text, capacity)) this.push(line, style);
    return this;
  }

  /** One line as given; it must fit (callers wrap first). */
  text(text: string, style: TextStyle = {}): this {
    if (printedLength(text) > lineCapacity(this.width, style.size ?? 'normal')) {
      throw new RangeError(`line longer than the paper: ${text}`);
    }
    return this.push(text, style);
  }

  /**
   * A heading: double size when it fits on one double line, else bold normal size (wrapped).
   * Narrow paper must not break "OFF-LINE DOKLAD" into pieces.
   */
  heading(text: string, align: TextAlign = 'center'): this {
    const fitsDouble = printedLength(text) <= lineCapacity(this.width, 'double');
    return this.wrapped(text, { align, bold: true, size: fitsDouble ? 'double' : 'normal' });
  }

  /**
   * `label` on the left, `value` on the right of one line; when both do not fit, the label goes on
   * its own line and the value follows right-aligned (hard-wrapped if longer than the line).
   */
  pair(label: string, value: string, style: { bold?: boolean } = {}): this {
    const bold = style.bold ?? false;
    const gap = this.width - printedLength(label) - printedLength(value);
    if (gap >= 1) return this.push(label + ' '.repeat(gap) + value, { bold });
    this.wrapped(label, { bold });
    for (const part of hardWrap(value, this.width)) this.push(part, { align: 'right', bold });
    return this;
  }

  /**
   * A code-like value after its label (`UID: O-…`): on the label's line when it fits, else the
   * label alone and the value below it, broken after `-` or `:` where possible (an OKP keeps its
   * groups whole) and hard-wrapped otherwise (a PKP is 344 characters of Base64).
   */
  code(label: string, value: string): this {
    if (printedLength(label) + 1 + printedLength(value) <= this.width) return this.push(`${label} ${value}`);
    this.push(label);
    for (const part of codeWrap(value, this.width)) this.push(part);
    return this;
  }

  /**
   * A table: first column left-aligned, the others right-aligned, spare width spread over the gaps.
   * A `{ label, value }` row spans the table: label left, value ending under the last column.
   * Returns false (and emits nothing) when the columns do not fit one line each.
   */
  table(rows: ReadonlyArray<TableRow>, boldRows: ReadonlySet<number> = new Set()): boolean {
    const cellRows = rows.filter((r): r is readonly string[] => Array.isArray(r));
    const columns = Math.max(...cellRows.map((r) => r.length));
    const widths = Array.from({ length: columns }, (_, c) =>
      Math.max(...cellRows.map((r) => printedLength(r[c] ?? ''))),
    );
    const used = widths.reduce((a, b) => a + b, 0) + (columns - 1);
    const spans = rows.filter((r): r is SpanRow => !Array.isArray(r));
    if (
      used > this.width ||
      spans.some((r) => printedLength(r.label) + 1 + printedLength(r.value) > this.width)
    ) {
      return false;
    }
    const spare = this.width - used;
    const gaps = columns - 1;
    const extra = widths.map((_, c) => {
      if (c === 0 || gaps === 0) return 0;
      // The first amount column takes the remainder so the last column ends at the margin.
      return Math.floor(spare / gaps) + (c === 1 ? spare % gaps : 0);
    });
    rows.forEach((row, r) => {
      const bold = boldRows.has(r);
      if (!isCells(row)) {
        this.pair(row.label, row.value, { bold });
        return;
      }
      const cells = widths.map((w, c) => {
        const cell = row[c] ?? '';
        return c === 0 ? padEnd(cell, w) : padStart(cell, w + (extra[c] ?? 0));
      });
      this.push(cells.join(' ').trimEnd(), { bold });
    });
    return true;
  }

  separator(style: 'single' | 'double' = 'single'): this {
    this.blocks.push({ kind: 'separator', style });
    return this;
  }

  qr(text: string, ecc: 'L' | 'M' | 'Q' | 'H', minVersion: number, minSizeMm: number): this {
    this.blocks.push({ kind: 'qr', text, ecc, minVersion, minSizeMm });
    return this;
  }

  image(ref: string): this {
    this.blocks.push({ kind: 'image', ref });
    return this;
  }

  feed(lines = 1): this {
    this.blocks.push({ kind: 'feed', lines });
    return this;
  }

  cut(): this {
    this.blocks.push({ kind: 'cut' });
    return this;
  }

  /** Blocks laid out before for this width (a receipt's head, ADR 1111), as they are. */
  append(blocks: readonly ReceiptBlock[]): this {
    for (const block of blocks) this.blocks.push(block);
    return this;
  }

  build(): ReceiptLayout {
    return { width: this.width, blocks: [...this.blocks] };
  }

  private push(text: string, style: TextStyle = {}): this {
    this.blocks.push({
      kind: 'text',
      text,
      align: style.align ?? 'left',
      bold: style.bold ?? false,
      size: style.size ?? 'normal',
    });
    return this;
  }
}

/** A table row: cells, or a label/value line spanning the table. */
export type TableRow = readonly string[] | SpanRow;
export interface SpanRow {
  readonly label: string;
  readonly value: string;
}

function isCells(row: TableRow): row is readonly string[] {
  return Array.isArray(row);
}

/**
 * Word wrap to `capacity` characters. A line that fits is kept as it is (a POS sends pre-formatted
 * columns aligned with spaces); a longer one is wrapped greedily at spaces, and words longer than a
 * line are split. `\n` starts a new line; an empty line is kept.
 */
export function wrapText(text: string, capacity: number): string[] {
  // One line that fits (most of a receipt's): the same answer as the loop below, without it.
  const nfc = text.normalize('NFC');
  if (!/[\r\n\t]/.test(nfc)) {
    const line = nfc.trimEnd();
    if (printedLength(line) <= capacity) return [line];
  }
  const out: string[] = [];
  for (const raw of text.normalize('NFC').replace(/\r\n?/g, '\n').split('\n')) {
    const paragraph = raw.replace(/\t/g, ' ').trimEnd();
    if (printedLength(paragraph) <= capacity) {
      out.push(paragraph);
      continue;
    }
    let line = '';
    for (const word of paragraph.split(/ +/).filter((w) => w !== '')) {
      for (const piece of hardWrap(word, capacity)) {
        if (line === '') line = piece;
        else if (printedLength(line) + 1 + printedLength(piece) <= capacity) line = `${line} ${piece}`;
        else {
          out.push(line);
          line = piece;
        }
      }
    }
    out.push(line);
  }
  return out;
}

/** Split a string into pieces of at most `capacity` characters (no word boundaries). */
export function hardWrap(text: string, capacity: number): string[] {
  const chars = Array.from(text.normalize('NFC'));
  if (chars.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += capacity) out.push(chars.slice(i, i + capacity).join(''));
  return out;
}

/** Wrap a code: break after `-` or `:` where possible, else at the capacity. */
export function codeWrap(text: string, capacity: number): string[] {
  const tokens =
    text
      .normalize('NFC')
      .match(/[^:-]*[:-]?/g)
      ?.filter((t) => t !== '') ?? [];
  const out: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (printedLength(line) + printedLength(token) <= capacity) {
      line += token;
      continue;
    }
    if (line !== '') out.push(line);
    const pieces = hardWrap(token, capacity);
    line = pieces.pop() ?? '';
    out.push(...pieces);
  }
  if (line !== '' || out.length === 0) out.push(line);
  return out;
}

function padStart(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - printedLength(text))) + text;
}

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - printedLength(text)));
}
