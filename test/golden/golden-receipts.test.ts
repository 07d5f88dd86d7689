import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layoutReceipt } from '../../src/core/receipt/receipt-layout.js';
import { renderReceiptText } from '../../src/core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS, type SampleReceiptName } from '../../src/core/receipt/sample-receipts.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'receipts');
// `KASA_UPDATE_GOLDEN=1 npx vitest run test/golden` writes the files after a deliberate change.
const update = process.env.KASA_UPDATE_GOLDEN === '1';

const CASES: SampleReceiptName[] = [
  'pdOnline',
  'pdOffline',
  'uf',
  'nd',
  'paragon',
  'refund',
  'vk',
  'vkSent2025',
  'copy',
  'demo',
];

describe('golden receipt texts', () => {
  for (const name of CASES) {
    for (const width of [32, 42, 48]) {
      it(`${name} at ${width} characters`, () => {
        const text = renderReceiptText(layoutReceipt(SAMPLE_RECEIPTS[name], width));
        const file = join(dir, `${name}-${width}.txt`);
        if (update || !existsSync(file)) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(file, text);
          if (!update)
            throw new Error(`golden file ${file} was missing and has been written: review and commit it`);
        }
        expect(text).toBe(readFileSync(file, 'utf8'));
      });
    }
  }

  it('online PD shows three VAT rates', () => {
    const text = readFileSync(join(dir, 'pdOnline-48.txt'), 'utf8');
    for (const rate of ['5 %', '19 %', '23 %']) expect(text).toContain(rate);
  });

  it('a refund prints the amount paid back, never a payment of 0.00 under a negative SUMA', () => {
    for (const width of [32, 42, 48]) {
      const text = readFileSync(join(dir, `refund-${width}.txt`), 'utf8');
      expect(text).toMatch(/SUMA +-2\.50 EUR/);
      expect(text).toMatch(/Vrátené Hotovosť +2\.50 EUR/);
      expect(text).not.toMatch(/^Hotovosť/m);
    }
    const zero = { ...SAMPLE_RECEIPTS.refund, payments: [{ name: 'Hotovosť', amountCents: 0 }] };
    const text = renderReceiptText(layoutReceipt(zero, 48));
    expect(text).toMatch(/Vrátené Hotovosť +2\.50 EUR/);
    expect(text).not.toContain('0.00 EUR');
  });
});
