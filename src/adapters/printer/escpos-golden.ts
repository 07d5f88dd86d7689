import { createHash } from 'node:crypto';
import { PROFILE_WIDTHS, type PrinterProfile, parsePrinterProfile } from '../../config/printer-profile.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import type { ReceiptView } from '../../core/receipt/receipt-model.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS, type SampleReceiptName } from '../../core/receipt/sample-receipts.js';
import { encodePng } from '../receipt-image/logo-image.js';
import { EscPosEncoder } from './escpos-encoder.js';

/**
 * Test support (not used by kasa itself): a digest of everything the printer path produces for one
 * sample receipt — its layout at every paper width, its `.txt`, and its ESC/POS job (bytes, units,
 * prelude, raster lines) for every printer profile, with and without the drawer kick and the logo.
 * `escpos-golden.test.ts` keeps the digests the code gave before the store path was made faster
 * (ADR 1111), so a faster path that answers differently fails there.
 */
export function printPathDigest(name: SampleReceiptName): string {
  const hash = createHash('sha256');
  const base = SAMPLE_RECEIPTS[name];
  const views: ReceiptView[] = [base, { ...base, logoRef: 'logo' }];
  for (const view of views) {
    for (const width of [24, 32, 42, 48, 56, 64, 80]) {
      const layout = layoutReceipt(view, width);
      hash.update(JSON.stringify(layout));
      hash.update(renderReceiptText(layout));
    }
  }
  for (const profile of goldenProfiles()) {
    const encoder = new EscPosEncoder(profile);
    for (const view of views) {
      const layout = layoutReceipt(view, profile.charsPerLine);
      for (const openDrawer of [false, true]) {
        const job = encoder.encode(layout, { openDrawer, images: GOLDEN_IMAGES });
        hash.update(job.bytes);
        hash.update(JSON.stringify(job.units));
        hash.update(job.prelude);
        hash.update(`${job.rasterLines}:${job.drawerKick}`);
      }
    }
  }
  return hash.digest('hex');
}

/** Every paper width × code page (cp852, cp1250, raster) × QR (raster, native). */
export function goldenProfiles(): PrinterProfile[] {
  const out: PrinterProfile[] = [];
  for (const w of PROFILE_WIDTHS) {
    for (const codepage of ['cp852', 'cp1250', 'raster']) {
      for (const qr of ['raster', 'native']) {
        out.push(
          parsePrinterProfile(new URLSearchParams({ font: w.font, chars: String(w.chars), codepage, qr })),
        );
      }
    }
  }
  return out;
}

/** A small logo with a gradient and a diagonal, so dithering and packing both show. */
const GOLDEN_IMAGES: ReadonlyMap<string, Uint8Array> = new Map([['logo', goldenLogo()]]);

function goldenLogo(): Uint8Array {
  const width = 120;
  const height = 40;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const v = Math.abs(x - 3 * y) < 4 ? 0 : (x * 2 + y * 3) & 0xff;
      data[i] = v;
      data[i + 1] = (v + 40) & 0xff;
      data[i + 2] = 255 - v;
      data[i + 3] = 255;
    }
  }
  return encodePng({ width, height, data });
}
