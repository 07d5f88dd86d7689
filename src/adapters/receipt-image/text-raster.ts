import { createCanvas } from '@napi-rs/canvas';
import type { TextBlock } from '../../core/receipt/receipt-blocks.js';
import type { RgbaImage } from './png-rgba.js';
import { registerReceiptFonts, resolveReceiptFonts } from './receipt-fonts.js';

/** DejaVu Sans Mono's advance is 1233/2048 em (as in the PNG renderer). */
const ADVANCE_PER_EM = 1233 / 2048;

let family: string | undefined;

/**
 * One text line as a black-and-white bitmap the full printable width (a multiple of 8 dots): what
 * a printer without a Slovak code page prints instead of text (profile `codepage=raster`), and
 * what any printer prints for a line holding a character its code page lacks. Same grid as the
 * receipt PNG: `width` columns, font A cells twice as high as wide.
 */
export function rasterTextLine(block: TextBlock, width: number, paperDots: number): RgbaImage {
  family ??= registerReceiptFonts(resolveReceiptFonts());
  const dots = Math.floor(paperDots / 8) * 8;
  const cell = Math.floor(dots / width);
  const scale = block.size === 'double' ? 2 : 1;
  const height = cell * 2 * scale;
  const canvas = createCanvas(dots, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, dots, height);
  ctx.fillStyle = '#000000';
  const chars = Array.from(block.text.normalize('NFC'));
  const span = cell * width;
  const textWidth = cell * scale * chars.length;
  let x = Math.floor((dots - span) / 2);
  if (block.align === 'center') x += Math.max(0, Math.floor((span - textWidth) / 2 / cell) * cell);
  if (block.align === 'right') x += Math.max(0, span - textWidth);
  ctx.font = `${block.bold ? 'bold ' : ''}${(cell / ADVANCE_PER_EM) * scale}px ${family}`;
  const baseline = Math.round(height * 0.78);
  chars.forEach((ch, i) => {
    if (ch !== ' ') ctx.fillText(ch, x + i * cell * scale, baseline);
  });
  const data = ctx.getImageData(0, 0, dots, height).data;
  // Thermal dots are on or off: anti-aliased edges become black from half grey on.
  const out = new Uint8Array(dots * height * 4);
  for (let i = 0; i < out.length; i += 4) {
    const v = (data[i] ?? 255) < 128 ? 0 : 255;
    out[i] = v;
    out[i + 1] = v;
    out[i + 2] = v;
    out[i + 3] = 255;
  }
  return { width: dots, height, data: out };
}
