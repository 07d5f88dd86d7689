import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { dayRange, localDay } from './day-range.js';

const field = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return FiscalError.is(e) ? e.details?.field : e;
  }
  return undefined;
};

describe('days in fiscal time (Europe/Bratislava, whatever the host TZ)', () => {
  it('a day is from its local midnight to the next, also on DST days', () => {
    const winter = dayRange({ from: '2026-03-02' }, '2026-03-02');
    expect(winter.start.toISOString()).toBe('2026-03-01T23:00:00.000Z');
    expect(winter.end.toISOString()).toBe('2026-03-02T23:00:00.000Z');
    const spring = dayRange({ from: '2026-03-29' }, 'x');
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    const autumn = dayRange({ from: '2026-10-25' }, 'x');
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3600_000);
    expect(dayRange({}, '2026-07-01')).toMatchObject({ from: '2026-07-01', to: '2026-07-01' });
    expect(dayRange({ to: '2026-07-03' }, '2026-07-01')).toMatchObject({
      from: '2026-07-03',
      to: '2026-07-03',
    });
  });

  it('today follows Bratislava, not the host', () => {
    expect(localDay(new Date('2026-03-02T23:30:00Z'))).toBe('2026-03-03');
  });

  it('refuses bad days, a reversed period and more than 366 days, naming the field', () => {
    expect(field(() => dayRange({ from: '2026-02-30' }, 'x'))).toBe('from');
    expect(field(() => dayRange({ from: '02.03.2026' }, 'x'))).toBe('from');
    expect(field(() => dayRange({ from: '2026-03-02', to: '2026-03-01' }, 'x'))).toBe('to');
    expect(field(() => dayRange({ from: '2025-01-01', to: '2026-01-01' }, 'x'))).toBeUndefined();
    expect(field(() => dayRange({ from: '2025-01-01', to: '2026-01-02' }, 'x'))).toBe('to');
  });
});
