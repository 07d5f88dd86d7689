import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import {
  fiscalInstant,
  fiscalMonth,
  formatDocumentNumber,
  MAX_SEQUENCE_ID,
  numberDocument,
} from './numbering.js';
import { thrownBy } from './test-support.js';

/** A tiny in-memory stand-in for JournalIndex.lastSequenceId: numbers used per local month. */
function sequences() {
  const last = new Map<string, number>();
  return {
    lastSequenceId: (year: number, month: number) => last.get(`${year}-${month}`) ?? 0,
    take(at: Date) {
      const n = numberDocument(at, this.lastSequenceId);
      last.set(`${n.year}-${n.month}`, n.sequenceId);
      return n;
    },
  };
}

describe('numbering: sequenceId restarts every calendar month in Europe/Bratislava', () => {
  it('counts up within a month and formats yyyyMM/<sequenceId>', () => {
    const s = sequences();
    expect(s.take(new Date('2026-03-02T09:15:30Z'))).toEqual({
      sequenceId: 1,
      documentNumber: '202603/1',
      year: 2026,
      month: 3,
    });
    expect(s.take(new Date('2026-03-02T09:15:31Z')).documentNumber).toBe('202603/2');
    expect(s.take(new Date('2026-03-15T12:00:00Z')).sequenceId).toBe(3);
  });

  it('restarts at local midnight of a summer-time month boundary (CEST, +02:00)', () => {
    // 2026-03-29 is the spring change; 31 Mar 23:59:59 CEST is 21:59:59Z, 1 Apr 00:00:00 CEST is 22:00:00Z.
    // The test host runs in America/New_York, where both instants are still 31 March.
    const s = sequences();
    s.take(new Date('2026-03-29T00:59:59Z')); // 01:59:59 CET, just before the change
    s.take(new Date('2026-03-29T01:00:00Z')); // 03:00:00 CEST
    expect(s.take(new Date('2026-03-31T21:59:59Z'))).toMatchObject({ sequenceId: 3, month: 3 });
    expect(s.take(new Date('2026-03-31T22:00:00Z'))).toMatchObject({
      sequenceId: 1,
      month: 4,
      documentNumber: '202604/1',
    });
    expect(s.take(new Date('2026-03-31T22:00:01Z'))).toMatchObject({ sequenceId: 2, month: 4 });
  });

  it('restarts at local midnight of a winter-time month boundary after the autumn change (+01:00)', () => {
    // 2025-10-26 03:00 CEST → 02:00 CET; 31 Oct 23:59:59 CET = 22:59:59Z; 1 Nov 00:00 CET = 23:00:00Z
    const s = sequences();
    s.take(new Date('2025-10-26T00:30:00Z')); // 02:30 CEST (first pass)
    s.take(new Date('2025-10-26T01:30:00Z')); // 02:30 CET (second pass) — same month, next number
    expect(s.take(new Date('2025-10-31T22:59:59Z'))).toMatchObject({ sequenceId: 3, year: 2025, month: 10 });
    expect(s.take(new Date('2025-10-31T23:00:00Z'))).toMatchObject({
      sequenceId: 1,
      month: 11,
      documentNumber: '202511/1',
    });
  });

  it('restarts at the new year', () => {
    const s = sequences();
    s.take(new Date('2026-12-31T22:59:59Z'));
    expect(s.take(new Date('2026-12-31T23:00:00Z'))).toMatchObject({
      sequenceId: 1,
      year: 2027,
      month: 1,
      documentNumber: '202701/1',
    });
  });

  it('continues after a restart from what the index reports', () => {
    const n = numberDocument(new Date('2026-03-02T09:15:30Z'), (y, m) => (y === 2026 && m === 3 ? 41 : 0));
    expect(n.sequenceId).toBe(42);
    expect(fiscalMonth(new Date('2026-03-31T22:00:00Z'))).toEqual({ year: 2026, month: 4 });
  });

  it('refuses to overflow the sequence', () => {
    const e = thrownBy(() => numberDocument(new Date(), () => MAX_SEQUENCE_ID));
    expect(e).toBeInstanceOf(FiscalError);
    expect((e as FiscalError).resultCode).toBe(-1);
  });

  it('truncates the clock to whole seconds', () => {
    expect(fiscalInstant(new Date('2026-03-02T09:15:30.999Z')).toISOString()).toBe(
      '2026-03-02T09:15:30.000Z',
    );
    expect(formatDocumentNumber(2026, 3, 7)).toBe('202603/7');
  });
});
