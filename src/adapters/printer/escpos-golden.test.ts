import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROFILE_WIDTHS, type PrinterProfile, parsePrinterProfile } from '../../config/printer-profile.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import type { ReceiptView } from '../../core/receipt/receipt-model.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS, type SampleReceiptName } from '../../core/receipt/sample-receipts.js';
import { encodePng } from '../receipt-image/logo-image.js';
import { EscPosEncoder } from './escpos-encoder.js';

/**
 * The digests the printer path gave before it was made faster (ADR 1111): layouts at seven widths,
 * the `.txt`, and the ESC/POS jobs for all 36 profiles (6 paper widths × 3 code pages × raster or
 * native QR), with and without the drawer kick and the logo. A change to what is printed shows
 * here; when it is meant, the new digests go in with the reason in the commit. pdOnline and copy
 * changed with ADR 0430: their returnable-packaging line no longer prints `0 %`.
 */
const BEFORE: Record<SampleReceiptName, string> = {
  pdOnline: '80e21674e4a19041c297999231b11adc771873687e9fe7f7c288de8ccfc759ea',
  pdOffline: 'bdcab9567b4e9d8f406206adf8dbcb175cb651efb72f43686633eb71d8deb81e',
  uf: 'eedca5ef6b954feb446ed27971561ca6b18023f318308f14824f8fb8452f25e1',
  nd: 'bd28a19a9abd40961ec02f76f7f3a46eb0bfe46b92aea754c73684dcedf7a178',
  vk: '83c02adbf3432619157aed0d8c9de9defee4bceb1d6be1042088f206ec22b33e',
  vy: '9d7e4fe9f2cff34d21b40d077ac32ddeb136c5d522ca955381e7e8ce1edac532',
  vkSent2025: '0011766d163cfea6bf99b6eacac592fb45786b3e2b28bb3905483670df3a7196',
  paragon: '4d2d972728c4bfb3e1f86d951fa6d6bada620e166b73908504dbb36599de4f1d',
  copy: '6ed5b8d441e399f652c926f6f9994b86c0f4bb55170c9a0a4416bf054234f140',
  demo: '5d0fe6ae3a4d8e2a6512dc08ada17ca3aadb2cf4d2ca3ae34229b6657cbce091',
  nonPayer: 'c9a45f4835589937d1a4871f7aaeb01e92fb25acaac2251fdee1e0b1348105ac',
  refund: '957fc6c424d8045684a7ea9897176898483d4b94d9fa16bc6ed665ea8116eec9',
};

describe('the printer path prints what it printed before (ADR 1111)', () => {
  it.each(Object.keys(BEFORE) as SampleReceiptName[])(
    '%s: same layouts, text and ESC/POS bytes for every profile, twice in a row (warm caches)',
    (name) => {
      expect(printPathDigest(name)).toBe(BEFORE[name]);
      // Again with every cache warm (the merchant's lines, the encoded lines): still the same.
      expect(printPathDigest(name)).toBe(BEFORE[name]);
    },
    60_000,
  );
});

/**
 * A digest of everything the printer path produces for one
 * sample receipt — its layout at every paper width, its `.txt`, and its ESC/POS job (bytes, units,
 * prelude, raster lines) for every printer profile, with and without the drawer kick and the logo.
 * `escpos-golden.test.ts` keeps the digests the code gave before the store path was made faster
 * (ADR 1111), so a faster path that answers differently fails there.
 */
function printPathDigest(name: SampleReceiptName): string {
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
function goldenProfiles(): PrinterProfile[] {
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
