import { createCanvas } from '@napi-rs/canvas';

/**
 * One character as the canvas draws it in black on white paper: grey values (255 = paper) of the
 * box of rows and columns it inks, placed `dx`, `dy` from the pen position (the character cell's
 * left edge on the text line's baseline).
 */
export interface Glyph {
  dx: number;
  dy: number;
  width: number;
  height: number;
  grey: Uint8Array;
}

const EMPTY: Glyph = { dx: 0, dy: 0, width: 0, height: 0, grey: new Uint8Array(0) };
/** A receipt uses a few dozen characters; more than this many kept and the cache starts again. */
const MAX_GLYPHS = 4096;

/**
 * The glyphs of the receipt font, each drawn once by the canvas (Skia, the same text renderer as
 * before) and then copied into every receipt that uses it (capability 13): a receipt has ~2,000
 * characters but only a few dozen distinct ones, and drawing them one by one was most of its time.
 * Pen positions are whole pixels, so a glyph drawn once looks the same wherever it is copied.
 */
export class GlyphCache {
  private readonly glyphs = new Map<string, Glyph>();

  constructor(private readonly family: string) {}

  /** `ch` in the receipt font at `fontPx` (bold or not); `cell` and `lineHeight` bound its box. */
  glyph(ch: string, bold: boolean, fontPx: number, cell: number, lineHeight: number): Glyph {
    const key = `${bold ? 'b' : 'r'}${fontPx}|${ch}`;
    let glyph = this.glyphs.get(key);
    if (glyph === undefined) {
      glyph = this.draw(ch, bold, fontPx, cell, lineHeight);
      if (this.glyphs.size >= MAX_GLYPHS) this.glyphs.clear();
      this.glyphs.set(key, glyph);
    }
    return glyph;
  }

  private draw(ch: string, bold: boolean, fontPx: number, cell: number, lineHeight: number): Glyph {
    // Room for a glyph reaching a cell beyond its own on either side, and a line above and below.
    const left = cell * 2;
    const top = lineHeight * 2;
    const width = cell * 5;
    const height = lineHeight * 5;
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.fillStyle = '#000000';
    ctx.font = `${bold ? 'bold ' : ''}${fontPx}px ${this.family}`;
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(ch, left, top);
    const rgba = ctx.getImageData(0, 0, width, height).data;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (rgba[(y * width + x) * 4]! === 255) continue;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    if (x1 < 0) return EMPTY;
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    const grey = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) grey[y * w + x] = rgba[((y0 + y) * width + x0 + x) * 4]!;
    }
    return { dx: x0 - left, dy: y0 - top, width: w, height: h, grey };
  }
}
