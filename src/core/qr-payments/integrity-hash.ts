import { createHash } from 'node:crypto';
import { formatCents } from '../receipt/format-cents.js';

/**
 * The `dataIntegrityHash` of a NOP notification: lower-case hex SHA-256 of the UTF-8 text
 * `IBAN|amount|currency|endToEndId` (IBAN upper case without spaces, amount with exactly two
 * decimals). It is not authentication (anyone can compute it; the mTLS connection to NOP is what
 * makes a notification authentic): it ties the notification to the account, the amount and the id
 * the bank credited (ADR 0901). Hashing with node:crypto in core follows ADR 0301.
 */
export function integrityHash(
  iban: string,
  amountCents: number,
  currency: string,
  endToEndId: string,
): string {
  return createHash('sha256')
    .update(`${iban}|${formatCents(amountCents)}|${currency}|${endToEndId}`, 'utf8')
    .digest('hex');
}
