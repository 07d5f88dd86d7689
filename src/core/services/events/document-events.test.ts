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

  it("the amount is the API's: a withdrawal (VY) negative, as POST /api/cash answers it; a deposit positive", () => {
    const cash = (type: 'VK' | 'VY') => {
      const base = documentRecord(8);
      const sfs = { ...base.sfs, ReceiptType: type, Amount: '100.00' };
      delete sfs.Items;
      return documentRecord(8, { sfs, notSent: { reason: 'Act 384/2025' } });
    };
    const [vy] = documentEvents(rec('document', cash('VY')), facts);
    expect(vy?.data).toMatchObject({ type: 'VY', amount: -100, notSent: true });
    const [vk] = documentEvents(rec('document', cash('VK')), facts);
    expect(vk?.data).toMatchObject({ type: 'VK', amount: 100, notSent: true });
    const [sale] = documentEvents(rec('document', documentRecord(7)), facts);
    expect(sale?.data).toMatchObject({ type: 'PD', amount: 12.3 });
    expect(sale?.data).not.toHaveProperty('notSent');
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

  it('an outcome of a document the index does not hold names it by internalDocumentId only (docs/integration.md § 6)', () => {
    const [e] = documentEvents(rec('sfs-exchange', exchangeRecord(7, 'accepted')), () => undefined);
    expect(e?.type).toBe('document.registered');
    expect(e?.data).toMatchObject({ internalDocumentId: 7, sendingCount: expect.any(Number) });
    expect(e?.data).not.toHaveProperty('documentNumber');
    expect(e?.data).not.toHaveProperty('type');
    expect(e?.data).not.toHaveProperty('externalId');
  });

  it('a document set aside for the tax office is "set-aside", with the reason (ADR 0711)', () => {
    const body = {
      subject: { kind: 'document', documentNo: 7 },
      reason: 'set aside for the tax office: duplicate',
      setAside: { reason: 'duplicate', errorCode: -5, errorText: 'Duplicitný doklad' },
    };
    expect(documentEvents(rec('repair', body), facts)).toEqual([
      {
        type: 'document.set-aside',
        data: {
          internalDocumentId: 7,
          documentNumber: '202603/7',
          type: 'PD',
          reason: 'duplicate',
          errorCode: -5,
          errorText: 'Duplicitný doklad',
          recordNo: 9,
        },
      },
    ]);
    // A fix is no event of its own (its resend publishes the outcome); nor is an attempt record.
    expect(documentEvents(rec('repair', { ...body, setAside: undefined }), facts)).toEqual([]);
    expect(
      documentEvents(
        rec('sfs-attempt', { subject: { kind: 'document', documentNo: 7 }, sendingCount: 2 }),
        facts,
      ),
    ).toEqual([]);
  });

  it('other records and location exchanges publish nothing', () => {
    expect(documentEvents(rec('free-text', { text: 'x' }), facts)).toEqual([]);
    const location = { ...exchangeRecord(1, 'accepted'), subject: { kind: 'location', locationNo: 1 } };
    expect(documentEvents(rec('sfs-exchange', location), facts)).toEqual([]);
  });
});
