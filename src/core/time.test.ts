import { describe, expect, it } from 'vitest';
import {
  formatApiDateTime,
  formatQrDateTime,
  formatSfsDateTime,
  fromLocal,
  localParts,
  localPartsByIntl,
  parseApiDateTime,
  parseSfsDateTime,
} from './time.js';

describe('fiscal time (Europe/Bratislava whatever the host TZ)', () => {
  it('formats winter time with +01:00', () => {
    const d = new Date('2026-03-02T09:15:30Z');
    expect(formatSfsDateTime(d)).toBe('2026-03-02T10:15:30+01:00');
    expect(formatApiDateTime(d)).toBe('02.03.2026 10:15:30');
    expect(formatQrDateTime(d)).toBe('260302101530');
  });

  it('formats summer time with +02:00', () => {
    expect(formatSfsDateTime(new Date('2026-07-01T22:30:00Z'))).toBe('2026-07-02T00:30:00+02:00');
  });

  it('handles the DST change instants', () => {
    // 2026-03-29 01:00Z: 02:00 CET jumps to 03:00 CEST
    expect(formatSfsDateTime(new Date('2026-03-29T00:59:59Z'))).toBe('2026-03-29T01:59:59+01:00');
    expect(formatSfsDateTime(new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29T03:00:00+02:00');
    expect(fromLocal(2026, 3, 29, 2, 30, 0)).toBeUndefined();
    // 2026-10-25: 02:30 happens twice, the earlier (CEST) is taken
    expect(fromLocal(2026, 10, 25, 2, 30, 0)?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('gives the same parts as Intl for any instant, around every DST change of 2019–2040 too', () => {
    const instants: number[] = [];
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let i = 0; i < 3000; i++)
      instants.push(Date.UTC(2019, 0, 1) + Math.floor(rnd() * 22 * 365 * 86400_000));
    for (let year = 2019; year <= 2040; year++) {
      for (const month of [2, 9]) {
        // Last Sunday of March / October, 01:00 UTC, and the seconds around it.
        const last = new Date(Date.UTC(year, month + 1, 0));
        const sunday = Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
        for (const d of [-3600_000, -1000, -1, 0, 1, 999, 1000, 3599_999]) instants.push(sunday + d);
      }
    }
    instants.push(Date.UTC(1995, 2, 26, 0, 59, 59), Date.UTC(1970, 0, 1), Date.UTC(1940, 5, 1, 12));
    for (const ms of instants) {
      expect(localParts(new Date(ms)), new Date(ms).toISOString()).toEqual(localPartsByIntl(new Date(ms)));
    }
  });

  it('parses SFS and API dates back to the same instant', () => {
    const d = new Date('2026-11-22T12:00:01Z');
    expect(parseSfsDateTime(formatSfsDateTime(d))?.getTime()).toBe(d.getTime());
    expect(parseApiDateTime(formatApiDateTime(d))?.getTime()).toBe(d.getTime());
    expect(parseApiDateTime('2018-12-12T15:50:14+01:00')?.toISOString()).toBe('2018-12-12T14:50:14.000Z');
    expect(parseApiDateTime('31.02.2026 10:00:00')).toBeUndefined();
    expect(parseSfsDateTime('2026-11-22T12:00:01Z')).toBeUndefined();
  });
});
