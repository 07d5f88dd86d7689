import { describe, expect, it } from 'vitest';
import { layoutQrSlip, NOT_A_RECEIPT } from './qr-slip-layout.js';
import { layoutReceipt } from './receipt-layout.js';
import { SAMPLE_RECEIPTS } from './sample-receipts.js';

const ID = 'QR-ab29e346f1d841c8a95a63d857490818';

describe('QR payment slip (ADR 0909)', () => {
  it.each([32, 42, 48])(
    'at width %i: "NEPLATNÝ DOKLAD" on every third line, the QR at level M, the id whole',
    (width) => {
      const layout = layoutQrSlip(
        {
          creditorName: 'Kaviaren Zilina',
          amountCents: 1250,
          paymeLink: `https://payme.sk/2/m/PME?IBAN=SK4811000000002944116480&AM=12.50&CC=EUR&PI=${ID}&CN=Kaviaren`,
          qrPaymentId: ID,
          validUntil: '10:15',
          demo: false,
        },
        width,
      );
      const lines = layout.blocks.filter((b) => b.kind === 'text').map((b) => (b as { text: string }).text);
      // §5(3)(t): at most two other lines between two marks.
      let sinceMark = 0;
      for (const line of lines) {
        if (line === NOT_A_RECEIPT) sinceMark = 0;
        else expect(++sinceMark).toBeLessThanOrEqual(2);
      }
      expect(lines[0]).toBe(NOT_A_RECEIPT);
      expect(lines.join('')).toContain(ID);
      expect(lines).toContain('Suma: 12.50 EUR');
      const qr = layout.blocks.find((b) => b.kind === 'qr');
      expect(qr).toMatchObject({ kind: 'qr', ecc: 'M', text: expect.stringContaining(ID) });
    },
  );
});

describe('receipt with a QR payment (ADR 0907)', () => {
  it('prints the payment id under the payments', () => {
    const view = { ...Object.values(SAMPLE_RECEIPTS)[0]!, qrPayments: [{ id: ID, amountCents: 100 }] };
    const text = layoutReceipt(view, 42)
      .blocks.filter((b) => b.kind === 'text')
      .map((b) => (b as { text: string }).text);
    expect(text).toContain('ID QR platby:');
    expect(text).toContain(ID); // on its own line at 42 characters
    const narrow = layoutReceipt(view, 32)
      .blocks.filter((b) => b.kind === 'text')
      .map((b) => (b as { text: string }).text);
    expect(narrow.join('\n')).toContain('ID QR platby:');
    expect(narrow.join('')).toContain(ID);
  });
});
