import { describe, expect, it } from 'vitest';
import type { StoreDocumentInput, ValidatedStoreRequest } from '../../documents/store-request.js';
import { FiscalError } from '../../fiscal-error.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';
import { QrTenderCheck } from './qr-tender-check.js';

/** ADR 0907: a QR tender without qrPayments is refused while NOP is on, free text while it is off. */
function check(env: 'off' | 'int' | 'prod', type: string, payments: Record<string, number>): unknown {
  const deps = {
    settings: () => ({ nopEnvironment: env, nopTenderName: 'QR platba' }),
  } as unknown as QrPaymentDeps;
  const request = {
    type,
    payments: Object.entries(payments).map(([name, cents]) => ({ name, amountCents: cents })),
  } as unknown as ValidatedStoreRequest;
  try {
    return new QrTenderCheck(deps).check({} as StoreDocumentInput, request) === request
      ? 'accepted'
      : 'changed';
  } catch (e) {
    if (e instanceof FiscalError) return { resultCode: e.resultCode, field: e.details?.field };
    throw e;
  }
}

describe('QR tender without qrPayments', () => {
  it('NOP on: 701 naming qrPayments on a PD or UF that puts money under the QR tender', () => {
    expect(check('int', 'PD', { 'QR platba': 745 })).toEqual({ resultCode: 701, field: 'qrPayments' });
    expect(check('prod', 'UF', { Hotovosť: 100, 'QR platba': 745 })).toEqual({
      resultCode: 701,
      field: 'qrPayments',
    });
  });
  it('NOP on: other tenders, a zero QR tender and other document types pass', () => {
    expect(check('int', 'PD', { Hotovosť: 745 })).toBe('accepted');
    expect(check('int', 'PD', { Hotovosť: 745, 'QR platba': 0 })).toBe('accepted');
    expect(check('int', 'ND', { 'QR platba': 745 })).toBe('accepted');
  });
  it('NOP off: the tender name is free text (a static QR checked by hand)', () => {
    expect(check('off', 'PD', { 'QR platba': 745 })).toBe('accepted');
  });
});
