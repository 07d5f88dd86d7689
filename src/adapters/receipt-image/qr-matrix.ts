import QRCode from 'qrcode';
import type { QrBlock } from '../../core/receipt/receipt-blocks.js';
import { bestMask, remask } from './qr-mask.js';
import { qrSegments } from './qr-segments.js';

/** Thermal receipt printers print at 203 dots per inch (8 dots/mm). */
export const PRINTER_DPI = 203;

/** The modules of one QR symbol, as the `qrcode` package builds it. */
export interface QrMatrix {
  readonly text: string;
  readonly version: number;
  readonly ecc: QrBlock['ecc'];
  /** Modules per side. */
  readonly size: number;
  /** True for a dark module; row and column from 0. */
  dark(row: number, col: number): boolean;
}

/**
 * The QR symbol of a layout block: the smallest version that holds the text, but at least
 * `minVersion` (SFS spec §2.4: online version 3, offline version 5, level M).
 */
export function qrMatrix(block: Pick<QrBlock, 'text' | 'ecc' | 'minVersion'>): QrMatrix {
  // The smallest version that holds the text is minVersion whenever the text fits in it: build that
  // symbol at once (the same symbol as building the smallest and then again at minVersion, at half
  // the cost: a QR build with its mask choice is most of a receipt's encoding time).
  // Built with mask pattern 0, then the best pattern is chosen and applied by qr-mask.ts: the same
  // symbol the package's own search gives, at a fraction of its cost. The segments are chosen by
  // qr-segments.ts exactly as the package would choose them for that version (ADR 1111).
  let symbol: QRCode.QRCode;
  try {
    symbol = QRCode.create(packageSegments(block.text, block.minVersion), {
      errorCorrectionLevel: block.ecc,
      version: block.minVersion,
      maskPattern: 0,
    });
  } catch {
    symbol = QRCode.create(block.text, { errorCorrectionLevel: block.ecc, maskPattern: 0 });
  }
  const modules = symbol.modules;
  const { size, data, reservedBit } = modules;
  remask(data, reservedBit, size, block.ecc, bestMask(data, reservedBit, size, block.ecc));
  return {
    text: block.text,
    version: symbol.version,
    ecc: block.ecc,
    size: modules.size,
    dark: (row, col) => modules.get(row, col) === 1,
  };
}

/** Our segment choice in the package's form (byte segments as their UTF-8 bytes, as it writes them). */
function packageSegments(text: string, version: number): string | QRCode.QRCodeSegment[] {
  const segments = qrSegments(text, version);
  if (segments === undefined) return text;
  return segments.map((s) => (s.mode === 'byte' ? { mode: 'byte', data: UTF8.encode(s.data) } : s));
}

const UTF8 = new TextEncoder();

/** Dots per module so the symbol (without quiet zone) is at least `minSizeMm` wide at `dpi`. */
export function qrModuleDots(size: number, minSizeMm: number, dpi = PRINTER_DPI): number {
  const minDots = Math.ceil((minSizeMm / 25.4) * dpi);
  return Math.max(1, Math.ceil(minDots / size));
}
