import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { qrSegments } from './qr-segments.js';

/** The package's own segmentation (`Segments.fromString`), the reference this one must equal. */
const packageSegments = createRequire(import.meta.url)('qrcode/lib/core/segments.js') as {
  fromString(text: string, version: number): Array<{ mode: { id: string }; data: string | Uint8Array }>;
};

function reference(text: string, version: number): Array<{ mode: string; data: string }> {
  return packageSegments.fromString(text, version).map((s) => ({
    mode: s.mode.id.toLowerCase(),
    // Byte segments keep their UTF-8 bytes; compare them as the text they came from.
    data: typeof s.data === 'string' ? s.data : new TextDecoder().decode(s.data),
  }));
}

/** A small deterministic generator, so a failure names a text that can be tried again. */
function generator(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s;
  };
}

/**
 * Texts that make the segment choice close: runs of digits, of capitals and of other characters of
 * every short length (where numeric, alphanumeric and byte mode cost about the same and ties
 * happen), receipt-shaped QR texts (SFS spec §2.4), Slovak text and characters beyond the BMP.
 */
function texts(count: number): string[] {
  const next = generator(7_2026);
  const pick = (s: string) => s[next() % s.length] as string;
  const pools = ['0123456789', 'ABCDEFXYZ $%*+-./:', 'abcxyzáčďéžô€_#@!?', '😀𝄞'];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    if (kind === 0) {
      let id = 'O-';
      for (let k = 0; k < 32; k++) id += pick('0123456789ABCDEF');
      out.push(id);
      continue;
    }
    if (kind === 1) {
      const hex = (n: number) => Array.from({ length: n }, () => pick('0123456789abcdef')).join('');
      out.push(
        `${hex(8)}-${hex(8)}-${hex(8)}-${hex(8)}-${hex(8)}:${pick('1234')}8812345678900001:${next() % 1_000_000_000_000}:${next() % 9999}:${(next() % 100000) / 100}`,
      );
      continue;
    }
    let text = '';
    const runs = 1 + (next() % 12);
    for (let r = 0; r < runs; r++) {
      const pool = pools[kind === 4 ? next() % 4 : next() % 3] as string;
      const len = 1 + (next() % (kind === 2 ? 4 : 9));
      for (let k = 0; k < len; k++) text += Array.from(pool)[next() % Array.from(pool).length];
    }
    out.push(text);
  }
  return out;
}

describe('QR segments (qr-segments.ts)', () => {
  it('chooses exactly the segments the qrcode package chooses, for every version class', () => {
    let compared = 0;
    for (const [i, text] of texts(6000).entries()) {
      const version = [1, 3, 5, 9, 10, 26, 27, 40][i % 8] as number;
      const got = qrSegments(text, version);
      expect(got, `${text} v${version}`).toEqual(reference(text, version));
      compared++;
    }
    expect(compared).toBe(6000);
  });

  it('gives the lone surrogate back to the package (undefined)', () => {
    expect(qrSegments('AB\ud800C', 3)).toBeUndefined();
    expect(qrSegments('AB\udc00', 3)).toBeUndefined();
  });
});
