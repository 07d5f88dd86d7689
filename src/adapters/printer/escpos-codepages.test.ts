import { describe, expect, it } from 'vitest';
import { parsePrinterProfile } from '../../config/printer-profile.js';
import { LineBuilder } from '../../core/receipt/line-builder.js';
import { EscPosDecoder } from '../../simulators/printer/escpos-decoder.js';
import { EscPosPaper, jobText, type PrintedJob } from '../../simulators/printer/escpos-paper.js';
import { codepageTable, encodeLine, KASA_CODEPAGES } from './escpos-codepages.js';
import { EscPosEncoder } from './escpos-encoder.js';

// Every letter of the Slovak alphabet with a diacritic, and the byte each code page has for it
// (written out from the published IBM 852 and Windows-1250 charts, not from the table under test).
const SLOVAK = 'áäčďéíĺľňóôŕšťúýžÁÄČĎÉÍĹĽŇÓÔŔŠŤÚÝŽ';
const CP852 = [
  0xa0, 0x84, 0x9f, 0xd4, 0x82, 0xa1, 0x92, 0x96, 0xe5, 0xa2, 0x93, 0xea, 0xe7, 0x9c, 0xa3, 0xec, 0xa7, 0xb5,
  0x8e, 0xac, 0xd2, 0x90, 0xd6, 0x91, 0x95, 0xd5, 0xe0, 0xe2, 0xe8, 0xe6, 0x9b, 0xe9, 0xed, 0xa6,
];
const CP1250 = [
  0xe1, 0xe4, 0xe8, 0xef, 0xe9, 0xed, 0xe5, 0xbe, 0xf2, 0xf3, 0xf4, 0xe0, 0x9a, 0x9d, 0xfa, 0xfd, 0x9e, 0xc1,
  0xc4, 0xc8, 0xcf, 0xc9, 0xcd, 0xc5, 0xbc, 0xd2, 0xd3, 0xd4, 0xc0, 0x8a, 0x8d, 0xda, 0xdd, 0x8e,
];

function printed(bytes: Uint8Array, chars: number): string {
  const jobs: PrintedJob[] = [];
  const paper = new EscPosPaper((j) => jobs.push(j));
  for (const cmd of new EscPosDecoder().push(bytes)) paper.apply(cmd);
  return jobText(jobs[0]!, chars);
}

describe('Slovak letters through each code page', () => {
  it.each([
    ['cp852', CP852],
    ['cp1250', CP1250],
  ] as const)('%s: every letter has its own byte, and a printer prints it back', (page, expected) => {
    const table = codepageTable(KASA_CODEPAGES[page]);
    expect(Array.from(encodeLine(SLOVAK, table) ?? [])).toEqual(expected);
    if (page === 'cp1250') {
      // An independent decoder (WHATWG windows-1250) agrees.
      expect(new TextDecoder('windows-1250').decode(Uint8Array.from(expected))).toBe(SLOVAK);
    }
    const layout = new LineBuilder(48).text(SLOVAK).text('Žltý kôň úpel ďábelské ódy').cut().build();
    const job = new EscPosEncoder(parsePrinterProfile(new URLSearchParams({ codepage: page }))).encode(
      layout,
    );
    expect(job.rasterLines).toBe(0);
    expect(printed(job.bytes, 48)).toBe(`${SLOVAK}\nŽltý kôň úpel ďábelské ódy\n`);
    expect(printed(job.bytes, 48)).not.toContain('?');
  });

  it.each(['cp852', 'cp1250'] as const)(
    '%s: a character the page lacks prints the line as an image, never as "?"',
    (page) => {
      const layout = new LineBuilder(48).text('Hotovo ✓').text('Ďakujeme').cut().build();
      const job = new EscPosEncoder(parsePrinterProfile(new URLSearchParams({ codepage: page }))).encode(
        layout,
      );
      expect(job.rasterLines).toBe(1);
      const text = printed(job.bytes, 48);
      expect(text).toBe(`${' '.repeat(17)}[image 576x24]\nĎakujeme\n`);
      expect(text).not.toContain('?');
    },
  );

  it('raster profile: no text bytes at all, every line an image of the paper width', () => {
    const layout = new LineBuilder(32).text(SLOVAK.slice(0, 17)).cut().build();
    const job = new EscPosEncoder(
      parsePrinterProfile(new URLSearchParams({ codepage: 'raster', chars: '32' })),
    ).encode(layout);
    expect(printed(job.bytes, 32)).toBe(`${' '.repeat(9)}[image 384x24]\n`);
    expect(Array.from(job.prelude)).toEqual([0x1b, 0x40, 0x1b, 0x4d, 0, 0x1b, 0x32]); // no ESC t
  });

  it('encodes a line as the character-by-character table look-up does (the ASCII fast path included)', () => {
    // The table, one NFC character at a time: what every line went through before the fast path.
    const byLookUp = (text: string, table: ReturnType<typeof codepageTable>) => {
      const bytes: number[] = [];
      for (const ch of text.normalize('NFC')) {
        const b = table.toByte.get(ch);
        if (b === undefined) return undefined;
        bytes.push(b);
      }
      return bytes;
    };
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    const lines = [
      ...Array.from(ascii),
      ascii.slice(32, 127),
      `Chlieb tmavy  ${'2.49'.padStart(30)}`,
      `Chlieb tmavý${SLOVAK}`,
      'Cafe\u0301 decomposed',
      'tab\there',
      'euro 5 €',
      'emoji 😀 and a lone \ud800',
      '',
    ];
    for (const page of Object.values(KASA_CODEPAGES)) {
      const table = codepageTable(page);
      for (const line of lines) {
        const got = encodeLine(line, table);
        expect(got === undefined ? undefined : Array.from(got), `${page}: ${JSON.stringify(line)}`).toEqual(
          byLookUp(line, table),
        );
      }
    }
  });
});
