/**
 * Cash rounding to 5 euro cents (in force since 1 Jul 2022; rule as paraphrased in S9 NineDigit
 * `ReceiptDto::roundingAmount`; S18; sources in ADR 0009): a remainder below half of 5 cents rounds
 * down, half or more rounds up; a total of 1 or 2 cents rounds to 5 cents. Symmetric for negative
 * totals (money paid out). ADR 0402.
 */
export function cashRounded(cents: number): number {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  let rounded: number;
  if (abs === 1 || abs === 2) {
    rounded = 5;
  } else {
    const remainder = abs % 5;
    // remainders 1, 2 are below 2.5 cents → down; 3, 4 → up
    rounded = remainder >= 3 ? abs - remainder + 5 : abs - remainder;
  }
  return negative ? -rounded : rounded;
}

export interface PaymentPart {
  name: string;
  amountCents: number;
}

/** Whether a payment name means cash: same text ignoring case and surrounding spaces (ADR 0420). */
export function isCashPayment(name: string, cashNames: readonly string[]): boolean {
  const key = (text: string) => text.normalize('NFC').trim().toLowerCase();
  const wanted = key(name);
  return cashNames.some((cash) => key(cash) === wanted);
}

/**
 * The payments as a refund's receipt and the daily summary read them (ADR 0512): when the item sum
 * is negative and every payment is 0, the whole sum is paid back under the first payment's name
 * ("Vrátené Hotovosť …"); otherwise the payments as sent. The cash rounding reads them the same
 * way, so `{"Hotovosť": 0}` on a refund is a refund paid back in cash (ADR 0420 as amended).
 */
export function paymentsAsPaid(
  itemSumCents: number,
  payments: readonly PaymentPart[],
): readonly PaymentPart[] {
  const first = payments[0];
  if (itemSumCents < 0 && first !== undefined && payments.every((p) => p.amountCents === 0)) {
    return [{ name: first.name, amountCents: -itemSumCents }];
  }
  return payments;
}

export type RoundingCheck =
  | { ok: true; roundingCents: number }
  | { ok: false; expectedCents: readonly number[]; reason: string };

/**
 * Whether `amountCents` may stand for an item sum (ADR 0420, superseding the total-based rule of
 * ADR 0402). Act 18/1996 Z. z. on prices, § 3(4) (as amended by Act 457/2021 Z. z., from
 * 1 Jul 2022): the *price paid in cash* is rounded to 5 cents — so with a card, nothing is
 * rounded, and in a mixed payment only the cash part is:
 *
 * - `amount` = the item sum is always accepted (rounding 0; payments are not checked, API text);
 * - otherwise a payment named as cash (`cashNames`) with an amount above 0 must be there; the
 *   non-cash payments are taken as paid exactly, the rest is the cash part, and `amount` must be
 *   the non-cash payments plus the cash part rounded by {@link cashRounded};
 * - the payments are read by {@link paymentsAsPaid}: a refund sent with only zeros is paid back
 *   whole under its first payment, in cash when that is a cash name (ADR 0512).
 *
 * Payment amounts are magnitudes (≥ 0): on a negative document (money paid out) they count
 * negative. E.g. items 10.03 paid `{Karta: 5.01, Hotovosť: 5.00}`: cash part 5.02 → 5.00, so
 * `amount` 10.01; items 1.12 paid `{Karta: 1.10}` is refused.
 */
export function checkCashRounding(
  amountCents: number,
  itemSumCents: number,
  sent: readonly PaymentPart[],
  cashNames: readonly string[],
): RoundingCheck {
  if (amountCents === itemSumCents) return { ok: true, roundingCents: 0 };
  const payments = paymentsAsPaid(itemSumCents, sent);
  const wholeRefund = payments !== sent;
  const cashNamed = payments.filter((p) => isCashPayment(p.name, cashNames));
  if (!cashNamed.some((p) => p.amountCents > 0)) {
    // Say precisely why: a cash payment of 0 pays nothing in cash; otherwise no name means cash.
    const why = wholeRefund
      ? `a refund sent with only zeros is paid back whole under its first payment, "${payments[0]!.name}", which is not cash (put the cash payment first)`
      : cashNamed.length > 0
        ? `the cash payment ${cashNamed.map((p) => `"${p.name}"`).join(', ')} is 0, so nothing is paid in cash`
        : cashNames.length > 0
          ? `no payment is named as cash (the cash payment names: ${cashNames.join(', ')})`
          : 'no cash payment names are set (setting cashPaymentNames)';
    return {
      ok: false,
      expectedCents: [itemSumCents],
      reason: `a 5-cent rounding applies only to a part paid in cash, and ${why}`,
    };
  }
  const { sign, nonCash, cashDue } = cashPartOf(itemSumCents, payments, cashNames);
  if (cashDue === 0 || Math.sign(cashDue) !== sign) {
    return {
      ok: false,
      expectedCents: [itemSumCents],
      reason: 'the non-cash payments cover the whole item sum, so no part is paid in cash to round',
    };
  }
  const expected = nonCash + cashRounded(cashDue);
  if (amountCents === expected) return { ok: true, roundingCents: amountCents - itemSumCents };
  return {
    ok: false,
    expectedCents: expected === itemSumCents ? [itemSumCents] : [itemSumCents, expected],
    reason:
      nonCash === 0
        ? 'it may differ only by the 5-cent rounding of the sum paid in cash'
        : 'only the part paid in cash (the item sum less the non-cash payments) is rounded to 5 cents',
  };
}

/** The non-cash payments (taken as paid exactly) and the cash part left of an item sum (ADR 0420). */
function cashPartOf(
  itemSumCents: number,
  payments: readonly PaymentPart[],
  cashNames: readonly string[],
): { sign: number; nonCash: number; cashDue: number } {
  const sign = itemSumCents < 0 ? -1 : 1;
  const nonCash =
    sign *
    payments.filter((p) => !isCashPayment(p.name, cashNames)).reduce((sum, p) => sum + p.amountCents, 0);
  return { sign, nonCash, cashDue: itemSumCents - nonCash };
}

/**
 * The amount of an item sum with its cash part rounded (ADR 0420): the non-cash payments as paid,
 * plus the rest rounded by {@link cashRounded}. The item sum itself when nothing is paid in cash
 * (no payment named as cash above 0, or the non-cash payments cover it); the payments read by
 * {@link paymentsAsPaid}. Used when a repair changes the items of a document that was rounded
 * (docs/offline.md).
 */
export function cashRoundedAmount(
  itemSumCents: number,
  sent: readonly PaymentPart[],
  cashNames: readonly string[],
): number {
  const payments = paymentsAsPaid(itemSumCents, sent);
  if (!payments.some((p) => p.amountCents > 0 && isCashPayment(p.name, cashNames))) return itemSumCents;
  const { sign, nonCash, cashDue } = cashPartOf(itemSumCents, payments, cashNames);
  if (cashDue === 0 || Math.sign(cashDue) !== sign) return itemSumCents;
  return nonCash + cashRounded(cashDue);
}
