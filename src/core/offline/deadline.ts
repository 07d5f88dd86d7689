import { parseSfsDateTime } from '../time.js';

/** From this much time left before the resend deadline, status warns (capability 10). */
export const DEADLINE_WARNING_MS = 24 * 3600_000;

export type DeadlineState = 'ok' | 'warning' | 'overdue';

export interface Deadline {
  /** When the item's first attempt was made (else its CreateDate). */
  firstAttempt: Date;
  /** The instant by which it must be registered. */
  sendBy: Date;
  /** ms from the first attempt to now. */
  ageMs: number;
  /** ms left until `sendBy` (negative when overdue). */
  leftMs: number;
  state: DeadlineState;
}

/**
 * The resend deadline of a stored message (ADR 0702): `hours` (the `resendDeadlineHours` setting,
 * 96 by default as Act 289/2008 § 3(1) sets it) from the first send attempt. An item whose first
 * attempt is not recorded counts from its CreateDate, which is never later than the attempt, so
 * the deadline shown is never later than the real one.
 */
export function resendDeadline(
  item: { firstAttemptDate?: string | undefined; createDate: string },
  hours: number,
  now: Date,
): Deadline | undefined {
  const first =
    (item.firstAttemptDate === undefined ? undefined : parseSfsDateTime(item.firstAttemptDate)) ??
    parseSfsDateTime(item.createDate);
  if (first === undefined) return undefined;
  const sendBy = new Date(first.getTime() + hours * 3600_000);
  const leftMs = sendBy.getTime() - now.getTime();
  return {
    firstAttempt: first,
    sendBy,
    ageMs: now.getTime() - first.getTime(),
    leftMs,
    state: leftMs < 0 ? 'overdue' : leftMs <= DEADLINE_WARNING_MS ? 'warning' : 'ok',
  };
}
