import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import type { CashInput } from './store-request.js';
import { thrownBy } from './test-support.js';
import { validateCashRequest } from './validate-cash-request.js';

function expectInvalid(body: CashInput, field: string): void {
  const e = thrownBy(() => validateCashRequest(body));
  expect(e).toBeInstanceOf(FiscalError);
  expect((e as FiscalError).resultCode).toBe(701);
  expect((e as FiscalError).details?.field).toBe(field);
}

describe('validateCashRequest', () => {
  it('positive is a deposit (VK), negative a withdrawal (VY)', () => {
    expect(validateCashRequest({ amount: 100 })).toEqual({
      kind: 'cash',
      type: 'VK',
      amountCents: 10000,
      exception: false,
      openDrawer: false,
    });
    expect(validateCashRequest({ amount: -100.5, openDrawer: true, externalId: 'uuid:bb78531a' })).toEqual({
      kind: 'cash',
      type: 'VY',
      amountCents: -10050,
      exception: false,
      openDrawer: true,
      externalId: 'uuid:bb78531a',
    });
  });

  it('refuses 0, missing, 3 decimals, out of range, bad flags', () => {
    expectInvalid({ amount: 0 }, 'amount');
    expectInvalid({} as CashInput, 'amount');
    expectInvalid({ amount: 1.005 }, 'amount');
    expectInvalid({ amount: -10000000.01 }, 'amount');
    expectInvalid({ amount: 1, exception: 1 as unknown as boolean }, 'exception');
    expectInvalid({ amount: 1, externalId: 'x'.repeat(51) }, 'externalId');
  });
});
