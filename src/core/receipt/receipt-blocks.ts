/**
 * A laid-out receipt: what every output (ESC/POS bytes, PNG image, plain text) consumes. The
 * layout decides every line break, so the outputs cannot disagree on content: each `text` block is
 * exactly one printed line that fits the width.
 */
export interface ReceiptLayout {
  /** Characters per line at normal size (e.g. 32 on 58 mm paper, 42 or 48 on 80 mm). */
  readonly width: number;
  readonly blocks: readonly ReceiptBlock[];
}

export type ReceiptBlock = TextBlock | SeparatorBlock | QrBlock | ImageBlock | FeedBlock | CutBlock;

export type TextAlign = 'left' | 'center' | 'right';

/**
 * One printed line. At `normal` size it has at most `width` characters; at `double` size (double
 * width and height) at most `floor(width / 2)`. Leading/trailing spaces inside `text` are kept
 * (columns are padded with spaces by the layout).
 */
export interface TextBlock {
  readonly kind: 'text';
  readonly text: string;
  readonly align: TextAlign;
  readonly bold: boolean;
  readonly size: 'normal' | 'double';
}

/** A full-width rule: `single` prints as `-`, `double` as `=`. */
export interface SeparatorBlock {
  readonly kind: 'separator';
  readonly style: 'single' | 'double';
}

/**
 * A QR code, centred. SFS spec §2.4: at least 22 mm printed; online version 3 level M, offline
 * version 5 level M recommended. `minVersion` is raised automatically when the text needs more.
 */
export interface QrBlock {
  readonly kind: 'qr';
  readonly text: string;
  readonly ecc: 'L' | 'M' | 'Q' | 'H';
  readonly minVersion: number;
  readonly minSizeMm: number;
}

/** An image known by key (e.g. the stored logo), centred; renderers skip a key they do not have. */
export interface ImageBlock {
  readonly kind: 'image';
  readonly ref: string;
}

/** Empty lines. */
export interface FeedBlock {
  readonly kind: 'feed';
  readonly lines: number;
}

/** End of the paper document: the printer cuts here. */
export interface CutBlock {
  readonly kind: 'cut';
}

/** Characters a text block may hold at its size. */
export function lineCapacity(width: number, size: TextBlock['size']): number {
  return size === 'double' ? Math.floor(width / 2) : width;
}

/** Length in characters as printed (code points, NFC), which is what a line's capacity counts. */
export function printedLength(text: string): number {
  // ASCII is its own NFC form, one code point a unit: most of a receipt's strings, counted as is.
  let i = 0;
  while (i < text.length && text.charCodeAt(i) < 0x80) i++;
  if (i === text.length) return text.length;
  // Otherwise code points of the NFC form: code units less one per surrogate pair.
  const s = text.normalize('NFC');
  let n = s.length;
  for (let k = 0; k < s.length - 1; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(k + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        k++;
      }
    }
  }
  return n;
}
