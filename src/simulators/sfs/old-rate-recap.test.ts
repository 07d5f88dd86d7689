import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SfsHarness, startSfsHarness } from '../../../test/support/sfs-harness.js';
import { item, receiptRequest } from '../../../test/support/sfs-requests.js';
import type { SfsOutcome } from '../../core/ports/tax-authority.js';
import type { SfsItem } from '../../core/sfs/message.js';
import { computeVatRecap } from '../../core/sfs/vat-recap.js';

/**
 * Capability 16 point 4 / ADR 0423: in a 2026 recap the placement of a refund of a pre-2025 sale
 * (20 %, 10 %) is not confirmed by any source. The simulator accepts both readings — old rates in
 * basic/reduced (kasa's) and old rates outside every group (literal) — and nothing else.
 */
let h: SfsHarness;
let number = 9000;
beforeAll(async () => {
  h = await startSfsHarness();
});
afterAll(async () => h.close());

const REF = 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A';
const refund = (price: string, rate: string) =>
  item('Vrátenie 2024', price, rate, { ItemType: 'V', ReferenceReceiptId: REF });
const codeOf = (outcome: SfsOutcome) => (outcome.kind === 'rejected' ? outcome.code : outcome.kind);

/** A 2026 PD with these items and the given recap attributes (no computed recap). */
async function sendWith(items: SfsItem[], amount: string, recap: Record<string, string | undefined>) {
  const request = receiptRequest(h.merchant.signer, {
    number: String(++number),
    noRecap: true,
    data: { Items: items, Amount: amount, ...recap },
  });
  return codeOf(await h.client.registerReceipt(request, h.merchant.signer));
}

const mixed = [
  item('Káva', '3.69', '23.00'),
  item('Džús', '2.38', '19.00'),
  refund('-1.20', '20.00'),
  refund('-1.10', '10.00'),
];
const recapOf = (items: SfsItem[], oldRates: 'in-groups' | 'outside') =>
  computeVatRecap(items, { regime: '2026', vatPayer: true, oldRates });

describe('old VAT rates in a 2026 recap', () => {
  it('the two readings differ for such a document', () => {
    expect(recapOf(mixed, 'in-groups')).toEqual({
      TaxBaseBasic: '2.00',
      BasicVatAmount: '0.49',
      TaxBaseReduced: '1.00',
      ReducedVatAmount: '0.28',
    });
    expect(recapOf(mixed, 'outside')).toEqual({
      TaxBaseBasic: '3.00',
      BasicVatAmount: '0.69',
      TaxBaseReduced: '2.00',
      ReducedVatAmount: '0.38',
    });
  });

  it('accepts the old rates added to basic / reduced (kasa)', async () => {
    expect(await sendWith(mixed, '3.77', recapOf(mixed, 'in-groups'))).toBe('accepted');
  });

  it('accepts the old rates left out of every group (literal reading)', async () => {
    expect(await sendWith(mixed, '3.77', recapOf(mixed, 'outside'))).toBe('accepted');
  });

  it('refuses any other placement (old 20 % in reduced) with -2', async () => {
    const wrong = { ...recapOf(mixed, 'outside'), TaxBaseReduced: '1.00', ReducedVatAmount: '0.18' };
    expect(await sendWith(mixed, '3.77', wrong)).toBe(-2);
  });

  it('a document of old-rate refunds only: the basic pair, or (literal) no recap at all', async () => {
    const only = [refund('-1.20', '20.00')];
    expect(await sendWith(only, '-1.20', recapOf(only, 'in-groups'))).toBe('accepted');
    expect(recapOf(only, 'outside')).toEqual({});
    expect(await sendWith(only, '-1.20', {})).toBe('accepted');
    // with a current rate on the document, the recap stays required (-119)
    expect(await sendWith(mixed, '3.77', {})).toBe(-119);
  });
});
