import { describe, expect, it } from 'vitest';
import { cashRounded, cashRoundedAmount, checkCashRounding, isCashPayment } from './cash-rounding.js';

describe('cash rounding to 5 cents', () => {
  it('rounds remainders 1, 2 down and 3, 4 up', () => {
    const got = [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009].map(cashRounded);
    expect(got).toEqual([1000, 1000, 1000, 1005, 1005, 1005, 1005, 1005, 1010, 1010]);
  });

  it('rounds a total of 1 or 2 cents to 5 cents', () => {
    expect(cashRounded(1)).toBe(5);
    expect(cashRounded(2)).toBe(5);
    expect(cashRounded(3)).toBe(5);
    expect(cashRounded(0)).toBe(0);
  });

  it('is symmetric for money paid out', () => {
    expect(cashRounded(-998)).toBe(-1000);
    expect(cashRounded(-1002)).toBe(-1000);
    expect(cashRounded(-1)).toBe(-5);
  });

  it('accepts the exact sum or the rounding of an all-cash payment only', () => {
    const cash = (cents: number) => [{ name: 'Hotovosť', amountCents: cents }];
    const names = ['Hotovosť'];
    expect(checkCashRounding(1000, 998, cash(1000), names)).toEqual({ ok: true, roundingCents: 2 });
    expect(checkCashRounding(998, 998, [], names)).toEqual({ ok: true, roundingCents: 0 });
    expect(checkCashRounding(1000, 1003, cash(1000), names).ok).toBe(false);
    expect(checkCashRounding(995, 998, cash(995), names).ok).toBe(false);
    expect(checkCashRounding(5, 1, cash(5), names)).toEqual({ ok: true, roundingCents: 4 });
  });
});

describe('cash rounding only on the cash part (ADR 0420)', () => {
  const names = ['Hotovosť', 'Cash'];

  it('refuses a rounding that no cash payment carries', () => {
    const card = checkCashRounding(110, 112, [{ name: 'Karta', amountCents: 110 }], names);
    expect(card).toMatchObject({ ok: false, expectedCents: [112] });
    const zeroCash = checkCashRounding(
      110,
      112,
      [
        { name: 'Karta', amountCents: 110 },
        { name: 'Cash', amountCents: 0 },
      ],
      names,
    );
    expect(zeroCash.ok).toBe(false);
    // The reason says what is wrong: the cash payment is there but 0, not "no payment is cash".
    expect(zeroCash.ok === false && zeroCash.reason).toBe(
      'a 5-cent rounding applies only to a part paid in cash, and the cash payment "Cash" is 0, so nothing is paid in cash',
    );
    expect(card.ok === false && card.reason).toBe(
      'a 5-cent rounding applies only to a part paid in cash, and no payment is named as cash (the cash payment names: Hotovosť, Cash)',
    );
    const noNames = checkCashRounding(110, 112, [{ name: 'Hotovosť', amountCents: 110 }], []);
    expect(noNames.ok === false && noNames.reason).toContain('no cash payment names are set');
  });

  it('rounds the cash part of a mixed payment, not the total', () => {
    const mixed = (cardCents: number, amountCents: number) =>
      checkCashRounding(
        amountCents,
        1003,
        [
          { name: 'Karta', amountCents: cardCents },
          { name: 'Hotovosť', amountCents: amountCents - cardCents },
        ],
        names,
      );
    // cash part 5.02 → 5.00: amount 10.01 (the total 10.03 would round to 10.05)
    expect(mixed(501, 1001)).toEqual({ ok: true, roundingCents: -2 });
    expect(mixed(501, 1005)).toMatchObject({ ok: false, expectedCents: [1003, 1001] });
    // cash part 5.03 → 5.05
    expect(mixed(500, 1005)).toEqual({ ok: true, roundingCents: 2 });
  });

  it('counts payments as paid out on a negative document', () => {
    const refund = checkCashRounding(
      -1000,
      -998,
      [
        { name: 'Karta', amountCents: 500 },
        { name: 'cash', amountCents: 500 },
      ],
      names,
    );
    // cash part −4.98 → −5.00
    expect(refund).toEqual({ ok: true, roundingCents: -2 });
  });

  it('reads a refund sent with only zeros as paid back whole under its first payment (ADR 0512)', () => {
    // Review s12 #6: items −10.03 paid back {Hotovosť: 0} — printed "Vrátené Hotovosť 10.05" and
    // counted in the cash drawer — so its cash rounding to −10.05 is accepted like {Hotovosť: 10.05}.
    const zero = (...ns: string[]) => ns.map((name) => ({ name, amountCents: 0 }));
    expect(checkCashRounding(-1005, -1003, zero('Hotovosť'), names)).toEqual({ ok: true, roundingCents: -2 });
    expect(checkCashRounding(-1005, -1003, zero('Hotovosť', 'Karta'), names)).toEqual({
      ok: true,
      roundingCents: -2,
    });
    expect(checkCashRounding(-1000, -1003, zero('Hotovosť'), names)).toMatchObject({
      ok: false,
      expectedCents: [-1003, -1005],
    });
    // The first payment names how: a card first means paid back by card, nothing to round.
    const card = checkCashRounding(-1005, -1003, zero('Karta', 'Hotovosť'), names);
    expect(card).toMatchObject({ ok: false, expectedCents: [-1003] });
    expect(card.ok === false && card.reason).toContain(
      'a refund sent with only zeros is paid back whole under its first payment, "Karta", which is not cash',
    );
    // A sale is not read so: a 0 cash payment there pays nothing in cash.
    expect(checkCashRounding(1005, 1003, zero('Hotovosť'), names).ok).toBe(false);
    // A repair of such a refund rounds it again the same way.
    expect(cashRoundedAmount(-1003, zero('Hotovosť'), names)).toBe(-1005);
    expect(cashRoundedAmount(-1003, zero('Karta'), names)).toBe(-1003);
  });

  it('refuses when the non-cash payments leave nothing to pay in cash', () => {
    const over = checkCashRounding(
      1005,
      1003,
      [
        { name: 'Karta', amountCents: 1100 },
        { name: 'Cash', amountCents: 5 },
      ],
      names,
    );
    expect(over.ok).toBe(false);
  });

  it('matches cash names without regard to case or surrounding spaces, diacritics counting', () => {
    expect(isCashPayment(' hotovosť ', names)).toBe(true);
    expect(isCashPayment('CASH', names)).toBe(true);
    expect(isCashPayment('Hotovost', names)).toBe(false);
    expect(isCashPayment('Karta', names)).toBe(false);
  });
});
