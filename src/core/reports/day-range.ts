import { invalidInput } from '../fiscal-error.js';
import { fromLocal, localParts } from '../time.js';

/** The longest period a report or list filter may span. */
export const MAX_PERIOD_DAYS = 366;

export interface DayRange {
  /** `YYYY-MM-DD`, Europe/Bratislava. */
  from: string;
  to: string;
  /** First instant of `from`, and the first instant after `to` (the range is [start, end)). */
  start: Date;
  end: Date;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayStart(text: string, field: string): Date {
  const m = DAY.exec(text);
  const start = m ? fromLocal(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0) : undefined;
  if (!m || start === undefined || localParts(start).day !== Number(m[3])) {
    throw invalidInput(field, 'must be a day YYYY-MM-DD (Europe/Bratislava), e.g. 2026-03-02');
  }
  return start;
}

/** The next day's date text. */
function nextDay(text: string): string {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return next.toISOString().slice(0, 10);
}

/** Today in Europe/Bratislava as `YYYY-MM-DD`. */
export function localDay(instant: Date): string {
  const t = localParts(instant);
  return `${t.year}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}`;
}

/**
 * Whole days from `from` to `to` inclusive, in fiscal time (both default to `today`; `to`
 * defaults to `from`). 701 naming the field for a bad day, `to` before `from`, or more than
 * {@link MAX_PERIOD_DAYS} days.
 */
export function dayRange(
  input: { from?: string | undefined; to?: string | undefined },
  today: string,
): DayRange {
  const from = input.from ?? input.to ?? today;
  const to = input.to ?? from;
  const start = dayStart(from, 'from');
  dayStart(to, 'to');
  const end = dayStart(nextDay(to), 'to');
  if (end.getTime() <= start.getTime()) throw invalidInput('to', 'must not be before from');
  const utcDay = (text: string) => Date.parse(`${text}T00:00:00Z`) / 86_400_000;
  if (utcDay(to) - utcDay(from) + 1 > MAX_PERIOD_DAYS) {
    throw invalidInput('to', `a period is at most ${MAX_PERIOD_DAYS} days`);
  }
  return { from, to, start, end };
}
