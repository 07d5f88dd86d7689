import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { EscPosEncoder } from '../../src/adapters/printer/escpos-encoder.js';
import { PngReceiptRenderer } from '../../src/adapters/receipt-image/png-receipt-renderer.js';
import { qrMatrix } from '../../src/adapters/receipt-image/qr-matrix.js';
import { DEFAULT_PROFILE } from '../../src/config/printer-profile.js';
import { layoutReceipt } from '../../src/core/receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../../src/core/receipt/sample-receipts.js';
import { msSince, type Summary, summarize } from '../lib/stats.js';

export interface RenderRun {
  png: Summary;
  /** zlib (level 3) of the receipt's grey pixels: what compressing that many bytes costs at least. */
  pngFloorMs: number;
  /** CPU time per PNG (mean), ms: what the receipt costs without the machine's other work. */
  pngCpuMs: number;
  pngBytes: number;
  escpos: Summary;
  /** The receipt's QR symbol alone (qrcode package): part of every job's bytes. */
  escposFloorMs: number;
  escposCpuMs: number;
  escposBytes: number;
}

function repeat(times: number, fn: () => void): Summary & { cpuMs: number } {
  const samples: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < times; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(msSince(t0));
  }
  const cpu = process.cpuUsage(cpu0);
  return { ...summarize(samples), cpuMs: (cpu.user + cpu.system) / 1000 / times };
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
  for (let i = 0; i < 20; i++) renderer.render(layout, { paperWidthPx: 576 }); // warm-up (JIT, glyphs)
  const png = repeat(times, () => renderer.render(layout, { paperWidthPx: 576 }));
  const decoded = PNG.sync.read(first.png);
  const grey = Buffer.alloc((first.width + 1) * first.height);
  for (let p = 0, q = 0; p < decoded.data.length; p += 4) {
    if (p % (first.width * 4) === 0) grey[q++] = 0;
    grey[q++] = decoded.data[p]!;
  }
  const deflate = repeat(times, () => deflateSync(grey, { level: 3 }));
  const job = encoder.encode(layout);
  const escpos = repeat(times, () => encoder.encode(layout));
  const qr = layout.blocks.find((b) => b.kind === 'qr');
  const qrOnly = repeat(times, () => {
    if (qr?.kind === 'qr') qrMatrix(qr);
  });
  return {
    png,
    pngFloorMs: deflate.p50,
    pngCpuMs: png.cpuMs,
    pngBytes: first.png.length,
    escpos,
    escposFloorMs: qrOnly.p50,
    escposCpuMs: escpos.cpuMs,
    escposBytes: job.bytes.length,
  };
}
