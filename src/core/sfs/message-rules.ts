import { parseSfsDateTime } from '../time.js';
import { checkReceiptContent } from './content-rules.js';
import { checkLocationDates, checkReceiptDates, type DateRuleContext } from './date-rules.js';
import type { SfsViolation } from './ekasa-errors.js';
import type { SfsLocationRequest, SfsReceiptRequest } from './message.js';
import { checkLocationLexical, checkReceiptLexical } from './message-lexical.js';
import { okpMatches } from './okp.js';
import { vatRegimeAt } from './vat-recap.js';

/**
 * The message-level rules of the SFS, written once: the simulator applies them (after its XML,
 * signature, certificate and PKP checks, which need the wire form), and a client may run them as a
 * pre-flight check. Order: schema (-2), OKP (-111), dates (-132, -103…-107), content (-112…-131).
 */
export function checkReceiptMessage(
  request: SfsReceiptRequest,
  dates: DateRuleContext,
): SfsViolation | undefined {
  return checkReceiptLexical(request) ?? checkReceiptMessageAfterSchema(request, dates);
}

/**
 * {@link checkReceiptMessage} for a request whose schema (-2) was checked already (the simulator
 * checks it first, before the signature): the same rules in the same order, without reading every
 * value's pattern a second time.
 */
export function checkReceiptMessageAfterSchema(
  request: SfsReceiptRequest,
  dates: DateRuleContext,
): SfsViolation | undefined {
  if (!okpMatches(request.okp, request.pkp)) return { code: -111, detail: 'OKP is not the SHA-1 of the PKP' };
  return (
    checkReceiptDates(request, dates) ??
    checkReceiptContent(request.data, vatRegimeAt(parseSfsDateTime(request.data.CreateDate)!))
  );
}

/** The same for RegisterLocationRequest: schema (-2), then dates (-132, -108…-110). */
export function checkLocationMessage(
  request: SfsLocationRequest,
  dates: DateRuleContext,
): SfsViolation | undefined {
  return checkLocationLexical(request) ?? checkLocationDates(request, dates);
}

/** {@link checkLocationMessage} for a request whose schema (-2) was checked already. */
export function checkLocationMessageAfterSchema(
  request: SfsLocationRequest,
  dates: DateRuleContext,
): SfsViolation | undefined {
  return checkLocationDates(request, dates);
}
