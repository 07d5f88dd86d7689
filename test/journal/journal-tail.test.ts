import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import type { JournalRecord, NewRecord } from '../../src/core/journal/records.js';
import type { JournalHead } from '../../src/core/ports/journal.js';
import type { DocumentQuery } from '../../src/core/ports/journal-index.js';
import { findDocumentToHead, MAX_TAIL_RECORDS } from '../../src/core/services/documents/journal-tail.js';
import { documentRecord, exchangeRecord, merchantRecord, printRecord } from '../support/journal-fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function indexWith(records: readonly JournalRecord[]): SqliteJournalIndex {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-tail-'));
  dirs.push(dir);
  const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  for (const r of records) index.apply(r, r.chainHash!);
  return index;
}

function numbered(records: readonly NewRecord[]): JournalRecord[] {
  return records.map(
    (r, i) =>
      ({
        ...r,
        version: 1,
        recordNo: i + 1,
        address: i,
        writtenAt: '2026-03-02T10:15:30+01:00',
        chainHash: `h${i + 1}`,
      }) as JournalRecord,
  );
}

function journalOf(records: readonly JournalRecord[]) {
  const last = records.at(-1)!;
  return {
    head: (): JournalHead => ({ recordNo: last.recordNo, address: last.address, hash: 'h', type: last.type }),
    records: async function* (from = 1) {
      for (const r of records) if (r.recordNo >= from) yield r;
    },
  };
}

// Records 1–5 reach the index; 6–11 only the CHDÚ (its disk ran full).
const RECORDS = numbered([
  { type: 'merchant', body: merchantRecord() },
  { type: 'document', body: documentRecord(1) },
  { type: 'sfs-exchange', body: exchangeRecord(1, 'unreachable') },
  { type: 'document', body: documentRecord(2) },
  { type: 'print', body: printRecord(2, false) },
  { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted', 2) },
  { type: 'sfs-exchange', body: exchangeRecord(2, 'rejected') },
  {
    type: 'repair',
    body: {
      subject: { kind: 'document', documentNo: 2 },
      reason: 'fix',
      okp: 'ABCDEF01-0-0-0-0',
      pkp: 'PKP-NEW',
    },
  },
  {
    type: 'document',
    body: documentRecord(3, { externalId: 'ext-1', idempotency: { key: 'k-3', requestSha256: 'x' } }),
  },
  { type: 'print', body: printRecord(3, true, { form: 'offline' }) },
  {
    type: 'sfs-attempt',
    body: {
      subject: { kind: 'document', documentNo: 3 },
      requestUuid: 'u',
      requestDate: '2026-03-02T10:16:00+01:00',
      sendingCount: 1,
    },
  },
]);
const MARK = 5;

const QUERIES: DocumentQuery[] = [
  { by: 'last' },
  ...[1, 2, 3, 4].map((documentNo): DocumentQuery => ({ by: 'documentNo', documentNo })),
  ...[1, 2, 3].map((sequenceId): DocumentQuery => ({ by: 'sequenceId', sequenceId, month: 3, year: 2026 })),
  { by: 'externalId', externalId: 'ext-1' },
  { by: 'externalId', externalId: 'ext-2' },
  { by: 'okp', okp: documentRecord(2).okp.toUpperCase() },
  { by: 'okp', okp: 'abcdef01-0-0-0-0' },
  { by: 'pkp', pkp: 'PKP-NEW' },
  { by: 'pkp', pkp: documentRecord(3).pkp },
  { by: 'uuid', uuid: exchangeRecord(1, 'accepted').id!.toLowerCase() },
  { by: 'idempotencyKey', key: 'k-3' },
  { by: 'qrPaymentId', id: 'QR-none' },
];

describe('findDocumentToHead (ADR 0116)', () => {
  it('answers every look-up as the index does once it has taken the tail', async () => {
    const lagging = indexWith(RECORDS.slice(0, MARK));
    const current = indexWith(RECORDS);
    const deps = { index: lagging, journal: journalOf(RECORDS) };
    for (const query of QUERIES) {
      const expected = current.findDocument(query);
      expect(await findDocumentToHead(deps, query), JSON.stringify(query)).toEqual(expected);
    }
    // The cases that matter: the newest document, and indexed ones the tail changed.
    expect((await findDocumentToHead(deps, { by: 'last' }))?.document.documentNo).toBe(3);
    expect(await findDocumentToHead(deps, { by: 'documentNo', documentNo: 1 })).toMatchObject({
      sendState: 'offline-sent',
    });
    expect(await findDocumentToHead(deps, { by: 'documentNo', documentNo: 2 })).toMatchObject({
      sendState: 'unsent',
      repairedBy: 8,
      printState: 'failed',
    });
    // The form its original was printed in comes from the tail's print record (ADR 0713).
    expect(await findDocumentToHead(deps, { by: 'documentNo', documentNo: 3 })).toMatchObject({
      printState: 'printed',
      receiptForm: 'offline',
    });
  });

  it('answers from the index alone when it is at the head', async () => {
    const index = indexWith(RECORDS);
    const journal = {
      head: journalOf(RECORDS).head,
      records: () => {
        throw new Error('the CHDÚ must not be read');
      },
    };
    expect(await findDocumentToHead({ index, journal }, { by: 'last' })).toEqual(
      index.findDocument({ by: 'last' }),
    );
  });

  it('refuses with 201 naming both records when the index is too far behind to read the rest', async () => {
    const index = indexWith(RECORDS.slice(0, 1));
    const journal = {
      head: (): JournalHead => ({ recordNo: MAX_TAIL_RECORDS + 2, address: 0, hash: 'h', type: 'print' }),
      records: journalOf(RECORDS).records,
    };
    const error = await findDocumentToHead({ index, journal }, { by: 'last' }).catch((e: unknown) => e);
    expect(FiscalError.is(error, 'CHDU_WRITE_ERROR')).toBe(true);
    expect((error as FiscalError).details).toEqual({ indexRecordNo: 1, headRecordNo: MAX_TAIL_RECORDS + 2 });
  });
});
