import { describe, expect, it, vi } from 'vitest';
import { HEAD_CACHE_SIZE, layoutReceipt } from './receipt-layout.js';
import type { ReceiptView } from './receipt-model.js';
import { renderReceiptText } from './receipt-text.js';
import { SAMPLE_RECEIPTS } from './sample-receipts.js';

const S = SAMPLE_RECEIPTS;

/** The first `n` blocks: the head (marks, merchant, point of sale, register code) of these views. */
const headOf = (view: ReceiptView, width: number, n: number) => layoutReceipt(view, width).blocks.slice(0, n);

/** The layout a fresh module instance gives (an empty head cache): what the receipt is without caching. */
async function coldLayout(view: ReceiptView, width: number): Promise<string> {
  vi.resetModules();
  const fresh = (await import('./receipt-layout.js')) as typeof import('./receipt-layout.js');
  return JSON.stringify(fresh.layoutReceipt(view, width));
}

describe('the receipt head laid out once per register and paper (ADR 1111)', () => {
  it('shares the head between receipts of one register, frozen, and lays out the rest anew', () => {
    const a = layoutReceipt(S.pdOnline, 48);
    const b = layoutReceipt({ ...S.pdOnline, sequenceNumber: 24, documentNumber: '202601/24' }, 48);
    expect(b.blocks[0]).toBe(a.blocks[0]);
    expect(Object.isFrozen(a.blocks[0])).toBe(true);
    expect(renderReceiptText(b)).toContain('202601/24');
    expect(renderReceiptText(b)).not.toContain('202601/23');
  });

  it('lays the head out again for every input it is made of: never a stale head', () => {
    const base = S.pdOnline;
    const m = base.merchant;
    const variants: Array<[string, ReceiptView, string]> = [
      ['merchant name', { ...base, merchant: { ...m, name: 'Nový obchod s.r.o.' } }, 'Nový obchod s.r.o.'],
      [
        'seat',
        { ...base, merchant: { ...m, seatAddress: 'Dolná 1, 01001 Žilina' } },
        'Dolná 1, 01001 Žilina',
      ],
      ['IČO', { ...base, merchant: { ...m, ico: '11112222' } }, '11112222'],
      ['DIČ', { ...base, merchant: { ...m, dic: '2020202020' } }, '2020202020'],
      ['IČ DPH', { ...base, merchant: { ...m, icDph: 'SK2020202020' } }, 'SK2020202020'],
      [
        'point of sale',
        { ...base, orgUnit: { name: 'Stánok na trhu', address: 'Trh 2, Nitra' } },
        'Stánok na trhu',
      ],
      ['register code', { ...base, cashRegisterCode: '88899999999900009' }, '88899999999900009'],
      ['portable', { ...base, portable: true }, 'Prenosná'],
      ['demo', { ...base, demo: true }, 'NEPLATNÝ'],
      ['copy', { ...base, copy: true }, 'KÓPIA'],
    ];
    const plain = renderReceiptText(layoutReceipt(base, 48));
    for (const [what, view, shows] of variants) {
      expect(plain, what).not.toContain(shows);
      expect(renderReceiptText(layoutReceipt(view, 48)), what).toContain(shows);
      // And back: the register's own head again, not the variant's.
      expect(renderReceiptText(layoutReceipt(base, 48)), what).toBe(plain);
    }
    // Another paper width is another head (every line fits its own width).
    expect(layoutReceipt(base, 32).width).toBe(32);
    for (const block of headOf(base, 32, 6)) {
      if (block.kind === 'text') expect(block.text.length).toBeLessThanOrEqual(32);
    }
  });

  it('gives, after any other head was cached, exactly the layout an empty cache gives (every key input)', async () => {
    // A mark also printed at the bottom (demo, copy) would hide a stale head from a text search:
    // compare whole layouts with a cold module instead (review of ADR 1111).
    const base = S.pdOnline;
    const m = base.merchant;
    const variants: Array<[string, ReceiptView, number]> = [
      ['demo', { ...base, demo: true }, 48],
      ['copy', { ...base, copy: true }, 48],
      ['logo', { ...base, logoRef: 'logo' }, 48],
      ['merchant name', { ...base, merchant: { ...m, name: 'Iný obchod s.r.o.' } }, 48],
      ['no IČO', { ...base, merchant: { name: m.name, dic: m.dic, seatAddress: m.seatAddress } }, 48],
      ['point of sale address', { ...base, orgUnit: { name: 'Predajňa', address: 'Iná 5, Trnava' } }, 48],
      ['portable', { ...base, portable: true }, 48],
      ['register code', { ...base, cashRegisterCode: '88800000000000001' }, 48],
      ['width', base, 32],
    ];
    for (const [what, view, width] of variants) {
      layoutReceipt(base, 48);
      layoutReceipt(base, 32);
      const warm = JSON.stringify(layoutReceipt(view, width));
      expect(warm, what).toBe(await coldLayout(view, width));
    }
  });

  it('keeps a bounded number of heads and still lays out every one right after eviction', () => {
    const views = Array.from({ length: HEAD_CACHE_SIZE * 2 }, (_, i) => ({
      ...S.pdOnline,
      merchant: { ...S.pdOnline.merchant, name: `Obchod číslo ${i}` },
    }));
    for (const view of views) layoutReceipt(view, 48);
    for (const [i, view] of views.entries()) {
      expect(renderReceiptText(layoutReceipt(view, 48))).toContain(`Obchod číslo ${i}`);
    }
  });
});
