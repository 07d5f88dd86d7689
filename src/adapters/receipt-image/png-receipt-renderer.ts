import { type Canvas, createCanvas } from '@napi-rs/canvas';
import type { ReceiptBlock, ReceiptLayout, TextBlock } from '../../core/receipt/receipt-blocks.js';
import { type Glyph, GlyphCache } from './glyph-cache.js';
import { encodePng } from './png-encode.js';
import { decodePngRgba, type RgbaImage } from './png-rgba.js';
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
 *
 * The paper is a grey bitmap (RGB only when a logo has colour): each character is drawn once by
 * the canvas and copied into place ({@link GlyphCache}), rules and QR modules are filled
 * rectangles, and the PNG is written here ({@link encodePng}) — the canvas drawing ~2,000
 * characters one by one and then encoding RGBA took ~30 ms of CPU per receipt (capability 13).
 */
export class PngReceiptRenderer {
  private readonly family: string;
  private readonly glyphs: GlyphCache;

  /** `fontDir`: a folder with DejaVuSansMono.ttf and -Bold.ttf; default: the shipped fonts. */
  constructor(options: { fontDir?: string } = {}) {
    this.family = registerReceiptFonts(resolveReceiptFonts(options.fontDir));
    this.glyphs = new GlyphCache(this.family);
  }

  render(layout: ReceiptLayout, options: PngRenderOptions): RenderedReceipt {
    const grid = gridFor(layout.width, options.paperWidthPx);
    const images = new Map<string, RgbaImage>();
    for (const block of layout.blocks) {
      if (block.kind !== 'image' || images.has(block.ref)) continue;
      const png = options.images?.get(block.ref);
      if (png !== undefined)
        images.set(block.ref, imagePixels(png, options.paperWidthPx - 2 * SIDE_MARGIN_PX));
    }
    const heights = layout.blocks.map((b) => blockHeight(b, grid, images));
    const height = TOP_BOTTOM_PX * 2 + heights.reduce((a, h) => a + h, 0);
    const paper = new Paper(options.paperWidthPx, height);
    const qrCodes: QrPlacement[] = [];
    let y = TOP_BOTTOM_PX;
    layout.blocks.forEach((block, i) => {
      this.drawBlock(paper, block, y, grid, images, qrCodes);
      y += heights[i] ?? 0;
    });
    return { png: paper.png(), width: options.paperWidthPx, height, qrCodes };
  }

  private drawBlock(
    paper: Paper,
    block: ReceiptBlock,
    y: number,
    grid: Grid,
    images: Map<string, RgbaImage>,
    qrCodes: QrPlacement[],
  ): void {
    switch (block.kind) {
      case 'text':
        this.drawText(paper, block, y, grid);
        return;
      case 'separator': {
        const mid = y + Math.floor(grid.lineHeight / 2);
        const right = grid.x0 + grid.cell * grid.width;
        if (block.style === 'double') {
          paper.fillRect(grid.x0, mid - 3, right - grid.x0, 2);
          paper.fillRect(grid.x0, mid + 1, right - grid.x0, 2);
        } else paper.fillRect(grid.x0, mid - 1, right - grid.x0, 2);
        return;
      }
      case 'image': {
        const image = images.get(block.ref);
        if (image !== undefined) paper.putImage(image, Math.floor((grid.paperPx - image.width) / 2), y);
        return;
      }
      case 'qr':
        qrCodes.push(drawQr(paper, block, y, grid.paperPx));
        return;
      case 'feed':
      case 'cut':
        return;
    }
  }

  private drawText(paper: Paper, block: TextBlock, y: number, grid: Grid): void {
    const scale = block.size === 'double' ? 2 : 1;
    const cell = grid.cell * scale;
    const chars = Array.from(block.text.normalize('NFC'));
    const span = grid.cell * grid.width;
    const textWidth = cell * chars.length;
    let x = grid.x0;
    if (block.align === 'center') x += Math.floor((span - textWidth) / 2 / grid.cell) * grid.cell;
    if (block.align === 'right') x += span - textWidth;
    const fontPx = grid.fontPx * scale;
    const lineHeight = grid.lineHeight * scale;
    const baseline = y + Math.round(lineHeight * 0.78);
    // Character by character on the grid: the columns of the layout stay exact whatever the font.
    chars.forEach((ch, i) => {
      if (ch !== ' ')
        paper.putGlyph(this.glyphs.glyph(ch, block.bold, fontPx, cell, lineHeight), x + i * cell, baseline);
    });
  }
}

/** The paper being drawn: grey, 255 = white; RGB once a coloured image is put on it. */
class Paper {
  private grey: Uint8Array;
  private rgb: Uint8Array | undefined;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.grey = new Uint8Array(width * height).fill(255);
  }

  /** Black, clipped to the paper (what the canvas' fillRect did with integer coordinates). */
  fillRect(x: number, y: number, w: number, h: number): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++) {
      if (x1 > x0) this.grey.fill(0, row * this.width + x0, row * this.width + x1);
      if (this.rgb && x1 > x0) this.rgb.fill(0, (row * this.width + x0) * 3, (row * this.width + x1) * 3);
    }
  }

  /** Black ink of a glyph over what is there (multiplied: overlapping ink darkens as on canvas). */
  putGlyph(g: Glyph, penX: number, baseline: number): void {
    for (let gy = 0; gy < g.height; gy++) {
      const y = baseline + g.dy + gy;
      if (y < 0 || y >= this.height) continue;
      for (let gx = 0; gx < g.width; gx++) {
        const x = penX + g.dx + gx;
        const v = g.grey[gy * g.width + gx]!;
        if (v === 255 || x < 0 || x >= this.width) continue;
        const i = y * this.width + x;
        this.grey[i] = ((this.grey[i]! * v + 127) / 255) | 0;
        if (this.rgb) {
          for (let c = 0; c < 3; c++) this.rgb[i * 3 + c] = ((this.rgb[i * 3 + c]! * v + 127) / 255) | 0;
        }
      }
    }
  }

  /** An opaque image copied in place (logos are flattened onto white when decoded). */
  putImage(image: RgbaImage, left: number, top: number): void {
    const colour = !isGrey(image);
    if (colour && !this.rgb) {
      this.rgb = new Uint8Array(this.width * this.height * 3);
      for (let i = 0; i < this.grey.length; i++) this.rgb.fill(this.grey[i]!, i * 3, i * 3 + 3);
    }
    for (let iy = 0; iy < image.height; iy++) {
      const y = top + iy;
      if (y < 0 || y >= this.height) continue;
      for (let ix = 0; ix < image.width; ix++) {
        const x = left + ix;
        if (x < 0 || x >= this.width) continue;
        const s = (iy * image.width + ix) * 4;
        const i = y * this.width + x;
        this.grey[i] = image.data[s]!;
        if (this.rgb) {
          this.rgb[i * 3] = image.data[s]!;
          this.rgb[i * 3 + 1] = image.data[s + 1]!;
          this.rgb[i * 3 + 2] = image.data[s + 2]!;
        }
      }
    }
  }

  png(): Buffer {
    return this.rgb
      ? encodePng(this.rgb, this.width, this.height, 3)
      : encodePng(this.grey, this.width, this.height, 1);
  }
}

function isGrey(image: RgbaImage): boolean {
  const d = image.data;
  for (let i = 0; i < d.length; i += 4) if (d[i] !== d[i + 1] || d[i] !== d[i + 2]) return false;
  return true;
}

function blockHeight(block: ReceiptBlock, grid: Grid, images: Map<string, RgbaImage>): number {
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
  paper: Paper,
  block: Extract<ReceiptBlock, { kind: 'qr' }>,
  y: number,
  paperPx: number,
): QrPlacement {
  const { matrix, modulePx, quiet } = qrGeometry(block, paperPx);
  const x = Math.floor((paperPx - matrix.size * modulePx) / 2);
  const top = y + quiet * modulePx;
  for (let r = 0; r < matrix.size; r++) {
    for (let c = 0; c < matrix.size; c++) {
      if (matrix.dark(r, c)) paper.fillRect(x + c * modulePx, top + r * modulePx, modulePx, modulePx);
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

/**
 * A logo's pixels, scaled down (never up) to the printable width by the canvas; opaque (the PNG is
 * flattened onto white when decoded). Kept per logo and width: the same logo heads every receipt.
 */
function imagePixels(png: Uint8Array, maxWidth: number): RgbaImage {
  const known = scaledLogos.get(png)?.get(maxWidth);
  if (known) return known;
  const rgba = decodePngRgba(png);
  let pixels: RgbaImage = rgba;
  if (rgba.width > maxWidth) {
    const source = createCanvas(rgba.width, rgba.height);
    const sctx = source.getContext('2d');
    const data = sctx.createImageData(rgba.width, rgba.height);
    data.data.set(rgba.data);
    sctx.putImageData(data, 0, 0);
    const height = Math.max(1, Math.round((rgba.height * maxWidth) / rgba.width));
    const scaled: Canvas = createCanvas(maxWidth, height);
    const ctx = scaled.getContext('2d');
    ctx.drawImage(source, 0, 0, maxWidth, height);
    pixels = { width: maxWidth, height, data: new Uint8Array(ctx.getImageData(0, 0, maxWidth, height).data) };
  }
  const byWidth = scaledLogos.get(png) ?? new Map<number, RgbaImage>();
  byWidth.set(maxWidth, pixels);
  scaledLogos.set(png, byWidth);
  return pixels;
}

const scaledLogos = new WeakMap<Uint8Array, Map<number, RgbaImage>>();

/** The paper a line width implies: up to 32 characters is 58 mm paper, more is 80 mm. */
export function paperWidthFor(charsPerLine: number): PaperWidthPx {
  return charsPerLine <= 32 ? 384 : 576;
}
