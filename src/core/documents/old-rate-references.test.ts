import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { NEW_VAT_RATES_FROM, referenceQuery } from './old-rate-references.js';
import { CREATE_DATE, pd, sale, thrownBy } from './test-support.js';
import { validateStoreRequest } from './validate-store-request.js';

const UID = 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A';
const OKP = 'a70a8147-6abe354e-3bae2c67-87bddcfc-f34b6728';

describe('referenceQuery: the one look-up a referenceDocumentId can match by', () => {
  it('reads a UID, an OKP and a document number', () => {
    expect(referenceQuery(UID)).toEqual({ by: 'uuid', uuid: UID });
    expect(referenceQuery(UID.toLowerCase())).toEqual({ by: 'uuid', uuid: UID.toLowerCase() });
    expect(referenceQuery(OKP.toUpperCase())).toEqual({ by: 'okp', okp: OKP.toUpperCase() });
    expect(referenceQuery('202601/23')).toEqual({ by: 'sequenceId', year: 2026, month: 1, sequenceId: 23 });
  });

  it('makes no look-up for what cannot be a document of this register', () => {
    for (const other of ['4711', '202613/1', '202601/0', '2026-01/1', 'a70a8147-6abe354e', 'FA-2024-1', '']) {
      expect(referenceQuery(other), other).toBeUndefined();
    }
  });
});

describe('old rates against the referenced sale (ADR 0430)', () => {
  const refund = (rate: string, reference: string, itemType = 'REFUND') =>
    sale({ itemType, price: -1, vatRate: rate, referenceDocumentId: reference });
  const doc = (...items: ReturnType<typeof sale>[]) =>
    pd({ amount: -items.length, documentEntries: items, payments: { Cash: 0 } });

  function run(body: ReturnType<typeof pd>, dates: Record<string, Date>) {
    const asked: string[] = [];
    const result = thrownBy(() =>
      validateStoreRequest(body, {
        createDate: CREATE_DATE,
        vatPayer: true,
        referencedSaleDate: (reference) => {
          asked.push(reference);
          return dates[reference];
        },
      }),
    );
    return { error: result as FiscalError | undefined, asked };
  }

  it('refuses VAT_20 / VAT_10 against a sale made on or after 1 Jan 2025 (Bratislava), naming vatRate', () => {
    for (const [rate, type] of [
      ['VAT_20', 'REFUND'],
      ['VAT_10', 'UPDATE'],
      ['20%', 'V'],
    ] as const) {
      const { error } = run(doc(refund(rate, UID, type)), { [UID]: NEW_VAT_RATES_FROM });
      expect(error).toBeInstanceOf(FiscalError);
      expect(error?.resultCode).toBe(701);
      expect(error?.details?.field).toBe('documentEntries[0].vatRate');
      expect(error?.message).toContain('01.01.2025 00:00:00');
    }
  });

  it('accepts them against a sale made before, and against a reference the register does not hold', () => {
    const before = new Date(NEW_VAT_RATES_FROM.getTime() - 1000);
    expect(run(doc(refund('VAT_20', UID)), { [UID]: before }).error).toBeUndefined();
    expect(run(doc(refund('VAT_10', 'PAPER-7', 'UPDATE')), {}).error).toBeUndefined();
  });

  it('looks up only references of old-rate items, each distinct one once', () => {
    const { error, asked } = run(
      doc(
        refund('VAT_23', UID),
        refund('VAT_20', OKP),
        refund('VAT_10', OKP, 'UPDATE'),
        refund('VAT_20', '4711'),
      ),
      {},
    );
    expect(error).toBeUndefined();
    expect(asked).toEqual([OKP, '4711']);
    expect(run(pd(), {}).asked).toEqual([]);
  });

  it('names the item whose reference is a 2025 sale, not the one before it', () => {
    const { error } = run(doc(refund('VAT_20', 'PAPER-7'), refund('VAT_20', UID)), {
      [UID]: new Date('2026-02-01T10:00:00Z'),
    });
    expect(error?.details?.field).toBe('documentEntries[1].vatRate');
  });

  it('checks by item type only when the caller cannot look references up', () => {
    const v = validateStoreRequest(doc(refund('VAT_20', UID)), { createDate: CREATE_DATE, vatPayer: true });
    expect(v.items[0]?.vatRate.name).toBe('VAT_20');
  });

  it('starts the 2025 rates at midnight in Bratislava (CET, UTC+1)', () => {
    expect(NEW_VAT_RATES_FROM.toISOString()).toBe('2024-12-31T23:00:00.000Z');
  });
});
