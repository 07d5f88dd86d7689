import { describe, expect, it } from 'vitest';
import { HEAD_CACHE_SIZE, layoutReceipt } from './receipt-layout.js';
import type { ReceiptView } from './receipt-model.js';
import { renderReceiptText } from './receipt-text.js';
import { SAMPLE_RECEIPTS } from './sample-receipts.js';

const S = SAMPLE_RECEIPTS;

/** The first `n` blocks: the head (marks, merchant, point of sale, register code) of these views. */
const headOf = (view: ReceiptView, width: number, n: number) => layoutReceipt(view, width).blocks.slice(0, n);

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
