import QRCode from 'qrcode';
import type { QrBlock } from '../../core/receipt/receipt-blocks.js';
import { bestMask, remask } from './qr-mask.js';
import { qrSegments } from './qr-segments.js';
import { buildQrSymbol } from './qr-symbol.js';

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
  // symbol at once (the same symbol as building the smallest and then again at minVersion).
  // Built with mask pattern 0, then the best pattern is chosen and applied by qr-mask.ts. The
  // segments (qr-segments.ts), the symbol (qr-symbol.ts) and the mask are each what the `qrcode`
  // package gives, built by kasa's own code on the store path (ADR 1111); a text too long for
  // minVersion goes to the package, which picks the version.
  const segments = qrSegments(block.text, block.minVersion);
  const own = segments === undefined ? undefined : buildQrSymbol(segments, block.minVersion, block.ecc);
  let version: number;
  let size: number;
  let data: Uint8Array;
  let reserved: Uint8Array;
  if (own !== undefined) {
    ({ version, size } = own);
    data = own.modules;
    reserved = own.reserved;
  } else {
    const symbol = packageSymbol(block);
    version = symbol.version;
    ({ size, data, reservedBit: reserved } = symbol.modules);
  }
  remask(data, reserved, size, block.ecc, bestMask(data, reserved, size, block.ecc));
  return {
    text: block.text,
    version,
    ecc: block.ecc,
    size,
    dark: (row, col) => data[row * size + col] === 1,
  };
}

/** The package's symbol, pattern 0: at minVersion if the text fits, else the smallest that holds it. */
function packageSymbol(block: Pick<QrBlock, 'text' | 'ecc' | 'minVersion'>): QRCode.QRCode {
  try {
    return QRCode.create(block.text, {
      errorCorrectionLevel: block.ecc,
      version: block.minVersion,
      maskPattern: 0,
    });
  } catch {
    return QRCode.create(block.text, { errorCorrectionLevel: block.ecc, maskPattern: 0 });
  }
}

/** Dots per module so the symbol (without quiet zone) is at least `minSizeMm` wide at `dpi`. */
export function qrModuleDots(size: number, minSizeMm: number, dpi = PRINTER_DPI): number {
  const minDots = Math.ceil((minSizeMm / 25.4) * dpi);
  return Math.max(1, Math.ceil(minDots / size));
}
