import { describe, expect, it } from 'vitest';
import { memoryGrowth } from '../../bench/figures/store-figures.js';

// Figure 6's levels (capability 13): pure arithmetic over RSS readings, no timing measured here.
describe('bench memory growth', () => {
  const saw = (total: number, level: (stored: number) => number) =>
    Array.from({ length: total / 100 }, (_, i) => {
      const stored = (i + 1) * 100;
      // A collector's saw tooth: every fifth reading lands on a peak 100 MB above the level.
      return { stored, rssMB: level(stored) + (i % 5 === 4 ? 100 : 0) };
    });

  it('compares medians over stores 1,000–2,000 and the last tenth, so one reading on a peak does not decide', () => {
    const flat = memoryGrowth(
      saw(100_000, () => 250),
      100_000,
    );
    expect(flat).toEqual({ base: 250, end: 250, baseStretch: '1,000–2,000', endStretch: '90,000–100,000' });
  });

  it('still shows a real growth', () => {
    const leaking = memoryGrowth(
      saw(100_000, (stored) => 200 + stored / 1000),
      100_000,
    );
    expect(leaking.base).toBeCloseTo(201.5, 0);
    expect(leaking.end - leaking.base).toBeGreaterThan(85);
  });

  it('takes at least the last 2,000 stores, and never a stretch before the base', () => {
    expect(
      memoryGrowth(
        saw(10_000, () => 1),
        10_000,
      ).endStretch,
    ).toBe('8,000–10,000');
    expect(
      memoryGrowth(
        saw(1_100, () => 1),
        1_100,
      ),
    ).toMatchObject({ baseStretch: '1,000–1,100', endStretch: '1,100–1,100' });
  });
});
