import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { formatBits } from './qr-mask.js';
import { qrMatrix } from './qr-matrix.js';

/** A small deterministic generator, so a failure names a text that can be tried again. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s;
  };
}

function hex(next: () => number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += (next() % 16).toString(16).toUpperCase();
  return out;
}

/** Texts shaped like a receipt's QR (SFS spec §2.4): an online id, an offline OKP line, others. */
function texts(count: number): string[] {
  const next = generator(20261124);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 4) {
      case 0:
        out.push(`O-${hex(next, 32)}`);
        break;
      case 1:
        out.push(
          `${hex(next, 8)}-${hex(next, 8)}-${hex(next, 8)}-${hex(next, 8)}-${hex(next, 8)}:88812345678900001:${240101000000 + (next() % 100000)}:${next() % 1000}:${(next() % 100000) / 100}`,
        );
        break;
      case 2:
        out.push(String(next()).repeat(1 + (next() % 6)));
        break;
      default:
        out.push(`Ďakujeme za nákup ${hex(next, 1 + (next() % 40))}`);
    }
  }
  return out;
}

describe('QR mask choice (qr-mask.ts)', () => {
  it('writes the format information of ISO/IEC 18004 Table C.1', () => {
    expect(formatBits('M', 0)).toBe(0b101010000010010);
    expect(formatBits('L', 0)).toBe(0b111011111000100);
    expect(formatBits('L', 7)).toBe(0b110100101110110);
    expect(formatBits('Q', 3)).toBe(0b011101000000110);
    expect(formatBits('H', 5)).toBe(0b000001001010101);
  });

  it('builds exactly the symbol the qrcode package builds with its own mask search', () => {
    const eccs = ['L', 'M', 'Q', 'H'] as const;
    const masks = new Set<number>();
    let compared = 0;
    for (const [i, text] of texts(1200).entries()) {
      const ecc = eccs[i % 4] as (typeof eccs)[number];
      const minVersion = 1 + (i % 7);
      let expected: QRCode.QRCode;
      try {
        expected = QRCode.create(text, { errorCorrectionLevel: ecc, version: minVersion });
      } catch {
        expected = QRCode.create(text, { errorCorrectionLevel: ecc });
      }
      masks.add(expected.maskPattern as number);
      const got = qrMatrix({ text, ecc, minVersion });
      expect(got.version, text).toBe(expected.version);
      const { size } = expected.modules;
      for (let r = 0; r < size; r++) {
        for (let c = 0; c < size; c++) {
          if (got.dark(r, c) !== (expected.modules.get(r, c) === 1)) {
            throw new Error(`module ${r},${c} differs for ${ecc} v${expected.version} "${text}"`);
          }
        }
      }
      compared++;
    }
    expect(compared).toBe(1200);
    // The texts exercise every pattern, so a wrong penalty for any of them would show.
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
