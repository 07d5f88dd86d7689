import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import type { ReceiptBlock, ReceiptLayout, TextBlock } from '../../core/receipt/receipt-blocks.js';
import { decodePngRgba } from './png-rgba.js';
import { PRINTER_DPI, qrMatrix, qrModuleDots } from './qr-matrix.js';
import { registerReceiptFonts, resolveReceiptFonts } from './receipt-fonts.js';

/** Printable widths in dots at 203 dpi: 58 mm paper (48 mm printable) and 80 mm paper (72 mm). */
export type PaperWidthPx = 384 | 512 | 576;

export interface PngRenderOptions {
  paperWidthPx: PaperWidthPx;
  /** Images by key (PNG bytes) for `image` blocks, e.g. `logo`; a missing key prints nothing. */
  images?: ReadonlyMap<string, Uint8Array>;
}

/** Where a QR was drawn, so tests (and tools) can read it back module by module. */
export interface QrPlacement {
  text: string;
  version: number;
  /** Modules per side. */
  size: number;
  /** Top-left corner of the first module (inside the quiet zone), in pixels. */
  x: number;
  y: number;
  modulePx: number;
  quietModules: number;
}

export interface RenderedReceipt {
  png: Buffer;
  width: number;
  height: number;
  qrCodes: QrPlacement[];
}

const SIDE_MARGIN_PX = 8;
const TOP_BOTTOM_PX = 16;
const QUIET_MODULES = 4;

/**
 * Draws a laid-out receipt as a PNG at printer resolution (203 dpi): the electronic receipt and the
 * virtual printer's paper. Text is DejaVu Sans Mono drawn cell by cell on the layout's character
 * grid; the QR is drawn module by module from the `qrcode` package's matrix, each module a whole
 * number of pixels, at least 22 mm wide (SFS spec §2.4). Same layout and options → same bytes.
 */
export class PngReceiptRenderer {
  private readonly family: string;

  /** `fontDir`: a folder with DejaVuSansMono.ttf and -Bold.ttf; default: the shipped fonts. */
  constructor(options: { fontDir?: string } = {}) {
    this.family = registerReceiptFonts(resolveReceiptFonts(options.fontDir));
  }

  render(layout: ReceiptLayout, options: PngRenderOptions): RenderedReceipt {
    const grid = gridFor(layout.width, options.paperWidthPx);
    const images = new Map<string, Canvas>();
    for (const block of layout.blocks) {
      if (block.kind !== 'image' || images.has(block.ref)) continue;
      const png = options.images?.get(block.ref);
      if (png !== undefined)
        images.set(block.ref, imageCanvas(png, options.paperWidthPx - 2 * SIDE_MARGIN_PX));
    }
    const heights = layout.blocks.map((b) => this.blockHeight(b, grid, images));
    const height = TOP_BOTTOM_PX * 2 + heights.reduce((a, h) => a + h, 0);
    const canvas = createCanvas(options.paperWidthPx, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, options.paperWidthPx, height);
    ctx.fillStyle = '#000000';
    const qrCodes: QrPlacement[] = [];
    let y = TOP_BOTTOM_PX;
    layout.blocks.forEach((block, i) => {
      this.drawBlock(ctx, block, y, grid, images, qrCodes);
      y += heights[i] ?? 0;
    });
    return { png: canvas.toBuffer('image/png'), width: options.paperWidthPx, height, qrCodes };
  }

  private blockHeight(block: ReceiptBlock, grid: Grid, images: Map<string, Canvas>): number {
    switch (block.kind) {
      case 'text':
        return block.size === 'double' ? grid.lineHeight * 2 : grid.lineHeight;
      case 'separator':
        return grid.lineHeight;
      case 'feed':
        return grid.lineHeight * block.lines;
      case 'cut':
        return 0;
      case 'image':
        return (images.get(block.ref)?.height ?? 0) + (images.has(block.ref) ? grid.lineHeight / 2 : 0);
      case 'qr': {
        const q = qrGeometry(block, grid.paperPx);
        return (q.matrix.size + 2 * q.quiet) * q.modulePx;
      }
    }
  }

  private drawBlock(
    ctx: SKRSContext2D,
    block: ReceiptBlock,
    y: number,
    grid: Grid,
    images: Map<string, Canvas>,
    qrCodes: QrPlacement[],
  ): void {
    switch (block.kind) {
      case 'text':
        this.drawText(ctx, block, y, grid);
        return;
      case 'separator': {
        const mid = y + Math.floor(grid.lineHeight / 2);
        const right = grid.x0 + grid.cell * grid.width;
        if (block.style === 'double') {
          ctx.fillRect(grid.x0, mid - 3, right - grid.x0, 2);
          ctx.fillRect(grid.x0, mid + 1, right - grid.x0, 2);
        } else ctx.fillRect(grid.x0, mid - 1, right - grid.x0, 2);
        return;
      }
      case 'image': {
        const image = images.get(block.ref);
        if (image !== undefined) ctx.drawImage(image, Math.floor((grid.paperPx - image.width) / 2), y);
        return;
      }
      case 'qr':
        qrCodes.push(drawQr(ctx, block, y, grid.paperPx));
        return;
      case 'feed':
      case 'cut':
        return;
    }
  }

  private drawText(ctx: SKRSContext2D, block: TextBlock, y: number, grid: Grid): void {
    const scale = block.size === 'double' ? 2 : 1;
    const cell = grid.cell * scale;
    const chars = Array.from(block.text.normalize('NFC'));
    const span = grid.cell * grid.width;
    const textWidth = cell * chars.length;
    let x = grid.x0;
    if (block.align === 'center') x += Math.floor((span - textWidth) / 2 / grid.cell) * grid.cell;
    if (block.align === 'right') x += span - textWidth;
    ctx.font = `${block.bold ? 'bold ' : ''}${grid.fontPx * scale}px ${this.family}`;
    ctx.textBaseline = 'alphabetic';
    const baseline = y + Math.round(grid.lineHeight * scale * 0.78);
    // Character by character on the grid: the columns of the layout stay exact whatever the font.
    chars.forEach((ch, i) => {
      if (ch !== ' ') ctx.fillText(ch, x + i * cell, baseline);
    });
  }
}

interface Grid {
  width: number;
  paperPx: number;
  cell: number;
  x0: number;
  lineHeight: number;
  fontPx: number;
}

/** DejaVu Sans Mono's advance is 1233/2048 em: the font size that makes one glyph one cell. */
const ADVANCE_PER_EM = 1233 / 2048;

function gridFor(width: number, paperPx: number): Grid {
  const cell = Math.floor((paperPx - 2 * SIDE_MARGIN_PX) / width);
  if (cell < 6) throw new RangeError(`${width} characters do not fit ${paperPx} px paper`);
  return {
    width,
    paperPx,
    cell,
    x0: Math.floor((paperPx - cell * width) / 2),
    // A printer's font A is 12×24 dots: line height twice the cell width.
    lineHeight: cell * 2,
    fontPx: Math.round((cell / ADVANCE_PER_EM) * 100) / 100,
  };
}

function qrGeometry(block: Extract<ReceiptBlock, { kind: 'qr' }>, paperPx: number) {
  const matrix = qrMatrix(block);
  let modulePx = qrModuleDots(matrix.size, block.minSizeMm, PRINTER_DPI);
  // A very long text cannot be both ≥ 22 mm and inside the paper with 4-module margins: keep it
  // on the paper (smaller quiet zone first, module size never below what the paper allows).
  while (modulePx > 1 && matrix.size * modulePx > paperPx) modulePx--;
  const quiet = Math.max(0, Math.min(QUIET_MODULES, Math.floor((paperPx / modulePx - matrix.size) / 2)));
  return { matrix, modulePx, quiet };
}

function drawQr(
  ctx: SKRSContext2D,
  block: Extract<ReceiptBlock, { kind: 'qr' }>,
  y: number,
  paperPx: number,
): QrPlacement {
  const { matrix, modulePx, quiet } = qrGeometry(block, paperPx);
  const x = Math.floor((paperPx - matrix.size * modulePx) / 2);
  const top = y + quiet * modulePx;
  for (let r = 0; r < matrix.size; r++) {
    for (let c = 0; c < matrix.size; c++) {
      if (matrix.dark(r, c)) ctx.fillRect(x + c * modulePx, top + r * modulePx, modulePx, modulePx);
    }
  }
  return {
    text: block.text,
    version: matrix.version,
    size: matrix.size,
    x,
    y: top,
    modulePx,
    quietModules: quiet,
  };
}

/** A logo as a canvas, scaled down (never up) to the printable width. */
function imageCanvas(png: Uint8Array, maxWidth: number): Canvas {
  const rgba = decodePngRgba(png);
  const source = createCanvas(rgba.width, rgba.height);
  const sctx = source.getContext('2d');
  const data = sctx.createImageData(rgba.width, rgba.height);
  data.data.set(rgba.data);
  sctx.putImageData(data, 0, 0);
  if (rgba.width <= maxWidth) return source;
  const height = Math.max(1, Math.round((rgba.height * maxWidth) / rgba.width));
  const scaled = createCanvas(maxWidth, height);
  scaled.getContext('2d').drawImage(source, 0, 0, maxWidth, height);
  return scaled;
}

/** The paper a line width implies: up to 32 characters is 58 mm paper, more is 80 mm. */
export function paperWidthFor(charsPerLine: number): PaperWidthPx {
  return charsPerLine <= 32 ? 384 : 576;
}
