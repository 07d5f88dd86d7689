import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrSegments } from './qr-segments.js';
import { buildQrSymbol, type QrEcc } from './qr-symbol.js';

/** What the package builds from the same segments at the same version, with mask pattern 0. */
function packageSymbol(text: string, version: number, ecc: QrEcc) {
  return QRCode.create(text, { version, errorCorrectionLevel: ecc, maskPattern: 0 });
}

/** A small deterministic generator, so a failure names a text that can be tried again. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s;
  };
}

function sameAs(text: string, version: number, ecc: QrEcc): boolean {
  const segments = qrSegments(text, version);
  if (segments === undefined) throw new Error(`no segments for ${text}`);
  let expected: QRCode.QRCode | undefined;
  try {
    expected = packageSymbol(text, version, ecc);
  } catch {
    expected = undefined;
  }
  const got = buildQrSymbol(segments, version, ecc);
  if (expected === undefined) return got === undefined;
  if (got === undefined) return false;
  const { size, data, reservedBit } = expected.modules;
  if (got.size !== size) return false;
  for (let k = 0; k < size * size; k++) {
    if (got.modules[k] !== data[k] || got.reserved[k] !== (reservedBit[k] ? 1 : 0)) return false;
  }
  return true;
}

describe('QR symbol builder (qr-symbol.ts)', () => {
  it('builds the package’s symbol (modules and function modules) for every version and level', () => {
    const next = generator(40);
    for (let version = 1; version <= 40; version++) {
      for (const ecc of ['L', 'M', 'Q', 'H'] as const) {
        // A short text, and one near this version's capacity in byte mode (every codeword used).
        const capacity = Math.max(1, [0, 17, 32, 53, 78, 106][version] ?? version * 20);
        let text = '';
        const length = 1 + (next() % capacity);
        for (let i = 0; i < length; i++) text += String.fromCharCode(0x61 + (next() % 26));
        expect(sameAs('O-7DBCDA8A56EE426D', version, ecc), `v${version} ${ecc} short`).toBe(true);
        expect(sameAs(text, version, ecc), `v${version} ${ecc} "${text}"`).toBe(true);
      }
    }
  });

  it('builds the package’s symbol for receipt-shaped texts and mixed segments at versions 1–10', () => {
    const next = generator(2026);
    const pick = (s: string) => s[next() % s.length] as string;
    let compared = 0;
    for (let i = 0; i < 1500; i++) {
      let text = '';
      const shape = i % 3;
      if (shape === 0) {
        text = 'O-';
        for (let k = 0; k < 32; k++) text += pick('0123456789ABCDEF');
      } else if (shape === 1) {
        for (let k = 0; k < 5; k++) {
          for (let j = 0; j < 8; j++) text += pick('0123456789abcdef');
          text += '-';
        }
        text += `:88812345678900001:${next() % 1_000_000_000_000}:${next() % 999}:${(next() % 100000) / 100}`;
      } else {
        const runs = 1 + (next() % 10);
        for (let r = 0; r < runs; r++) {
          const pool = ['0123456789', 'ABCXYZ $%*+-./:', 'abcáčž€'][next() % 3] as string;
          const len = 1 + (next() % 12);
          for (let k = 0; k < len; k++) text += Array.from(pool)[next() % Array.from(pool).length];
        }
      }
      const version = 1 + (i % 10);
      const ecc = (['L', 'M', 'Q', 'H'] as const)[(i >> 2) % 4] as QrEcc;
      expect(sameAs(text, version, ecc), `v${version} ${ecc} "${text}"`).toBe(true);
      compared++;
    }
    expect(compared).toBe(1500);
  });
});
