import { describe, expect, it } from 'vitest';
import {
  lineCapacity,
  printedLength,
  type QrBlock,
  type ReceiptLayout,
  type TextBlock,
} from './receipt-blocks.js';
import { layoutReceipt, QR_MIN_SIZE_MM } from './receipt-layout.js';
import type { ReceiptView } from './receipt-model.js';
import { renderReceiptText } from './receipt-text.js';
import { SAMPLE_RECEIPTS, type SampleReceiptName } from './sample-receipts.js';

const WIDTHS = [32, 42, 48] as const;
const S = SAMPLE_RECEIPTS;

/** The receipt text without any whitespace: wrapping differs per width, content and order do not. */
function compact(view: ReceiptView, width: number): string {
  return renderReceiptText(layoutReceipt(view, width)).replace(/\s+/g, '');
}

/** Asserts each fragment occurs, in this order, and returns their positions. */
function expectInOrder(text: string, fragments: string[]): number[] {
  const positions: number[] = [];
  let from = 0;
  for (const f of fragments) {
    const at = text.indexOf(f.replace(/\s+/g, ''), from);
    expect(at, `"${f}" after position ${from}`).toBeGreaterThanOrEqual(0);
    positions.push(at);
    from = at + 1;
  }
  return positions;
}

function textBlocks(layout: ReceiptLayout): TextBlock[] {
  return layout.blocks.filter((b): b is TextBlock => b.kind === 'text');
}

function qrBlocks(layout: ReceiptLayout): QrBlock[] {
  return layout.blocks.filter((b): b is QrBlock => b.kind === 'qr');
}

const HEADER = [
  'Potraviny Horná s.r.o.',
  'IČO: 76543210',
  'DIČ: 1234567890',
  'IČ DPH: SK1234567890',
  'Horná 560/7, 98045 Štrkovec',
  'Prevádzka: Predajňa Pod lipou, Námestie SNP 14, 81101 Bratislava',
  'Kód pokladne: 88812345678900001',
];

describe('layoutReceipt', () => {
  for (const width of WIDTHS) {
    it(`fits every line of every sample into ${width} characters`, () => {
      for (const name of Object.keys(S) as SampleReceiptName[]) {
        const layout = layoutReceipt(S[name], width);
        expect(layout.width).toBe(width);
        for (const block of textBlocks(layout)) {
          expect(printedLength(block.text), `${name}: ${block.text}`).toBeLessThanOrEqual(
            lineCapacity(width, block.size),
          );
        }
        expect(layout.blocks.at(-1)).toEqual({ kind: 'cut' });
      }
    });
  }

  it('PD online: the certified model order, UID, online QR, OKP; no PKP, no offline heading', () => {
    for (const width of WIDTHS) {
      const text = compact(S.pdOnline, width);
      expectInOrder(text, [
        ...HEADER,
        'POKLADNIČNÝ DOKLAD',
        'Dátum vyhot.: 15.01.2026 10:20:30',
        'Poradové číslo dokladu: 23',
        'Číslo dokladu: 202601/23',
        'Chlieb tmavý',
        '1 x 2.49 2.49 5 %',
        'Káva zrnková 500 g',
        '2 ks x 8.90 17.80 23 %',
        'Vratná fľaša',
        '4 x 0.15 0.60',
        'Vratný obal',
        'Darčekový poukaz',
        '1 x -5.00 -5.00 23 %',
        'Uplatnenie poukazu č. PK-2026-0042',
        'SUMA 21.85 EUR',
        'Karta 10.00 EUR',
        'Hotovosť 11.85 EUR',
        'Sadzba Základ DPH Spolu',
        '23 % 14.28 3.28 17.56',
        '19 % 1.01 0.19 1.20',
        '5 % 2.37 0.12 2.49',
        'Oslobodené od DPH 0.60',
        'Spolu 17.66 3.59 21.85',
        `UID: ${S.pdOnline.uid}`,
        `[QR: ${S.pdOnline.uid}]`,
        'OVERTE DOKLAD POMOCOU QR KÓDU',
        `OKP: ${S.pdOnline.okp}`,
        'Reklamácie do 14 dní s dokladom',
      ]);
      expect(text).not.toContain('PKP:');
      expect(text).not.toContain('OFF-LINE');
      expect(text).not.toContain('KÓPIA');
      expect(text).not.toContain('DEMO');
    }
  });

  it('PD online: one QR, the UID, level M, version 3 or more, 22 mm', () => {
    const qrs = qrBlocks(layoutReceipt(S.pdOnline, 42));
    expect(qrs).toEqual([
      { kind: 'qr', text: S.pdOnline.uid, ecc: 'M', minVersion: 3, minSizeMm: QR_MIN_SIZE_MM },
    ]);
  });

  it('PD offline: OFF-LINE heading, PKP in the UID place, offline QR, OKP; no UID', () => {
    for (const width of WIDTHS) {
      const text = compact(S.pdOffline, width);
      expectInOrder(text, [
        ...HEADER,
        'POKLADNIČNÝ DOKLAD',
        'OFF-LINE DOKLAD',
        'Dátum vyhot.: 15.01.2026 10:31:07',
        'Poradové číslo dokladu: 24',
        'Káva zrnková 500 g',
        '1 x -8.90 -8.90 23 %',
        'Vrátená položka',
        `k dokladu ${S.pdOnline.uid}`,
        'SUMA 5.95 EUR',
        'Sadzba Základ DPH Spolu',
        `PKP: ${S.pdOffline.pkp}`,
        `[QR: ${S.pdOffline.qrText}]`,
        'OVERTE DOKLAD POMOCOU QR KÓDU',
        `OKP: ${S.pdOffline.okp}`,
      ]);
      expect(text).not.toContain('UID:');
    }
    expect(S.pdOffline.pkp).toHaveLength(344);
    const qrs = qrBlocks(layoutReceipt(S.pdOffline, 32));
    expect(qrs).toEqual([{ kind: 'qr', text: S.pdOffline.qrText, ecc: 'M', minVersion: 5, minSizeMm: 22 }]);
  });

  it('UF: invoice number and customer, SUMA and payment; no items and no VAT table', () => {
    for (const width of WIDTHS) {
      const text = compact(S.uf, width);
      expectInOrder(text, [
        ...HEADER,
        'ÚHRADA FAKTÚRY',
        'Dátum vyhot.: 15.01.2026 10:20:30',
        'Poradové číslo dokladu: 25',
        'Číslo faktúry: FA2026/0117',
        'IČO odberateľa: 11223344',
        'SUMA 56.75 EUR',
        'Hotovosť 56.75 EUR',
        `UID: ${S.uf.uid}`,
        `[QR: ${S.uf.qrText}]`,
        `OKP: ${S.uf.okp}`,
      ]);
      expect(text).not.toContain('Sadzba');
      expect(text).not.toContain('POKLADNIČNÝ');
    }
    // Items handed in by mistake are not printed on a UF (SFS errors -113/-114: UF has none).
    const withItems: ReceiptView = { ...S.uf, items: S.pdOnline.items, vatRows: S.pdOnline.vatRows };
    const text = compact(withItems, 42);
    expect(text).not.toContain('Chlieb');
    expect(text).not.toContain('Sadzba');
  });

  it('ND: NEPLATNÝ DOKLAD above the data and again at the end; items and VAT table', () => {
    for (const width of WIDTHS) {
      const text = compact(S.nd, width);
      const [first] = expectInOrder(text, [
        'NEPLATNÝ DOKLAD',
        'Dátum vyhot.:',
        'Poradové číslo dokladu: 26',
        'Školenie obsluhy',
        'SUMA 12.30 EUR',
        'Sadzba Základ DPH Spolu',
        '23 % 10.00 2.30 12.30',
        `UID: ${S.nd.uid}`,
        'OVERTE DOKLAD POMOCOU QR KÓDU',
        `OKP: ${S.nd.okp}`,
        'NEPLATNÝ DOKLAD',
      ]);
      expect(first).toBeGreaterThan(text.indexOf('Kódpokladne'));
    }
    const headings = textBlocks(layoutReceipt(S.nd, 32)).filter((b) => b.text === 'NEPLATNÝ DOKLAD');
    expect(headings).toHaveLength(2);
    expect(headings.every((b) => b.bold && b.size === 'double')).toBe(true);
  });

  it('VK and VY from 2026 (not sent, Act 384/2025): VKLAD / VÝBER, the amount, "not sent", PKP and OKP; no offline heading, no QR', () => {
    for (const width of WIDTHS) {
      const vk = compact(S.vk, width);
      const notSent = 'Neodosiela sa do e-kasa (zákon 384/2025 Z. z.)';
      expectInOrder(vk, [
        ...HEADER,
        'VKLAD',
        notSent,
        'Poradové číslo dokladu: 1',
        'SUMA 100.00 EUR',
        'PKP:',
        'OKP:',
      ]);
      const vy = compact(S.vy, width);
      // The API's withdrawal is negative; the SFS Amount (and the paper) shows what was taken out.
      expectInOrder(vy, [
        ...HEADER,
        'VÝBER',
        notSent,
        'Poradové číslo dokladu: 2',
        'SUMA 50.00 EUR',
        'PKP:',
        'OKP:',
      ]);
      for (const text of [vk, vy]) {
        expect(text).not.toContain('OFF-LINE');
        expect(text).not.toContain('UID:');
        expect(text).not.toContain('OVERTE');
        expect(text).not.toContain('Hotovosť');
        expect(text).not.toContain('Sadzba');
        expect(text).not.toContain('-50.00');
      }
    }
    expect(qrBlocks(layoutReceipt(S.vk, 42))).toEqual([]);
    expect(qrBlocks(layoutReceipt(S.vy, 42))).toEqual([]);
  });

  it('a VK sent in 2025 shows its UID and OKP, no PKP, no "not sent" line, no QR', () => {
    for (const width of WIDTHS) {
      const text = compact(S.vkSent2025, width);
      expectInOrder(text, [
        ...HEADER,
        'VKLAD',
        'Poradové číslo dokladu: 41',
        'SUMA 100.00 EUR',
        'UID:',
        'OKP:',
      ]);
      expect(text).not.toContain('PKP:');
      expect(text).not.toContain('Neodosiela');
      expect(text).not.toContain('OFF-LINE');
    }
    expect(qrBlocks(layoutReceipt(S.vkSent2025, 42))).toEqual([]);
  });

  it('paragón: paper date, entry date and paragón number; rounding before SUMA', () => {
    for (const width of WIDTHS) {
      expectInOrder(compact(S.paragon, width), [
        'POKLADNIČNÝ DOKLAD',
        'Dátum vyhot.: 14.01.2026 16:45:00',
        'Dátum zaevid.: 15.01.2026 11:02:10',
        'Číslo paragónu: 118',
        'Poradové číslo dokladu: 27',
        'Obed menu',
        '1 x 6.92 6.92 19 %',
        'Zaokrúhlenie: -0.02 EUR',
        'SUMA 6.90 EUR',
        '19 % 5.82 1.10 6.92',
        'OKP:',
      ]);
    }
    expect(compact(S.pdOnline, 42)).not.toContain('Zaokrúhlenie');
    expect(compact(S.pdOnline, 42)).not.toContain('paragónu');
  });

  it('copy: KÓPIA first and last, double and bold; content otherwise as the original', () => {
    const layout = layoutReceipt(S.copy, 42);
    const texts = textBlocks(layout);
    expect(texts[0]).toMatchObject({ text: 'KÓPIA', bold: true, size: 'double' });
    expect(texts.at(-1)).toMatchObject({ text: 'KÓPIA', bold: true, size: 'double' });
    const original = layoutReceipt(S.pdOnline, 42).blocks;
    expect(layout.blocks.filter((b) => !(b.kind === 'text' && b.text === 'KÓPIA'))).toEqual(original);
  });

  it('demo: every receipt of a demo merchant is marked first and last', () => {
    for (const view of [S.demo, { ...S.vk, demo: true }, { ...S.pdOffline, demo: true }]) {
      const texts = textBlocks(layoutReceipt(view, 32));
      expect(texts[0]?.text).toBe('*** DEMO - NEPLATNÝ DOKLAD ***');
      expect(texts.at(-1)?.text).toBe('*** DEMO - NEPLATNÝ DOKLAD ***');
    }
  });

  it('non-payer on a portable register: no IČ DPH, no rates, no VAT table; "Prenosná pokladňa"', () => {
    const text = compact(S.nonPayer, 42);
    expectInOrder(text, [
      'Jana Nováková - Kvety',
      'DIČ: 1098765432',
      'Prevádzka: Stánok',
      'Prenosná pokladňa',
    ]);
    expect(text).not.toContain('IČDPH');
    expect(text).not.toContain('IČO:');
    expect(text).not.toContain('%');
    expect(text).not.toContain('Oslobodené');
    expect(compact(S.pdOnline, 42)).not.toContain('Prenosná');
  });

  it('words every item type and its extra data', () => {
    const view: ReceiptView = {
      ...S.pdOnline,
      items: [
        {
          name: 'A',
          kind: 'PACKING_REFUND',
          quantity: '2',
          unitPrice: '-0.15',
          lineTotalCents: -30,
          vatRate: 0,
        },
        {
          name: 'B',
          kind: 'UPDATE',
          quantity: '1',
          unitPrice: '-1.00',
          lineTotalCents: -100,
          vatRate: 23,
          referenceDocumentId: 'REF-1',
        },
        { name: 'C', kind: 'DISCOUNT', quantity: '1', unitPrice: '-0.50', lineTotalCents: -50, vatRate: 23 },
        {
          name: 'D',
          kind: 'DEPOSIT',
          quantity: '1',
          unitPrice: '-10.00',
          lineTotalCents: -1000,
          vatRate: 23,
        },
        {
          name: 'E',
          kind: 'SALE',
          quantity: '1',
          unitPrice: '3.00',
          lineTotalCents: 300,
          vatRate: 0,
          specialRegulation: 'PDP',
          seller: { id: 'SK2020202020', type: 'IC_DPH' },
        },
      ],
      exemptRows: [{ totalCents: -30 }, { specialRegulation: 'PDP', totalCents: 300 }],
    };
    expectInOrder(compact(view, 48), [
      'Výkup vratného obalu',
      'Opravná položka',
      'k dokladu REF-1',
      'Zľava',
      'Odpočítaná záloha',
      'V mene: IČ DPH SK2020202020',
      'Prenesenie daňovej povinnosti',
      'Sadzba',
      'Oslobodené od DPH -0.30',
      'Prenesenie daňovej povinnosti 3.00',
    ]);
  });

  it('prints no VAT rate on returnable packaging lines, sold or bought back; its total stays in the column', () => {
    const line = (name: string, kind: ReceiptView['items'][number]['kind'], cents: number, rate: number) => ({
      name,
      kind,
      quantity: '1',
      unitPrice: (cents / 100).toFixed(2),
      lineTotalCents: cents,
      vatRate: rate,
    });
    const view: ReceiptView = {
      ...S.pdOnline,
      items: [
        line('Pivo', 'SALE', 120, 23),
        line('Fľaša', 'PACKING', 15, 0),
        line('Vrátená fľaša', 'PACKING_REFUND', -15, 0),
        line('Kniha', 'SALE', 1000, 0),
      ],
    };
    for (const width of WIDTHS) {
      const texts = textBlocks(layoutReceipt(view, width)).map((b) => b.text);
      const under = (name: string) => texts[texts.indexOf(name) + 1] ?? '';
      expect(under('Pivo')).toMatch(/ 1\.20 23 %$/);
      // the certified vendor's note: no VAT may be printed on the packaging line
      expect(under('Fľaša')).toMatch(/ 0\.15 {5}$/);
      expect(under('Vrátená fľaša')).toMatch(/ -0\.15 {5}$/);
      for (const name of ['Fľaša', 'Vrátená fľaša']) {
        expect(under(name)).not.toContain('%');
        expect(under(name).length, name).toBe(under('Pivo').length);
      }
      // an exempt sale that is not packaging keeps its 0 %
      expect(under('Kniha')).toMatch(/ 10\.00 {2}0 %$/);
    }
  });

  it('falls back to one block per rate when the VAT columns do not fit the paper', () => {
    const big: ReceiptView = {
      ...S.nd,
      vatRows: [{ rate: 23, baseCents: 813008130, vatCents: 186991870, totalCents: 1000000000 }],
    };
    const text = renderReceiptText(layoutReceipt(big, 32));
    expect(text).toContain('23 %\n');
    expect(text).toMatch(/ {2}Základ +8130081\.30\n/);
    expect(text).toMatch(/ {2}DPH +1869918\.70\n/);
    expect(text).toMatch(/ {2}Spolu +10000000\.00\n/);
  });

  it('is pure: the same view gives the same blocks; a bad width is refused', () => {
    expect(layoutReceipt(S.pdOnline, 42)).toEqual(layoutReceipt(structuredClone(S.pdOnline), 42));
    expect(() => layoutReceipt(S.pdOnline, 20)).toThrow(RangeError);
    expect(() => layoutReceipt(S.pdOnline, 42.5)).toThrow(RangeError);
  });

  it('puts the logo placeholder on top when the view has one', () => {
    const layout = layoutReceipt({ ...S.pdOnline, logoRef: 'logo' }, 42);
    expect(layout.blocks[0]).toEqual({ kind: 'image', ref: 'logo' });
  });
});
