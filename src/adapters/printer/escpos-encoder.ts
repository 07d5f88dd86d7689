import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import type { QrBlock, ReceiptBlock, ReceiptLayout } from '../../core/receipt/receipt-blocks.js';
import { decodePngRgba, type RgbaImage } from '../receipt-image/png-rgba.js';
import { PRINTER_DPI, qrMatrix, qrModuleDots } from '../receipt-image/qr-matrix.js';

export interface EscPosOptions {
  /**
   * `raster` (default): the QR as a bitmap from the same matrix the PNG shows, so version, level
   * and size are exactly ours on every printer. `native`: the printer's own QR command (smaller
   * job; the printer picks the version, module size is chosen so the symbol stays ≥ 22 mm).
   */
  qrMode?: 'raster' | 'native';
  /** ESC t code-page table of the printer; `epson` (CP852 = 18) fits most ESC/POS printers. */
  codepageMapping?: 'epson' | 'star' | 'bixolon' | 'citizen' | 'xprinter' | 'pos-8360' | 'sunmi';
  /** Images by key (PNG bytes) for `image` blocks; a missing key prints nothing. */
  images?: ReadonlyMap<string, Uint8Array>;
  /** Lines fed before the cut so the last line clears the cutter. */
  feedBeforeCut?: number;
}

/** Columns the encoder library knows font A/B layouts for (58 mm: 32, 35, 42; 80 mm: 42, 44, 48). */
export const ESC_POS_WIDTHS: readonly number[] = [32, 35, 42, 44, 48];

/** CP852 (Latin 2) holds every Slovak letter; the layout's fixed wording is chosen to fit it. */
export const ESC_POS_CODEPAGE = 'cp852';

/**
 * Turns a laid-out receipt into the ESC/POS bytes a printer (or the CHDÚ pass-through) receives:
 * ESC @, the code page, each line with its style, the QR, a partial cut at every `cut` block.
 * Drawer kick (ESC p) comes right after ESC @ so the drawer opens while the receipt prints.
 */
export class EscPosEncoder {
  private readonly qrMode: 'raster' | 'native';
  private readonly mapping: NonNullable<EscPosOptions['codepageMapping']>;
  private readonly images: ReadonlyMap<string, Uint8Array>;
  private readonly feedBeforeCut: number;

  constructor(options: EscPosOptions = {}) {
    this.qrMode = options.qrMode ?? 'raster';
    this.mapping = options.codepageMapping ?? 'epson';
    this.images = options.images ?? new Map();
    this.feedBeforeCut = options.feedBeforeCut ?? 4;
  }

  encode(layout: ReceiptLayout, job: { openDrawer?: boolean } = {}): Uint8Array {
    if (!ESC_POS_WIDTHS.includes(layout.width)) {
      throw new RangeError(`ESC/POS paper has ${ESC_POS_WIDTHS.join(', ')} columns, not ${layout.width}`);
    }
    const e = new ReceiptPrinterEncoder({
      language: 'esc-pos',
      columns: layout.width,
      codepageMapping: this.mapping,
      newline: '\n',
      imageMode: 'raster',
      feedBeforeCut: this.feedBeforeCut,
    });
    e.initialize().codepage(ESC_POS_CODEPAGE);
    if (job.openDrawer === true) e.pulse();
    for (const block of layout.blocks) this.block(e, block, layout.width);
    const bytes = e.encode();
    // The library ends every line, the cut's too, with LF; after the final cut that LF would feed
    // the next receipt's paper, so the job ends with the cut itself.
    const n = bytes.length;
    const endsWithCutLf = n >= 4 && bytes[n - 4] === 0x1d && bytes[n - 3] === 0x56 && bytes[n - 1] === 0x0a;
    return endsWithCutLf ? bytes.slice(0, n - 1) : bytes;
  }

  private block(e: ReceiptPrinterEncoder, block: ReceiptBlock, width: number): void {
    switch (block.kind) {
      case 'text': {
        e.align(block.align).bold(block.bold);
        if (block.size === 'double') e.size(2, 2);
        // An empty line still advances the paper.
        e.text(block.text).newline();
        if (block.size === 'double') e.size(1, 1);
        if (block.bold) e.bold(false);
        e.align('left');
        return;
      }
      case 'separator':
        e.text((block.style === 'double' ? '=' : '-').repeat(width)).newline();
        return;
      case 'feed':
        e.newline(block.lines);
        return;
      case 'cut':
        e.cut('partial');
        return;
      case 'image': {
        const png = this.images.get(block.ref);
        if (png === undefined) return;
        const rgba = decodePngRgba(png);
        const maxWidth = e.printableWidth;
        const w = Math.min(rgba.width, maxWidth);
        const h = Math.max(1, Math.round((rgba.height * w) / rgba.width));
        e.align('center').image(imageInput(rgba), w, h, 'threshold', 128).align('left');
        return;
      }
      case 'qr':
        this.qr(e, block);
        return;
    }
  }

  private qr(e: ReceiptPrinterEncoder, block: QrBlock): void {
    e.align('center');
    if (this.qrMode === 'native') {
      // The printer chooses the version; size modules for the smallest symbol it could choose.
      const auto = qrMatrix({ ...block, minVersion: 1 });
      const size = Math.min(8, qrModuleDots(auto.size, block.minSizeMm, PRINTER_DPI));
      e.qrcode(block.text, { model: 2, size, errorlevel: block.ecc.toLowerCase() as 'l' | 'm' | 'q' | 'h' });
    } else {
      const bitmap = qrBitmap(block);
      e.image(imageInput(bitmap), bitmap.width, bitmap.height, 'threshold', 128);
    }
    e.newline().align('left');
  }
}

/** The encoder recognises a plain `{data, width, height}` object as image input. */
function imageInput(image: RgbaImage): { data: Uint8Array; width: number; height: number } {
  return { data: image.data, width: image.width, height: image.height };
}

/** The QR matrix as an RGBA bitmap at printer resolution, with a 2-module quiet zone. */
export function qrBitmap(block: QrBlock): RgbaImage {
  const matrix = qrMatrix(block);
  const dot = qrModuleDots(matrix.size, block.minSizeMm, PRINTER_DPI);
  const quiet = 2;
  const side = (matrix.size + 2 * quiet) * dot;
  const data = new Uint8Array(side * side * 4).fill(255);
  for (let r = 0; r < matrix.size; r++) {
    for (let c = 0; c < matrix.size; c++) {
      if (!matrix.dark(r, c)) continue;
      for (let dy = 0; dy < dot; dy++) {
        const row = (quiet + r) * dot + dy;
        for (let dx = 0; dx < dot; dx++) {
          const i = (row * side + (quiet + c) * dot + dx) * 4;
          data[i] = 0;
          data[i + 1] = 0;
          data[i + 2] = 0;
        }
      }
    }
  }
  return { width: side, height: side, data };
}
