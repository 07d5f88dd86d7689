/** One line of the bench table: a figure, its target, this machine's floor for it and the verdict. */
export interface Row {
  figure: string;
  /** The measured value as shown, e.g. `312 docs/s`. */
  value: string;
  target: string;
  /** The floor the ratio is taken against, as shown (`—` when there is none). */
  floor: string;
  /** value ÷ floor for times (how many floors it costs), floor ÷ value for rates; NaN when none. */
  ratio: number;
  /** undefined: informative only (no target). */
  pass: boolean | undefined;
  /**
   * For a figure whose verdict depends on the scale it is measured at (look-ups and start-up at
   * 1,000,000 documents, memory after 100,000 stores, a backlog of 10,000): the scale measured and
   * the target's. Below the target's scale the table says "below scale", not PASS or MISS. Rates and
   * per-document latencies leave it out: their verdict holds at any scale.
   */
  scale?: { measured: number; required: number };
  note?: string;
}

export type Verdict = 'PASS' | 'MISS' | 'info' | 'below scale';

/** What the result column says for a row (capability 13: a verdict only where the measurement supports one). */
export function verdict(row: Pick<Row, 'pass' | 'scale'>): Verdict {
  if (row.pass === undefined) return 'info';
  if (row.scale && row.scale.measured < row.scale.required) return 'below scale';
  return row.pass ? 'PASS' : 'MISS';
}

/**
 * A latency's p99 as the table shows it: with fewer than 100 samples the nearest-rank p99 is the
 * maximum, and is labelled so.
 */
export function p99Text(s: { p99: number; count: number }): string {
  return s.count < 100 ? `${ms(s.p99)} (max of ${s.count})` : ms(s.p99);
}

export function formatTable(rows: readonly Row[]): string {
  const head = ['figure', 'value', 'target', 'floor', 'ratio', 'result'];
  const cells = rows.map((r) => [
    r.figure,
    r.value,
    r.target,
    r.floor,
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(1)}×` : '—',
    verdict(r),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.figure}: ${r.note}`);
  return [
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.map(line),
    ...(notes.length ? ['', ...notes] : []),
  ].join('\n');
}

export const ms = (n: number): string =>
  n < 1 ? `${n.toFixed(3)} ms` : n < 10 ? `${n.toFixed(2)} ms` : `${n.toFixed(1)} ms`;
export const count = (n: number): string => n.toLocaleString('en-US');
