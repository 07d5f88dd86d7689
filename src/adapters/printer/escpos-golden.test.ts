import { describe, expect, it } from 'vitest';
import type { SampleReceiptName } from '../../core/receipt/sample-receipts.js';
import { printPathDigest } from './escpos-golden.js';

/**
 * The digests the printer path gave before it was made faster (ADR 1111): layouts at seven widths,
 * the `.txt`, and the ESC/POS jobs for all 36 profiles (6 paper widths × 3 code pages × raster or
 * native QR), with and without the drawer kick and the logo. A change to what is printed shows
 * here; when it is meant, the new digests go in with the reason in the commit.
 */
const BEFORE: Record<SampleReceiptName, string> = {
  pdOnline: '27718a09a002df02a4ec6ac501c9c919ea7ef22097745839c06bd154a6c035e8',
  pdOffline: 'bdcab9567b4e9d8f406206adf8dbcb175cb651efb72f43686633eb71d8deb81e',
  uf: 'eedca5ef6b954feb446ed27971561ca6b18023f318308f14824f8fb8452f25e1',
  nd: 'bd28a19a9abd40961ec02f76f7f3a46eb0bfe46b92aea754c73684dcedf7a178',
  vk: '83c02adbf3432619157aed0d8c9de9defee4bceb1d6be1042088f206ec22b33e',
  vy: '9d7e4fe9f2cff34d21b40d077ac32ddeb136c5d522ca955381e7e8ce1edac532',
  vkSent2025: '0011766d163cfea6bf99b6eacac592fb45786b3e2b28bb3905483670df3a7196',
  paragon: '4d2d972728c4bfb3e1f86d951fa6d6bada620e166b73908504dbb36599de4f1d',
  copy: '7e7bde170b67cf38ed11a68bc1c31b2c754eeaca01527242eefce0a36fa3f4df',
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
