import { createCanvas } from '@napi-rs/canvas';
import { qrMatrix } from '../../adapters/receipt-image/qr-matrix.js';
import { registerReceiptFonts, resolveReceiptFonts } from '../../adapters/receipt-image/receipt-fonts.js';
import type { PrintedJob } from './escpos-paper.js';

const ADVANCE_PER_EM = 1233 / 2048;
const MARGIN = 12;

let family: string | undefined;

/**
 * A printed job as the paper looks: `paperDots` wide (384, 512 or 576 at 203 dpi), font A cells
 * 12×24 dots and font B 9×17 scaled to the paper, text in DejaVu Sans Mono, bit images dot for
 * dot, native QR codes drawn from their text.
 */
export function renderJobPng(job: PrintedJob, paperDots: number, charsFontA: number): Buffer {
  family ??= registerReceiptFonts(resolveReceiptFonts());
  const cellA = Math.floor(paperDots / charsFontA);
  const heights = job.elements.map((e) => {
    if (e.kind === 'line') {
      const h = Math.max(1, ...e.chars.map((c) => c.height));
      return (e.font === 1 ? Math.round(cellA * 1.42) : cellA * 2) * h;
    }
    if (e.kind === 'image') return e.height;
    if (e.kind === 'qr') return qrMatrix({ text: e.text, ecc: 'M', minVersion: 1 }).size * 6 + 12;
    return cellA * 2;
  });
  const height = MARGIN * 2 + heights.reduce((a, h) => a + h, 0);
  const canvas = createCanvas(paperDots, Math.max(height, 1));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, paperDots, height);
  ctx.fillStyle = '#000000';
  let y = MARGIN;
  job.elements.forEach((e, i) => {
    const h = heights[i] ?? 0;
    if (e.kind === 'line') {
      const cell = e.font === 1 ? Math.floor((cellA * 3) / 4) : cellA;
      const total = e.chars.reduce((a, c) => a + cell * c.width, 0);
      let x = e.align === 1 ? Math.floor((paperDots - total) / 2) : e.align === 2 ? paperDots - total : 0;
      for (const c of e.chars) {
        ctx.font = `${c.bold ? 'bold ' : ''}${(cell / ADVANCE_PER_EM) * c.height}px ${family}`;
        ctx.save();
        ctx.translate(x, y + Math.round(h * 0.8));
        ctx.scale(c.width / c.height, 1);
        if (c.ch !== ' ') ctx.fillText(c.ch, 0, 0);
        ctx.restore();
        x += cell * c.width;
      }
    } else if (e.kind === 'image') {
      const x0 =
        e.align === 1 ? Math.floor((paperDots - e.width) / 2) : e.align === 2 ? paperDots - e.width : 0;
      for (let r = 0; r < e.height; r++) {
        for (let c = 0; c < e.width; c++) if (e.dots[r * e.width + c]) ctx.fillRect(x0 + c, y + r, 1, 1);
      }
    } else if (e.kind === 'qr') {
      const m = qrMatrix({ text: e.text, ecc: 'M', minVersion: 1 });
      const x0 = Math.floor((paperDots - m.size * 6) / 2);
      for (let r = 0; r < m.size; r++) {
        for (let c = 0; c < m.size; c++) if (m.dark(r, c)) ctx.fillRect(x0 + c * 6, y + 6 + r * 6, 6, 6);
      }
    } else {
      ctx.font = `${cellA / ADVANCE_PER_EM}px ${family}`;
      ctx.fillText(`|||| ${e.text} ||||`, 0, y + Math.round(h * 0.8));
    }
    y += h;
  });
  return canvas.toBuffer('image/png');
}
