import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { notFoundSentence, toDocumentQuery } from './document-query.js';
import { thrownBy } from './test-support.js';

const field = (fn: () => unknown) => {
  const e = thrownBy(fn);
  expect(e).toBeInstanceOf(FiscalError);
  expect((e as FiscalError).resultCode).toBe(701);
  return (e as FiscalError).details?.field;
};

describe('toDocumentQuery', () => {
  it('maps each member, none = the last document', () => {
    expect(toDocumentQuery({})).toEqual({ by: 'last' });
    expect(toDocumentQuery({ documentByUUID: null })).toEqual({ by: 'last' });
    expect(toDocumentQuery({ documentBySequenceId: { sequenceId: 7, month: 3, year: 2026 } })).toEqual({
      by: 'sequenceId',
      sequenceId: 7,
      month: 3,
      year: 2026,
    });
    expect(toDocumentQuery({ documentByExternalId: { externalId: '03/02' } })).toEqual({
      by: 'externalId',
      externalId: '03/02',
    });
    expect(toDocumentQuery({ documentByOkp: { okp: 'X' } })).toEqual({ by: 'okp', okp: 'X' });
    expect(toDocumentQuery({ documentByPkp: { pkp: 'Y' } })).toEqual({ by: 'pkp', pkp: 'Y' });
    expect(toDocumentQuery({ documentByUUID: { uuid: 'O-1' } })).toEqual({ by: 'uuid', uuid: 'O-1' });
  });

  it('701 naming the field', () => {
    expect(field(() => toDocumentQuery({ documentByOkp: { okp: 'X' }, documentByUUID: { uuid: 'U' } }))).toBe(
      'documentByUUID',
    );
    expect(
      field(() => toDocumentQuery({ documentBySequenceId: { sequenceId: 7, month: 13, year: 2026 } })),
    ).toBe('documentBySequenceId.month');
    expect(field(() => toDocumentQuery({ documentBySequenceId: { month: 3, year: 2026 } }))).toBe(
      'documentBySequenceId.sequenceId',
    );
    expect(field(() => toDocumentQuery({ documentByExternalId: {} }))).toBe(
      'documentByExternalId.externalId',
    );
  });
});

describe('notFoundSentence: what a 506 names (ADR 0010)', () => {
  it('names the member and the value looked for, the client text quoted safely and cut', () => {
    const sentence = (input: Parameters<typeof toDocumentQuery>[0]) =>
      notFoundSentence(toDocumentQuery(input));
    expect(sentence({})).toBe('Document not found: no document has been stored on this register yet.');
    expect(sentence({ documentBySequenceId: { sequenceId: 7, month: 3, year: 2026 } })).toBe(
      'Document not found: no document has sequenceId 7 in 03/2026 (documentBySequenceId).',
    );
    expect(sentence({ documentByExternalId: { externalId: 'sale-77' } })).toBe(
      'Document not found: no document has externalId "sale-77" (documentByExternalId).',
    );
    expect(sentence({ documentByOkp: { okp: 'X' } })).toContain('okp "X" (documentByOkp)');
    expect(sentence({ documentByPkp: { pkp: 'Y' } })).toContain('pkp "Y" (documentByPkp)');
    expect(sentence({ documentByUUID: { uuid: 'O-1' } })).toContain('uuid "O-1" (documentByUUID)');
    const long = sentence({ documentByExternalId: { externalId: `${'z'.repeat(500)}\r\n` } });
    expect(long).toContain(`"${'z'.repeat(64)}…" (502 characters)`);
    expect(long.length).toBeLessThan(200);
    expect(sentence({ documentByExternalId: { externalId: 'a\u0000b' } })).toContain('"a\uFFFDb"');
  });
});
