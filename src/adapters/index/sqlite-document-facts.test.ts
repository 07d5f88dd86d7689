import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord, merchantRecord } from '../../../test/support/journal-fixtures.js';
import type { DocumentRecord, JournalRecord, NewRecord } from '../../core/journal/records.js';
import { parseSfsDateTime } from '../../core/time.js';
import { SqliteJournalIndex } from './sqlite-journal-index.js';

let dir: string;
let index: SqliteJournalIndex;
let n = 0;

function feed(...records: NewRecord[]): void {
  for (const r of records) {
    n++;
    index.apply(
      {
        ...r,
        version: 1,
        recordNo: n,
        address: n * 3,
        writtenAt: '2026-03-02T10:15:30+01:00',
      } as JournalRecord,
      `hash-${n}`,
    );
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-facts-'));
  index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  n = 0;
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

function withoutExternalId(d: DocumentRecord): DocumentRecord {
  const { externalId: _none, ...rest } = d;
  return rest;
}

/** What the clock check and the outcome events derived from the whole document before ADR 1115. */
function lastCreatedFromDocument() {
  const last = index.findDocument({ by: 'last' });
  if (!last) return undefined;
  return {
    documentNo: last.document.documentNo,
    createMs: parseSfsDateTime(last.document.sfs.CreateDate)?.getTime() ?? null,
  };
}
function factsFromDocument(documentNo: number) {
  const d = index.findDocument({ by: 'documentNo', documentNo })?.document;
  return d
    ? {
        documentNumber: d.documentNumber,
        type: d.sfs.ReceiptType,
        ...(d.externalId === undefined ? {} : { externalId: d.externalId }),
      }
    : undefined;
}

describe('the narrow reads of a document row (ADR 1115)', () => {
  it("give what the whole document gives: the last one's creation instant, and each one's number, type and external id", () => {
    const sfs = documentRecord(0).sfs;
    expect(index.lastDocumentCreated()).toBeUndefined();
    expect(index.documentFacts(1)).toBeUndefined();
    feed({ type: 'merchant', body: merchantRecord() });
    const documents = [
      documentRecord(1),
      withoutExternalId(documentRecord(2)), // no external id
      documentRecord(3, { sfs: { ...sfs, ReceiptType: 'UF', CreateDate: '2026-03-29T03:30:00+02:00' } }),
      documentRecord(4, { sfs: { ...sfs, ReceiptType: 'VK' }, externalId: 'Rožok "ø" \\ 🥐' }),
      documentRecord(5, { sfs: { ...sfs, CreateDate: 'not a date' } }), // unreadable: null, as before
      documentRecord(6, { documentNumber: '202603/6', sfs: { ...sfs, ReceiptType: 'ND' } }),
    ];
    for (const d of documents) {
      feed({ type: 'document', body: d });
      expect(index.lastDocumentCreated()).toEqual(lastCreatedFromDocument());
    }
    expect(index.lastDocumentCreated()).toMatchObject({ documentNo: 6 });
    expect(documents.map((d) => index.documentFacts(d.documentNo))).toEqual(
      documents.map((d) => factsFromDocument(d.documentNo)),
    );
    expect(index.documentFacts(2)).not.toHaveProperty('externalId');
    expect(index.documentFacts(4)).toEqual({
      documentNumber: '202603/4',
      type: 'VK',
      externalId: 'Rožok "ø" \\ 🥐',
    });

    // A repair re-dates the last document: both reads follow the repaired version.
    feed({ type: 'sfs-exchange', body: exchangeRecord(6, 'rejected') });
    feed({
      type: 'repair',
      body: {
        subject: { kind: 'document', documentNo: 6 },
        reason: 'fix',
        sfs: { ...documents[5]!.sfs, CreateDate: '2026-03-03T08:00:00+01:00' },
      },
    });
    expect(index.lastDocumentCreated()).toEqual(lastCreatedFromDocument());
    expect(index.lastDocumentCreated()?.createMs).toBe(Date.parse('2026-03-03T08:00:00+01:00'));
    expect(index.documentFacts(6)).toEqual(factsFromDocument(6));
    expect(index.documentFacts(99)).toBeUndefined();
  });

  it('the clock check passes over set-aside documents: the last one not set aside (ADR 0117 amended, ADR 0711)', () => {
    const sfs = documentRecord(0).sfs;
    const at = (createDate: string) => ({ sfs: { ...sfs, CreateDate: createDate } });
    feed(
      { type: 'merchant', body: merchantRecord() },
      { type: 'document', body: documentRecord(1, at('2026-11-25T10:00:00+01:00')) },
      // A clock a year ahead: rejected for its date, then set aside.
      { type: 'document', body: documentRecord(2, at('2027-12-30T10:00:00+01:00')) },
      { type: 'sfs-exchange', body: exchangeRecord(2, 'rejected') },
    );
    expect(index.lastDocumentCreated()).toMatchObject({ documentNo: 2 }); // stuck: it counts
    const setAside = (documentNo: number) =>
      feed({
        type: 'repair',
        body: {
          subject: { kind: 'document', documentNo },
          reason: 'set aside',
          setAside: { reason: 'clock ran ahead', errorCode: -104, errorText: 'CreateDate later' },
        },
      });
    setAside(2);
    expect(index.findDocument({ by: 'documentNo', documentNo: 2 })?.sendState).toBe('set-aside');
    expect(index.lastDocumentCreated()).toEqual({
      documentNo: 1,
      createMs: Date.parse('2026-11-25T10:00:00+01:00'),
    });
    // Two set aside in a row are both passed over; a later document counts again.
    feed(
      { type: 'document', body: documentRecord(3, at('2027-12-31T10:00:00+01:00')) },
      { type: 'sfs-exchange', body: exchangeRecord(3, 'rejected') },
    );
    setAside(3);
    expect(index.lastDocumentCreated()).toMatchObject({ documentNo: 1 });
    feed({ type: 'document', body: documentRecord(4, at('2026-11-25T10:05:00+01:00')) });
    expect(index.lastDocumentCreated()).toEqual({
      documentNo: 4,
      createMs: Date.parse('2026-11-25T10:05:00+01:00'),
    });
    // Only set-aside documents: nothing to compare with.
    index.clear();
    n = 0;
    feed(
      { type: 'merchant', body: merchantRecord() },
      { type: 'document', body: documentRecord(1, at('2027-12-30T10:00:00+01:00')) },
      { type: 'sfs-exchange', body: exchangeRecord(1, 'rejected') },
    );
    setAside(1);
    expect(index.lastDocumentCreated()).toBeUndefined();
  });
});
