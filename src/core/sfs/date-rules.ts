import { localParts, parseSfsDateTime } from '../time.js';
import { type SfsViolation, violation } from './ekasa-errors.js';
import type { SfsLocationRequest, SfsReceiptRequest } from './message.js';

/** How the SFS judges dates against its processing time (spec §2.6; ADR 0306). */
export interface DateRuleContext {
  /** The SFS processing time of this request. */
  processTime: Date;
  /** "System start": dates before it are refused (-106, -107, -110). */
  systemStart: Date;
  /** How far IssueDate / CreateDate may lie after the processing time (spec §2.6: 96 h). */
  futureToleranceMs: number;
  /** How old CreateDate may be on the first attempt, SendingCount 1 (spec §2.6: 96 h). */
  firstAttemptMaxAgeMs: number;
}

export const HOURS_96 = 96 * 3600_000;

/** eKasa production start, 1 April 2019 (ADR 0306). */
export const EKASA_SYSTEM_START = new Date('2019-04-01T00:00:00+02:00');

export function defaultDateRules(processTime: Date): DateRuleContext {
  return {
    processTime,
    systemStart: EKASA_SYSTEM_START,
    futureToleranceMs: HOURS_96,
    firstAttemptMaxAgeMs: HOURS_96,
  };
}

/**
 * Spec §3.3.12: the offset must be Slovak CET/CEST for that very instant, otherwise -132. The text
 * must already be a valid SFS dateTime.
 */
export function hasBratislavaOffset(text: string): boolean {
  const instant = parseSfsDateTime(text);
  if (!instant) return false;
  const minutes = localParts(instant).offsetMinutes;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const expected = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return text.endsWith(expected);
}

/** -132, -103 … -107 for a RegisterReceiptRequest (lexically valid). */
export function checkReceiptDates(
  request: SfsReceiptRequest,
  ctx: DateRuleContext,
): SfsViolation | undefined {
  const { header, data } = request;
  for (const [name, text] of [
    ['Header@RequestDate', header.RequestDate],
    ['IssueDate', data.IssueDate],
    ['CreateDate', data.CreateDate],
  ] as const) {
    if (!hasBratislavaOffset(text))
      return violation(-132, `${name} ${text} does not carry the Slovak offset`);
  }
  const issued = parseSfsDateTime(data.IssueDate)!.getTime();
  const created = parseSfsDateTime(data.CreateDate)!.getTime();
  const now = ctx.processTime.getTime();
  if (issued > now + ctx.futureToleranceMs)
    return violation(-103, 'IssueDate is later than the processing time');
  if (created > now + ctx.futureToleranceMs)
    return violation(-104, 'CreateDate is later than the processing time');
  // Spec §2.6 via the reference §1.9: a register with an exemption (Exception="true") sends its
  // stored data later (at least every 30 days), so the 96-hour first-attempt bound is not its rule.
  if (
    header.SendingCount === '1' &&
    header.Exception !== 'true' &&
    created < now - ctx.firstAttemptMaxAgeMs
  ) {
    return violation(-105, 'CreateDate is more than 96 h before the processing time on the first attempt');
  }
  if (issued < ctx.systemStart.getTime())
    return violation(-106, 'IssueDate is earlier than the system start');
  if (created < ctx.systemStart.getTime())
    return violation(-107, 'CreateDate is earlier than the system start');
  return undefined;
}

/** -132, -108 … -110 for a RegisterLocationRequest (lexically valid). */
export function checkLocationDates(
  request: SfsLocationRequest,
  ctx: DateRuleContext,
): SfsViolation | undefined {
  const { header, data } = request;
  if (!hasBratislavaOffset(header.RequestDate))
    return violation(-132, 'Header@RequestDate does not carry the Slovak offset');
  if (!hasBratislavaOffset(data.CreateDate))
    return violation(-132, 'CreateDate does not carry the Slovak offset');
  const created = parseSfsDateTime(data.CreateDate)!.getTime();
  const now = ctx.processTime.getTime();
  if (created > now + ctx.futureToleranceMs)
    return violation(-108, 'location CreateDate is later than the processing time');
  if (header.SendingCount === '1' && created < now - ctx.firstAttemptMaxAgeMs) {
    return violation(
      -109,
      'location CreateDate is more than 96 h before the processing time on the first attempt',
    );
  }
  if (created < ctx.systemStart.getTime())
    return violation(-110, 'location CreateDate is earlier than the system start');
  return undefined;
}
