import { describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord } from '../../../../test/support/journal-fixtures.js';
import type { JournalRecord } from '../../journal/records.js';
import { documentEvents } from './document-events.js';

const facts = () => ({ documentNumber: '202603/7', type: 'PD' });
const rec = (type: string, body: unknown, recordNo = 9) =>
  ({
    type,
    body,
    recordNo,
    version: 1,
    address: 0,
    writtenAt: '',
    chainHash: '',
  }) as unknown as JournalRecord;

describe('document events from journal records', () => {
  it('a document record is "stored"', () => {
    expect(documentEvents(rec('document', documentRecord(7)), facts)).toEqual([
      {
        type: 'document.stored',
        data: expect.objectContaining({
          internalDocumentId: 7,
          documentNumber: '202603/7',
          type: 'PD',
          recordNo: 9,
        }),
      },
    ]);
  });

  it.each([
    ['accepted', 'document.registered'],
    ['unreachable', 'document.offline'],
    ['invalid-response', 'document.offline'],
    ['rejected', 'document.rejected'],
    ['duplicate', 'document.rejected'],
    ['unverified', 'document.rejected'],
  ] as const)('an exchange %s is "%s", with the document number', (outcome, type) => {
    const [e] = documentEvents(rec('sfs-exchange', exchangeRecord(7, outcome)), facts);
    expect(e).toMatchObject({ type, data: { internalDocumentId: 7, documentNumber: '202603/7' } });
  });

  it('other records and location exchanges publish nothing', () => {
    expect(documentEvents(rec('free-text', { text: 'x' }), facts)).toEqual([]);
    const location = { ...exchangeRecord(1, 'accepted'), subject: { kind: 'location', locationNo: 1 } };
    expect(documentEvents(rec('sfs-exchange', location), facts)).toEqual([]);
  });
});
