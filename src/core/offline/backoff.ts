/**
 * The wait before the next try after `failures` failed tries in a row (≥ 1): the interval doubled
 * per further failure, never more than `maxMs`.
 */
export function backoffDelay(failures: number, intervalMs: number, maxMs: number): number {
  if (failures <= 1) return Math.min(intervalMs, maxMs);
  const exponent = Math.min(failures - 1, 30);
  return Math.min(intervalMs * 2 ** exponent, maxMs);
}
