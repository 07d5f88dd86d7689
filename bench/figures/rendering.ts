import { createCanvas } from '@napi-rs/canvas';
import { EscPosEncoder } from '../../src/adapters/printer/escpos-encoder.js';
import { PngReceiptRenderer } from '../../src/adapters/receipt-image/png-receipt-renderer.js';
import { qrMatrix } from '../../src/adapters/receipt-image/qr-matrix.js';
import { DEFAULT_PROFILE } from '../../src/config/printer-profile.js';
import { layoutReceipt } from '../../src/core/receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../../src/core/receipt/sample-receipts.js';
import { msSince, type Summary, summarize } from '../lib/stats.js';

export interface RenderRun {
  png: Summary;
  /** A blank PNG of the same size, encoded: what any PNG of the receipt costs at least. */
  pngFloorMs: number;
  pngBytes: number;
  escpos: Summary;
  /** The receipt's QR symbol alone (qrcode package): part of every job's bytes. */
  escposFloorMs: number;
  escposBytes: number;
}

function repeat(times: number, fn: () => void): Summary {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(msSince(t0));
  }
  return summarize(samples);
}

/**
 * The online sample receipt (`pdOnline`) at 48 characters on 80 mm paper, the default printer:
 * drawn as the electronic receipt's PNG and encoded as the ESC/POS bytes a printer receives.
 */
export function measureRendering(times = 200): RenderRun {
  const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOnline, DEFAULT_PROFILE.charsPerLine);
  const renderer = new PngReceiptRenderer();
  const encoder = new EscPosEncoder(DEFAULT_PROFILE);
  const first = renderer.render(layout, { paperWidthPx: 576 });
  const png = repeat(times, () => renderer.render(layout, { paperWidthPx: 576 }));
  const blank = repeat(times, () => {
    const canvas = createCanvas(first.width, first.height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, first.width, first.height);
    canvas.toBuffer('image/png');
  });
  const job = encoder.encode(layout);
  const escpos = repeat(times, () => encoder.encode(layout));
  const qr = layout.blocks.find((b) => b.kind === 'qr');
  const qrOnly = repeat(times, () => {
    if (qr?.kind === 'qr') qrMatrix(qr);
  });
  return {
    png,
    pngFloorMs: blank.p50,
    pngBytes: first.png.length,
    escpos,
    escposFloorMs: qrOnly.p50,
    escposBytes: job.bytes.length,
  };
}
