import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { crc32, encodePng } from './png-encode.js';

describe('encodePng', () => {
  it('writes grey and RGB pictures any PNG decoder reads back pixel for pixel', () => {
    const grey = Uint8Array.from({ length: 7 * 5 }, (_, i) => (i * 37) % 256);
    const g = PNG.sync.read(encodePng(grey, 7, 5, 1));
    expect([g.width, g.height]).toEqual([7, 5]);
    for (let i = 0; i < grey.length; i++) {
      expect([...g.data.subarray(i * 4, i * 4 + 4)]).toEqual([grey[i], grey[i], grey[i], 255]);
    }
    const rgb = Uint8Array.from({ length: 3 * 4 * 3 }, (_, i) => (i * 91) % 256);
    const c = PNG.sync.read(encodePng(rgb, 3, 4, 3));
    for (let p = 0; p < 12; p++) {
      expect([...c.data.subarray(p * 4, p * 4 + 4)]).toEqual([
        rgb[p * 3],
        rgb[p * 3 + 1],
        rgb[p * 3 + 2],
        255,
      ]);
    }
    expect(() => encodePng(grey, 7, 6, 1)).toThrow(RangeError);
  });

  it('checksums chunks with CRC-32 (ISO 3309 check value)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});
