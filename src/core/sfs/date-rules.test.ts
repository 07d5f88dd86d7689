import { describe, expect, it } from 'vitest';
import { hasBratislavaOffset } from './date-rules.js';

describe('Slovak offset (-132)', () => {
  it('accepts CET in winter and CEST in summer only', () => {
    expect(hasBratislavaOffset('2026-03-02T10:15:30+01:00')).toBe(true);
    expect(hasBratislavaOffset('2026-07-02T10:15:30+02:00')).toBe(true);
    expect(hasBratislavaOffset('2026-07-02T09:15:30+01:00')).toBe(false);
    expect(hasBratislavaOffset('2026-03-02T09:15:30+00:00')).toBe(false);
    // The instant of the autumn change: 02:30 CEST and 02:30 CET are both real.
    expect(hasBratislavaOffset('2026-10-25T02:30:00+02:00')).toBe(true);
    expect(hasBratislavaOffset('2026-10-25T02:30:00+01:00')).toBe(true);
  });
});
