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
  note?: string;
}

export function verdict(pass: boolean | undefined): string {
  return pass === undefined ? 'info' : pass ? 'PASS' : 'MISS';
}

export function formatTable(rows: readonly Row[]): string {
  const head = ['figure', 'value', 'target', 'floor', 'ratio', 'result'];
  const cells = rows.map((r) => [
    r.figure,
    r.value,
    r.target,
    r.floor,
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(1)}×` : '—',
    verdict(r.pass),
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
