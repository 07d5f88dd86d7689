import { invalidInput } from '../fiscal-error.js';
import { isAbsent, readAmountCents, readBoolean, readExternalId } from './field-rules.js';
import type { CashInput, ValidatedCashRequest } from './store-request.js';

/**
 * Validates a `POST /api/cash` body (API v1.7 text, model CashRequest): `amount` ≠ 0 with 2 decimals; positive is
 * a deposit (VK), negative a withdrawal (VY). Throws 701 naming the field; has no effects.
 */
export function validateCashRequest(input: CashInput): ValidatedCashRequest {
  const body = input as unknown as Record<string, unknown>;
  if (typeof body !== 'object' || body === null) throw invalidInput('body', 'must be a JSON object');
  if (isAbsent(body.amount))
    throw invalidInput('amount', 'is required (positive: deposit, negative: withdrawal)');
  const amountCents = readAmountCents(body.amount, 'amount');
  if (amountCents === 0)
    throw invalidInput('amount', 'must not be 0 (positive: deposit, negative: withdrawal)');
  const externalId = readExternalId(body.externalId, 'externalId');
  const result: ValidatedCashRequest = {
    kind: 'cash',
    type: amountCents > 0 ? 'VK' : 'VY',
    amountCents,
    exception: readBoolean(body.exception, 'exception'),
    openDrawer: readBoolean(body.openDrawer, 'openDrawer'),
  };
  if (externalId !== undefined) result.externalId = externalId;
  return result;
}
