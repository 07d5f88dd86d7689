import type { TextBlock } from '../../core/receipt/receipt-blocks.js';
import { GlyphCache } from './glyph-cache.js';
import type { RgbaImage } from './png-rgba.js';
import { registerReceiptFonts, resolveReceiptFonts } from './receipt-fonts.js';

/** DejaVu Sans Mono's advance is 1233/2048 em (as in the PNG renderer). */
const ADVANCE_PER_EM = 1233 / 2048;

let glyphs: GlyphCache | undefined;

/**
 * One text line as a black-and-white bitmap the full printable width (a multiple of 8 dots): what
 * a printer without a Slovak code page prints instead of text (profile `codepage=raster`), and
 * what any printer prints for a line holding a character its code page lacks. Same grid as the
 * receipt PNG: `width` columns, font A cells twice as high as wide.
 *
 * The characters come from the glyph cache the PNG renderer uses (each drawn once by the canvas),
 * copied onto a plain byte array: a canvas and its pixel read-back per line held native memory
 * V8 does not see until its next collection, and a long document printed as raster lines (500
 * items of 255 characters: thousands of lines, encoded in one go) grew the process by hundreds of
 * MB (ADR 0121).
 */
export function rasterTextLine(block: TextBlock, width: number, paperDots: number): RgbaImage {
  glyphs ??= new GlyphCache(registerReceiptFonts(resolveReceiptFonts()));
  const dots = Math.floor(paperDots / 8) * 8;
  const cell = Math.floor(dots / width);
  const scale = block.size === 'double' ? 2 : 1;
  const height = cell * 2 * scale;
  const grey = new Uint8Array(dots * height).fill(255);
  const chars = Array.from(block.text.normalize('NFC'));
  const span = cell * width;
  const textWidth = cell * scale * chars.length;
  let x = Math.floor((dots - span) / 2);
  if (block.align === 'center') x += Math.max(0, Math.floor((span - textWidth) / 2 / cell) * cell);
  if (block.align === 'right') x += Math.max(0, span - textWidth);
  const fontPx = (cell / ADVANCE_PER_EM) * scale;
  const baseline = Math.round(height * 0.78);
  chars.forEach((ch, i) => {
    if (ch === ' ') return;
    const g = glyphs!.glyph(ch, block.bold, fontPx, cell * scale, height);
    const penX = x + i * cell * scale;
    for (let gy = 0; gy < g.height; gy++) {
      const y = baseline + g.dy + gy;
      if (y < 0 || y >= height) continue;
      for (let gx = 0; gx < g.width; gx++) {
        const px = penX + g.dx + gx;
        const v = g.grey[gy * g.width + gx]!;
        if (v === 255 || px < 0 || px >= dots) continue;
        const at = y * dots + px;
        grey[at] = ((grey[at]! * v + 127) / 255) | 0;
      }
    }
  });
  // Thermal dots are on or off: anti-aliased edges become black from half grey on.
  const out = new Uint8Array(dots * height * 4);
  for (let i = 0; i < grey.length; i++) {
    const v = grey[i]! < 128 ? 0 : 255;
    out[i * 4] = v;
    out[i * 4 + 1] = v;
    out[i * 4 + 2] = v;
    out[i * 4 + 3] = 255;
  }
  return { width: dots, height, data: out };
}
