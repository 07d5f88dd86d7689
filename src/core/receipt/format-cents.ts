/**
 * Integer cents as a receipt amount with two decimals and a dot (`1234` → `12.34`,
 * `-13` → `-0.13`), the way the SFS message writes amounts. Pure integer arithmetic.
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents))
    throw new RangeError(`amount in cents must be a safe integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.trunc(abs / 100);
  const rest = abs % 100;
  return `${sign}${euros}.${rest < 10 ? '0' : ''}${rest}`;
}

/** `12.34 EUR`: the currency as text, because `€` is missing from the printers' CP852. */
export function formatEur(cents: number): string {
  return `${formatCents(cents)} EUR`;
}
