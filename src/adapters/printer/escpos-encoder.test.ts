import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { LineBuilder } from '../../core/receipt/line-builder.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { RECEIPT_WORDING } from '../../core/receipt/receipt-wording.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { EscPosEncoder } from './escpos-encoder.js';

/** Slovak letters in IBM code page 852 (from the code page's published table). */
const CP852: Record<string, number> = {
  á: 0xa0,
  ä: 0x84,
  č: 0x9f,
  ď: 0xd4,
  é: 0x82,
  í: 0xa1,
  ĺ: 0x92,
  ľ: 0x96,
  ň: 0xe5,
  ó: 0xa2,
  ô: 0x93,
  ŕ: 0xea,
  š: 0xe7,
  ť: 0x9c,
  ú: 0xa3,
  ý: 0xec,
  ž: 0xa7,
  Á: 0xb5,
  Ä: 0x8e,
  Č: 0xac,
  Ď: 0xd2,
  É: 0x90,
  Í: 0xd6,
  Ĺ: 0x91,
  Ľ: 0x95,
  Ň: 0xd5,
  Ó: 0xe0,
  Ô: 0xe2,
  Ŕ: 0xe8,
  Š: 0xe6,
  Ť: 0x9b,
  Ú: 0xe9,
  Ý: 0xed,
  Ž: 0xa6,
};

function cp852(text: string): Buffer {
  return Buffer.from(
    Array.from(text).map((ch) => {
      const code = CP852[ch] ?? ch.charCodeAt(0);
      if (code > 0x7f && CP852[ch] === undefined)
        throw new Error(`no CP852 byte for ${ch} in the test table`);
      return code;
    }),
  );
}

const ESC_AT = Buffer.from([0x1b, 0x40]);
const ESC_T_CP852 = Buffer.from([0x1b, 0x74, 18]); // Epson table: page 18 = PC852 (Latin 2)
const CUT = Buffer.from([0x1d, 0x56, 0x01]);

describe('EscPosEncoder', () => {
  const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 42);

  it('starts with ESC @, selects CP852 and ends with the cut', () => {
    const bytes = Buffer.from(new EscPosEncoder().encode(layout));
    expect(bytes.subarray(0, 2)).toEqual(ESC_AT);
    expect(bytes.includes(ESC_T_CP852)).toBe(true);
    expect(bytes.subarray(-3)).toEqual(CUT);
  });

  it('carries the receipt text in CP852, Slovak letters included', () => {
    // Native QR: no bitmap bytes that could look like text.
    const bytes = Buffer.from(new EscPosEncoder({ qrMode: 'native' }).encode(layout));
    for (const line of [
      'POKLADNIČNÝ DOKLAD',
      'Potraviny Horná s.r.o.',
      'Kód pokladne:',
      'Dátum vyhot.:',
      'Poradové číslo dokladu:',
      'Pivo Zlatý bažant 0,5 l',
      'Oslobodené od DPH',
      'OVERTE DOKLAD POMOCOU QR KÓDU',
      'UID: O-7DBCDA8A56EE426DBCDA8A56EE426D1A',
      'Reklamácie do 14 dní s dokladom',
    ]) {
      expect(bytes.includes(cp852(line)), line).toBe(true);
    }
    // Nothing was replaced by "?" on the way (the layout's wording is all in CP852).
    expect(bytes.includes(Buffer.from('?'))).toBe(false);
  });

  it('has every fixed wording of the layout in CP852 (no "?" substitutes)', () => {
    const strings: string[] = [];
    const collect = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) collect(x);
    };
    collect(RECEIPT_WORDING);
    const b = new LineBuilder(48);
    for (const s of strings.filter((x) => x !== '')) b.wrapped(s);
    const bytes = Buffer.from(new EscPosEncoder().encode(b.build()));
    expect(bytes.includes(Buffer.from('?'))).toBe(false);
    for (const word of strings.flatMap((x) => x.split(' ')).filter((x) => x !== '')) {
      expect(bytes.includes(cp852(word)), word).toBe(true);
    }
  });

  it('prints double headings with GS ! 0x11 and bold with ESC E', () => {
    const bytes = Buffer.from(new EscPosEncoder().encode(layoutReceipt(SAMPLE_RECEIPTS.nd, 32)));
    const double = Buffer.concat([Buffer.from([0x1d, 0x21, 0x11]), cp852('NEPLATNÝ DOKLAD')]);
    expect(bytes.includes(double)).toBe(true);
    expect(bytes.includes(Buffer.from([0x1b, 0x45, 0x01]))).toBe(true);
  });

  it('kicks the drawer right after initialising when the job asks for it', () => {
    const bytes = Buffer.from(new EscPosEncoder().encode(layout, { openDrawer: true }));
    expect(bytes.subarray(0, 2)).toEqual(ESC_AT);
    const pulse = bytes.indexOf(Buffer.from([0x1b, 0x70, 0x00]));
    expect(pulse).toBeGreaterThan(0);
    expect(pulse).toBeLessThan(bytes.indexOf(cp852('Potraviny')));
    const plain = Buffer.from(new EscPosEncoder().encode(layout));
    expect(plain.includes(Buffer.from([0x1b, 0x70]))).toBe(false);
  });

  it('raster QR: the GS v 0 bitmap holds exactly the qrcode matrix (version 3, level M), ≥ 22 mm', () => {
    const bytes = Buffer.from(new EscPosEncoder({ qrMode: 'raster' }).encode(layout));
    const at = bytes.indexOf(Buffer.from([0x1d, 0x76, 0x30, 0x00]));
    expect(at).toBeGreaterThan(0);
    const rowBytes = (bytes[at + 4] ?? 0) + 256 * (bytes[at + 5] ?? 0);
    const rows = (bytes[at + 6] ?? 0) + 256 * (bytes[at + 7] ?? 0);
    const bitmap = bytes.subarray(at + 8, at + 8 + rowBytes * rows);
    const dot = (x: number, y: number) => ((bitmap[y * rowBytes + (x >> 3)] ?? 0) >> (7 - (x & 7))) & 1;
    const reference = QRCode.create(SAMPLE_RECEIPTS.pdOnline.uid ?? '', {
      errorCorrectionLevel: 'M',
      version: 3,
    });
    const size = reference.modules.size;
    // Module size follows from the bitmap: symbol + 2 quiet modules each side.
    const module = Math.floor((rowBytes * 8) / (size + 4));
    expect(size * module).toBeGreaterThanOrEqual(174);
    let mismatches = 0;
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const x = (2 + c) * module + (module >> 1);
        const y = (2 + r) * module + (module >> 1);
        if (dot(x, y) !== reference.modules.get(r, c)) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it('native QR: GS ( k with model 2, level M, a module size for ≥ 22 mm and the UID bytes', () => {
    const bytes = Buffer.from(new EscPosEncoder({ qrMode: 'native' }).encode(layout));
    const uid = SAMPLE_RECEIPTS.pdOnline.uid ?? '';
    expect(bytes.includes(Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x45, 0x31]))).toBe(true); // level M
    const sizeAt = bytes.indexOf(Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x43]));
    const moduleDots = bytes[sizeAt + 7] ?? 0;
    // The printer may pick version 2 (25 modules) for an upper-case UID: still ≥ 22 mm.
    expect(25 * moduleDots).toBeGreaterThanOrEqual(174);
    const store = Buffer.concat([Buffer.from([0x31, 0x50, 0x30]), Buffer.from(uid, 'ascii')]);
    expect(bytes.includes(store)).toBe(true);
    expect(bytes.includes(Buffer.from([0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30]))).toBe(true); // print
    expect(bytes.includes(Buffer.from([0x1d, 0x76, 0x30]))).toBe(false);
  });

  it('prints VK without any QR', () => {
    const bytes = Buffer.from(new EscPosEncoder().encode(layoutReceipt(SAMPLE_RECEIPTS.vk, 42)));
    expect(bytes.includes(cp852('VKLAD'))).toBe(true);
    expect(bytes.includes(Buffer.from([0x1d, 0x76, 0x30]))).toBe(false);
    expect(bytes.includes(Buffer.from([0x1d, 0x28, 0x6b]))).toBe(false);
  });

  it('encodes only the widths ESC/POS printers have', () => {
    expect(() => new EscPosEncoder().encode(new LineBuilder(40).wrapped('x').build())).toThrow(RangeError);
  });

  it('is deterministic', () => {
    const a = new EscPosEncoder().encode(layout);
    const b = new EscPosEncoder().encode(layoutReceipt(structuredClone(SAMPLE_RECEIPTS.pdOnline), 42));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
