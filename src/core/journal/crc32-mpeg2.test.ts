import { describe, expect, it } from 'vitest';
import { crc32Mpeg2 } from './crc32-mpeg2.js';

describe('crc32Mpeg2', () => {
  it('gives the catalogue check value for "123456789"', () => {
    expect(crc32Mpeg2(new TextEncoder().encode('123456789'))).toBe(0x0376e6e7);
  });

  it('continues over split input exactly as over the whole', () => {
    const data = new TextEncoder().encode('kasa journal block');
    const whole = crc32Mpeg2(data);
    expect(crc32Mpeg2(data.subarray(7), crc32Mpeg2(data.subarray(0, 7)))).toBe(whole);
  });

  it('is 0xFFFFFFFF over nothing (no final XOR)', () => {
    expect(crc32Mpeg2(new Uint8Array(0))).toBe(0xffffffff);
  });
});
