/** Latency samples in milliseconds and what the table shows of them. */
export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of sorted samples (p in 0…1). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
  };
}

/** Milliseconds since `t0` (process.hrtime.bigint()). */
export function msSince(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Runs `fn` repeatedly for at least `minMs` (and `minRuns` times); the per-call time in ms, median of batches. */
export function timeRepeated(fn: () => void, minMs = 300, minRuns = 20): number {
  const perCall: number[] = [];
  const t0 = process.hrtime.bigint();
  let runs = 0;
  while (runs < minRuns || msSince(t0) < minMs) {
    const s = process.hrtime.bigint();
    fn();
    perCall.push(msSince(s));
    runs++;
  }
  return summarize(perCall).p50;
}

export const round = (n: number, digits = 2): number => Number(n.toFixed(digits));
