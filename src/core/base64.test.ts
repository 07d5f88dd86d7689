import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.js';

describe('base64', () => {
  it('encodes every length and byte value as RFC 4648 Base64 with padding, and decodes it back', () => {
    let seed = 1;
    for (let length = 0; length < 200; length++) {
      const bytes = Uint8Array.from({ length }, () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed & 0xff;
      });
      const text = bytesToBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(base64ToBytes(text)).toEqual(bytes);
    }
    const all = Uint8Array.from({ length: 256 * 3 }, (_, i) => i % 256);
    expect(bytesToBase64(all)).toBe(Buffer.from(all).toString('base64'));
  });
});
