/**
 * Cash rounding to 5 euro cents (in force since 1 Jul 2022; rule as paraphrased in S9 NineDigit
 * `ReceiptDto::roundingAmount`, protocol reference S18): a remainder below half of 5 cents rounds
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

/**
 * Whether `amountCents` may stand for an item sum: the exact sum, or the sum rounded to 5 cents
 * by {@link cashRounded}. Returns the rounding (amount − sum), or undefined when neither.
 * So 9.98 → 10.00 (rounding +0.02) is accepted; 10.00 for a sum of 10.03 is not (10.03 rounds
 * to 10.05).
 */
export function roundingOf(amountCents: number, itemSumCents: number): number | undefined {
  if (amountCents === itemSumCents) return 0;
  if (amountCents === cashRounded(itemSumCents)) return amountCents - itemSumCents;
  return undefined;
}
