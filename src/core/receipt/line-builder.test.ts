import { describe, expect, it } from 'vitest';
import { layoutFreeText } from './free-text-layout.js';
import { codeWrap, hardWrap, LineBuilder, wrapText } from './line-builder.js';
import { printedLength } from './receipt-blocks.js';
import { renderReceiptText } from './receipt-text.js';

describe('wrapping', () => {
  it('wraps words greedily, keeps blank lines, splits words longer than a line', () => {
    expect(wrapText('Ďakujeme za nákup a tešíme sa na vás', 16)).toEqual([
      'Ďakujeme za',
      'nákup a tešíme',
      'sa na vás',
    ]);
    expect(wrapText('a\n\nb', 10)).toEqual(['a', '', 'b']);
    expect(wrapText('x 1234567890123', 5)).toEqual(['x', '12345', '67890', '123']);
    expect(wrapText('', 10)).toEqual(['']);
  });

  it('keeps a line that fits exactly as sent (pre-formatted columns), tabs as spaces', () => {
    expect(wrapText('Pivo      2x  1.19\n  Spolu\t2.38  ', 20)).toEqual([
      'Pivo      2x  1.19',
      '  Spolu 2.38',
    ]);
  });

  it('counts characters, not UTF-8 bytes, and normalises to NFC', () => {
    const decomposed = 'c\u030Cl'; // "čl" as c + combining caron
    expect(hardWrap(decomposed, 2)).toEqual(['čl']);
    expect(wrapText('ľščťžýáíé ľščťžýáíé', 9)).toEqual(['ľščťžýáíé', 'ľščťžýáíé']);
  });

  it('breaks codes after "-" or ":" and keeps OKP groups whole', () => {
    const okp = 'a70a8147-6abe354e-3bae2c67-87bddcfc-f34b6728';
    expect(codeWrap(okp, 42)).toEqual(['a70a8147-6abe354e-3bae2c67-87bddcfc-', 'f34b6728']);
    expect(codeWrap(okp, 32)).toEqual(['a70a8147-6abe354e-3bae2c67-', '87bddcfc-f34b6728']);
    expect(codeWrap('A'.repeat(70), 32)).toEqual(['A'.repeat(32), 'A'.repeat(32), 'A'.repeat(6)]);
    expect(codeWrap(okp, 44)).toEqual([okp]);
  });
});

describe('LineBuilder', () => {
  it('pairs a label and a value on one line, or on two when they do not fit', () => {
    const one = new LineBuilder(32).pair('SUMA', '12.30 EUR').build();
    expect(renderReceiptText(one)).toBe(`SUMA${' '.repeat(19)}12.30 EUR\n`);
    const two = new LineBuilder(32).pair('Dátum vyhot.:', '15.01.2026 10:20:30').build();
    expect(renderReceiptText(two)).toBe(`Dátum vyhot.:\n${' '.repeat(13)}15.01.2026 10:20:30\n`);
  });

  it('spreads table columns to the full width and refuses a table that does not fit', () => {
    const b = new LineBuilder(24);
    expect(b.table([['a', '1.00', '2.00'], { label: 'x', value: '3.00' }])).toBe(true);
    expect(renderReceiptText(b.build())).toBe(
      `a${' '.repeat(8)}1.00${' '.repeat(7)}2.00\nx${' '.repeat(19)}3.00\n`,
    );
    const narrow = new LineBuilder(24);
    expect(narrow.table([['label', '1234567890', '1234567890']])).toBe(false);
    expect(narrow.build().blocks).toEqual([]);
  });

  it('sets a heading double when it fits half the width, else bold normal', () => {
    const blocks = new LineBuilder(32)
      .heading('OFF-LINE DOKLAD')
      .heading('POKLADNIČNÝ DOKLAD')
      .build().blocks;
    expect(blocks).toEqual([
      { kind: 'text', text: 'OFF-LINE DOKLAD', align: 'center', bold: true, size: 'double' },
      { kind: 'text', text: 'POKLADNIČNÝ DOKLAD', align: 'center', bold: true, size: 'normal' },
    ]);
  });

  it('refuses a raw line longer than the paper', () => {
    expect(() => new LineBuilder(24).text('x'.repeat(25))).toThrow(RangeError);
  });
});

describe('renderReceiptText', () => {
  it('shows separators, the QR content, images, feeds and alignment', () => {
    const layout = new LineBuilder(24)
      .image('logo')
      .wrapped('mid', { align: 'center' })
      .wrapped('end', { align: 'right' })
      .separator('double')
      .qr('O-1', 'M', 3, 22)
      .feed(2)
      .cut()
      .build();
    expect(renderReceiptText(layout)).toBe(
      `         [logo]\n          mid\n${' '.repeat(21)}end\n${'='.repeat(24)}\n       [QR: O-1]\n\n\n`,
    );
  });
});

describe('layoutFreeText', () => {
  it('prints the text as given (the caller pads), wraps only a line longer than the paper, ends with a cut', () => {
    const layout = layoutFreeText(
      'Objednávka č. 15\n\n   Stôl 4      5.00\nStôl 4: 2x polievka dňa, 1x rezeň',
      24,
    );
    expect(renderReceiptText(layout)).toBe(
      'Objednávka č. 15\n\n   Stôl 4      5.00\nStôl 4: 2x polievka dňa,\n 1x rezeň\n\n',
    );
    expect(layout.blocks.at(-1)).toEqual({ kind: 'cut' });
  });
});

describe('printedLength and wrapText fast paths (ADR 1111)', () => {
  it('counts code points of the NFC form, as Array.from does, for ASCII, Slovak, combining marks and surrogates', () => {
    const texts = [
      '',
      'Chlieb tmavy',
      'Chlieb tmavý',
      'Cafe\u0301',
      'A\u030a\u0301 x',
      'emoji 😀 and 𝄞',
      'lone \ud800 high',
      'lone \udc00 low',
      'pair at end 😀',
      'high at end \ud800',
      '\u212b angstrom',
    ];
    for (const text of texts)
      expect(printedLength(text), JSON.stringify(text)).toBe(Array.from(text.normalize('NFC')).length);
  });

  it('keeps a fitting line as one NFC line without its trailing spaces, and wraps the rest as before', () => {
    expect(wrapText('Káva zrnková 500 g   ', 20)).toEqual(['Káva zrnková 500 g']);
    expect(wrapText('Cafe\u0301', 10)).toEqual(['Café']);
    expect(wrapText('a\tb', 10)).toEqual(['a b']);
    expect(wrapText('one\r\ntwo\rthree', 10)).toEqual(['one', 'two', 'three']);
    expect(wrapText('', 10)).toEqual(['']);
    expect(wrapText('alpha beta gamma', 10)).toEqual(['alpha beta', 'gamma']);
  });
});
