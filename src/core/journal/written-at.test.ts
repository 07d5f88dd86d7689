import { describe, expect, it } from 'vitest';
import { formatSfsDateTime } from '../time.js';
import { WrittenAtFormatter } from './written-at.js';

describe('WrittenAtFormatter', () => {
  it('equals formatSfsDateTime around the DST changes and at random instants', () => {
    const f = new WrittenAtFormatter();
    const instants = [
      Date.UTC(2026, 2, 29, 0, 59, 59, 999), // last second of CET, 29 March 2026
      Date.UTC(2026, 2, 29, 1, 0, 0, 0), // first of CEST
      Date.UTC(2026, 9, 25, 0, 59, 59, 500), // last second of CEST, 25 October 2026
      Date.UTC(2026, 9, 25, 1, 0, 0, 1),
      Date.UTC(2025, 11, 31, 22, 59, 59, 999), // New Year in Bratislava
      Date.UTC(2025, 11, 31, 23, 0, 0, 0),
    ];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      instants.push(Date.UTC(2019, 0, 1) + (seed / 2147483648) * 15 * 365 * 86_400_000);
    }
    for (const ms of instants) expect(f.format(ms), String(ms)).toBe(formatSfsDateTime(new Date(ms)));
  });
});
