import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/args.js';
import { formatTable, p99Text, type Row, verdict } from '../../bench/lib/table.js';

// The bench's verdict logic (capability 13): pure functions, no timing measured here.
describe('bench verdicts', () => {
  it('gives PASS/MISS for a figure without a scale, whatever the scale of the run (rates, per-document latency)', () => {
    expect(verdict({ pass: true })).toBe('PASS');
    expect(verdict({ pass: false })).toBe('MISS');
    expect(verdict({ pass: undefined })).toBe('info');
  });

  it('says "below scale", never PASS or MISS, for a scale-dependent figure measured below the target’s scale', () => {
    // 300 offline documents in 11.4 s is no PASS of "10,000 in 30 s".
    expect(verdict({ pass: true, scale: { measured: 300, required: 10_000 } })).toBe('below scale');
    expect(verdict({ pass: false, scale: { measured: 100_000, required: 1_000_000 } })).toBe('below scale');
    expect(verdict({ pass: true, scale: { measured: 1_000_000, required: 1_000_000 } })).toBe('PASS');
    expect(verdict({ pass: false, scale: { measured: 100_000, required: 100_000 } })).toBe('MISS');
    expect(verdict({ pass: undefined, scale: { measured: 1, required: 2 } })).toBe('info');
  });

  it('prints the verdict in the table', () => {
    const row = (figure: string, pass: boolean, scale?: Row['scale']): Row => ({
      figure,
      value: '1',
      target: '≤ 2',
      floor: '—',
      ratio: Number.NaN,
      pass,
      ...(scale ? { scale } : {}),
    });
    const lines = formatTable([
      row('backlog', true, { measured: 300, required: 10_000 }),
      row('store', false),
    ]).split('\n');
    expect(lines.find((l) => l.startsWith('| backlog'))).toMatch(/\| below scale \|$/);
    expect(lines.find((l) => l.startsWith('| store'))).toMatch(/\| MISS +\|$/);
  });

  it('labels a p99 of fewer than 100 samples as the maximum', () => {
    expect(p99Text({ p99: 12.5, count: 20 })).toBe('12.5 ms (max of 20)');
    expect(p99Text({ p99: 12.5, count: 300 })).toBe('12.5 ms');
  });

  it('bounds the default run in time; --full has no bound unless given', () => {
    expect(parseBenchArgs([]).timeLimitS).toBe(900);
    expect(parseBenchArgs(['--full']).timeLimitS).toBe(0);
    expect(parseBenchArgs(['--full', '--time-limit', '3600']).timeLimitS).toBe(3600);
    expect(() => parseBenchArgs(['--time-limit', 'x'])).toThrow(/--time-limit/);
  });
});
