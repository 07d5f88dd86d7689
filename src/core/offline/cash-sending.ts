/**
 * Act 384/2025 (in force 1 January 2026, protocol reference §4.6): deposits (VK) and withdrawals
 * (VY) are no longer sent to eKasa. The first instant of 2026 in Bratislava time (CET, +01:00).
 */
export const ACT_384_2025_START = new Date('2026-01-01T00:00:00+01:00');

/** The reason kept in a cash document that is not sent (and told to the POS). */
export const CASH_NOT_SENT_REASON =
  'Act 384/2025: deposits (VK) and withdrawals (VY) created from 1 January 2026 are stored, numbered and printed, but not sent to the SFS.';

/**
 * Whether a VK/VY created at `createDate` is sent to the SFS (ADR 0704): before 1 January 2026
 * (Bratislava time, by CreateDate) yes, as the API v1.7 text says; from then on no, unless the
 * `forceSendCashDocuments` setting forces it.
 */
export function cashDocumentIsSent(createDate: Date, force: boolean): boolean {
  return force || createDate.getTime() < ACT_384_2025_START.getTime();
}
