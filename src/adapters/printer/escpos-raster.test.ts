import { describe, expect, it } from 'vitest';
import type { QrBlock } from '../../core/receipt/receipt-blocks.js';
import { qrBitmap, qrRaster, rasterImage } from './escpos-encoder.js';

const qr = (text: string, minVersion: number, minSizeMm = 22): QrBlock => ({
  kind: 'qr',
  text,
  ecc: 'M',
  minVersion,
  minSizeMm,
});

describe('QR raster for ESC/POS', () => {
  it('packs the QR straight into GS v 0 commands, byte for byte as the RGBA picture path does', () => {
    for (const block of [
      qr('O-7DBCDA8A56EE426DBCDA8A56EE426D1A', 3),
      qr(`${'A1B2C3D4E5F6'.repeat(7)}:2026-03-02T10:15:30+01:00:7.45`, 5),
      // Tall enough for two GS v 0 commands (> 255 rows) and a width that is not a whole byte.
      qr('x'.repeat(300), 5, 40),
    ]) {
      const expected = rasterImage(qrBitmap(block));
      expect(Buffer.from(qrRaster(block)).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it('writes GS v 0 with the row byte count and at most 255 rows per command', () => {
    const image = { width: 10, height: 300, data: new Uint8Array(10 * 300 * 4).fill(0) };
    const bytes = rasterImage(image);
    expect([...bytes.subarray(0, 8)]).toEqual([0x1d, 0x76, 0x30, 0, 2, 0, 255, 0]);
    expect([...bytes.subarray(8, 10)]).toEqual([0xff, 0xc0]); // 10 black dots, then padding
    const second = 8 + 255 * 2;
    expect([...bytes.subarray(second, second + 8)]).toEqual([0x1d, 0x76, 0x30, 0, 2, 0, 45, 0]);
    expect(bytes.length).toBe(16 + 300 * 2);
  });
});
