import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  documentRecord,
  exchangeRecord,
  locationRecord,
  merchantRecord,
  printRecord,
} from '../../../test/support/journal-fixtures.js';
import { paragonKey } from '../../core/documents/paragon-key.js';
import { FiscalError } from '../../core/fiscal-error.js';
import {
  afterAttemptStarted,
  afterExchange,
  afterPrint,
  afterRepair,
  NEW_PRINT_TRACK,
  NEW_SEND_TRACK,
  type PrintTrack,
  type SendTrack,
} from '../../core/journal/derived-state.js';
import type { JournalRecord, NewRecord } from '../../core/journal/records.js';
import type { SfsReceiptData } from '../../core/sfs/message.js';
import { DOCUMENT_LOOKUPS, DOCUMENT_ROW_READS, SqliteJournalIndex } from './sqlite-journal-index.js';

let dir: string;
let index: SqliteJournalIndex;
let n = 0;

function feed(...records: NewRecord[]): void {
  for (const r of records) {
    n++;
    const full = {
      ...r,
      version: 1,
      recordNo: n,
      address: n * 3,
      writtenAt: '2026-03-02T10:15:30+01:00',
    } as JournalRecord;
    index.apply(full, `hash-${n}`);
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-index-'));
  index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  n = 0;
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteJournalIndex', () => {
  it('uses WAL with synchronous=NORMAL (ADR 1100: consistent after a crash, replayed from the CHDÚ)', () => {
    expect(index.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(index.database.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('a reader beside the writer sees every new high-water mark (only the writer keeps it in memory)', () => {
    feed({ type: 'merchant', body: merchantRecord() });
    const reader = SqliteJournalIndex.openReadOnly(join(dir, 'index.sqlite'))!;
    expect(reader.highWaterMark()).toBe(1);
    feed({ type: 'free-text', body: { text: 'x' } });
    expect(index.highWaterMark()).toBe(2);
    expect(reader.highWaterMark()).toBe(2);
    index.clear();
    expect(index.highWaterMark()).toBe(0);
    expect(reader.highWaterMark()).toBe(0);
    reader.close();
  });

  it('applies exchanges, attempts and prints without reading bodies: every item equals the fold of the derived-state rules over its records (ADR 1110)', () => {
    // The slower path the index replaced: the whole track of each item, folded record by record.
    const sends = new Map<string, SendTrack>();
    const prints = new Map<number, PrintTrack>();
    const key = (s: { kind: string; documentNo?: number; locationNo?: number }) =>
      s.kind === 'document' ? `d${s.documentNo}` : `l${s.locationNo}`;
    const both = (r: NewRecord) => {
      feed(r);
      if (r.type === 'document') {
        sends.set(`d${r.body.documentNo}`, NEW_SEND_TRACK);
        prints.set(r.body.documentNo, NEW_PRINT_TRACK);
      } else if (r.type === 'location') sends.set(`l${r.body.locationNo}`, NEW_SEND_TRACK);
      else if (r.type === 'sfs-exchange') {
        const k = key(r.body.subject);
        sends.set(k, afterExchange(sends.get(k)!, r.body));
      } else if (r.type === 'sfs-attempt') {
        const k = key(r.body.subject);
        sends.set(k, afterAttemptStarted(sends.get(k)!, r.body));
      } else if (r.type === 'repair') {
        const k = key(r.body.subject);
        sends.set(k, afterRepair(sends.get(k)!, r.body));
      } else if (r.type === 'print')
        prints.set(r.body.documentNo, afterPrint(prints.get(r.body.documentNo)!, r.body));
    };
    const x = (documentNo: number, outcome: Parameters<typeof exchangeRecord>[1], count = 1, more = {}) =>
      ({ type: 'sfs-exchange', body: exchangeRecord(documentNo, outcome, count, more) }) as const;
    const attempt = (documentNo: number, sendingCount: number) =>
      ({
        type: 'sfs-attempt',
        body: {
          subject: { kind: 'document', documentNo },
          requestUuid: `00000000-0000-4000-8000-${String(documentNo * 10 + sendingCount).padStart(12, '0')}`,
          requestDate: `2026-03-02T10:1${sendingCount}:00+01:00`,
          sendingCount,
        },
      }) as const;
    both({ type: 'merchant', body: merchantRecord() });
    for (let d = 1; d <= 8; d++) both({ type: 'document', body: documentRecord(d) });
    both(x(1, 'accepted'));
    both(x(1, 'accepted', 2, { id: 'O-SECOND' })); // settled: the first acceptance stays
    both({ type: 'print', body: printRecord(1) });
    both({ type: 'print', body: printRecord(1, false) }); // printed stays printed
    both(x(2, 'unreachable'));
    both(attempt(2, 3));
    both(x(2, 'invalid-response', 3));
    both(attempt(2, 4));
    both(x(2, 'accepted', 4)); // a late registration: offline-sent
    both({
      type: 'print',
      body: printRecord(2, false, {
        partialPrint: { totalBytes: 90, resumeOffset: 40, printedLines: 2, jobSha256: 'ab' },
        form: 'offline',
      }),
    });
    both({ type: 'print', body: printRecord(2, false, { printerCode: 104 }) });
    // ADR 0713: the part on paper fixed the form; the print that finishes it keeps it.
    both({ type: 'print', body: printRecord(2, true, { form: 'uid' }) });
    both(x(3, 'rejected'));
    both({ type: 'repair', body: { subject: { kind: 'document', documentNo: 3 }, reason: 'fix' } });
    both(x(3, 'accepted', 2));
    both(x(4, 'rejected', 1, { registerRefused: true })); // the register refused: still queued
    both(x(4, 'duplicate', 2));
    both(x(5, 'unverified'));
    both({ type: 'print', body: printRecord(5, true, { copy: true }) });
    both({ type: 'print', body: printRecord(6, true, { electronic: true, form: 'uid' }) });
    // The kick went out, nothing else confirmed (ADR 0517): kept through a later failure.
    both({ type: 'print', body: printRecord(7, false, { drawerOpened: true }) });
    both({ type: 'print', body: printRecord(7, false, { printerCode: 105 }) });
    // Nothing on paper (105) leaves the form open; the original printed later fixes it, a copy never.
    both(x(8, 'unreachable'));
    both({ type: 'print', body: printRecord(8, false, { printerCode: 105, form: 'offline' }) });
    both(x(8, 'accepted', 2, { id: 'O-EIGHT' }));
    both({ type: 'print', body: printRecord(8, true, { form: 'uid' }) });
    both({ type: 'print', body: printRecord(8, true, { copy: true, form: 'offline' }) });
    both({ type: 'location', body: locationRecord(1) });
    both({ type: 'location', body: locationRecord(2) });
    both({
      type: 'sfs-exchange',
      body: { ...exchangeRecord(0, 'unreachable'), subject: { kind: 'location', locationNo: 1 } },
    });
    both({
      type: 'sfs-attempt',
      body: { ...attempt(0, 2).body, subject: { kind: 'location', locationNo: 1 } },
    });
    both({
      type: 'sfs-exchange',
      body: { ...exchangeRecord(0, 'accepted', 2), subject: { kind: 'location', locationNo: 1 } },
    });
    both({
      // settled: the location's first acceptance stays (setLocSend's COALESCE)
      type: 'sfs-exchange',
      body: {
        ...exchangeRecord(0, 'accepted', 3, { id: 'O-LOC-SECOND' }),
        subject: { kind: 'location', locationNo: 1 },
      },
    });
    both({
      type: 'sfs-exchange',
      body: { ...exchangeRecord(0, 'rejected'), subject: { kind: 'location', locationNo: 2 } },
    });
    for (let d = 1; d <= 8; d++) {
      const t = sends.get(`d${d}`)!;
      const p = prints.get(d)!;
      const got = index.findDocument({ by: 'documentNo', documentNo: d })!;
      expect(
        {
          sendState: got.sendState,
          sendingCount: got.sendingCount,
          lastExchange: got.lastExchange,
          accepted: got.accepted,
          printState: got.printState,
          lastPrinterCode: got.lastPrinterCode,
          printStarted: got.printStarted,
          drawerOpened: got.drawerOpened,
          receiptForm: got.receiptForm,
        },
        `document ${d}`,
      ).toEqual({
        sendState: t.sendState,
        sendingCount: t.sendingCount,
        lastExchange: t.lastExchange,
        accepted: t.accepted,
        printState: p.printState,
        lastPrinterCode: p.lastPrinterCode,
        printStarted: p.printStarted,
        drawerOpened: p.drawerOpened,
        receiptForm: p.receiptForm,
      });
      if (d === 7) expect(got).toMatchObject({ printState: 'failed', drawerOpened: true });
      // The form of the original (ADR 0713); a print record without one (older) leaves it unknown.
      const forms: Record<number, string | undefined> = { 1: undefined, 2: 'offline', 6: 'uid', 8: 'uid' };
      if (d in forms) expect(got.receiptForm, `form of document ${d}`).toBe(forms[d]);
      // The receipt UUID is the first acceptance's, and only an acceptance sets it.
      if (t.accepted?.id) {
        expect(index.findDocument({ by: 'uuid', uuid: t.accepted.id })?.document.documentNo).toBe(d);
      }
    }
    expect(index.findDocument({ by: 'uuid', uuid: 'O-SECOND' })).toBeUndefined();
    for (const l of [1, 2]) {
      const t = sends.get(`l${l}`)!;
      const got = index.findLocation(l)!;
      expect([got.sendState, got.sendingCount, got.lastExchange, got.accepted], `location ${l}`).toEqual([
        t.sendState,
        t.sendingCount,
        t.lastExchange,
        t.accepted,
      ]);
    }
    expect(sends.get('d2')?.sendState).toBe('offline-sent');
    expect(sends.get('d4')?.sendState).toBe('stuck');
  });

  it('finds documents by every key and tracks the high-water mark', () => {
    feed(
      { type: 'merchant', body: merchantRecord() },
      { type: 'document', body: documentRecord(1, { idempotency: { key: 'k-1', requestSha256: 'aa' } }) },
      { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted') },
      { type: 'document', body: documentRecord(2, { documentNumber: '202604/1', externalId: 'ext-1' }) },
    );
    expect(index.highWaterMark()).toBe(4);
    expect(index.highWaterHash()).toBe('hash-4');
    expect(index.recordCount()).toBe(4);
    expect(index.findDocument({ by: 'documentNo', documentNo: 1 })?.recordNo).toBe(2);
    expect(
      index.findDocument({ by: 'sequenceId', sequenceId: 1, month: 3, year: 2026 })?.document.documentNo,
    ).toBe(1);
    expect(
      index.findDocument({ by: 'sequenceId', sequenceId: 1, month: 4, year: 2026 })?.document.documentNo,
    ).toBe(2);
    // Two documents carry ext-1 (the fixture's default for no. 1 and the override): the last wins.
    expect(index.findDocument({ by: 'externalId', externalId: 'ext-1' })?.document.documentNo).toBe(2);
    expect(index.findDocument({ by: 'okp', okp: documentRecord(2).okp })?.document.documentNo).toBe(2);
    expect(index.findDocument({ by: 'pkp', pkp: documentRecord(1).pkp })?.document.documentNo).toBe(1);
    expect(
      index.findDocument({ by: 'uuid', uuid: exchangeRecord(1, 'accepted').id! })?.document.documentNo,
    ).toBe(1);
    expect(index.findDocument({ by: 'idempotencyKey', key: 'k-1' })?.document.documentNo).toBe(1);
    expect(index.findDocument({ by: 'last' })?.document.documentNo).toBe(2);
    expect(index.findDocument({ by: 'okp', okp: 'nope' })).toBeUndefined();
    expect(index.lastSequenceId(2026, 3)).toBe(1);
    expect(index.lastSequenceId(2026, 5)).toBe(0);
    expect(index.lastDocumentNo()).toBe(2);
    expect(index.currentMerchant()?.recordNo).toBe(1);
  });

  it('finds a paragón by its number and day, moved by a repair of its issueDate (ADR 0431)', () => {
    const paper = (issued: string): SfsReceiptData => ({
      ...documentRecord(1).sfs,
      Paragon: 'true',
      ParagonNumber: '17',
      IssueDate: issued,
    });
    feed(
      { type: 'merchant', body: merchantRecord() },
      { type: 'document', body: documentRecord(1, { sfs: paper('2026-03-01T18:00:00+01:00') }) },
      { type: 'document', body: documentRecord(2) },
    );
    const key = (day: string) => ({ by: 'paragon', key: paragonKey(17, `${day}T09:00:00+01:00`) }) as const;
    expect(index.findDocument(key('2026-03-01'))?.document.documentNo).toBe(1);
    expect(index.findDocument(key('2026-03-02'))).toBeUndefined();
    feed({
      type: 'repair',
      body: {
        subject: { kind: 'document', documentNo: 1 },
        reason: 'paper date',
        sfs: paper('2026-02-28T18:00:00+01:00'),
      },
    });
    expect(index.findDocument(key('2026-02-28'))?.document.documentNo).toBe(1);
    expect(index.findDocument(key('2026-03-01'))).toBeUndefined();
  });

  it('derives send and print state, queues and repairs', () => {
    feed(
      { type: 'merchant', body: merchantRecord() },
      { type: 'document', body: documentRecord(1) },
      { type: 'sfs-exchange', body: exchangeRecord(1, 'unreachable') },
      { type: 'document', body: documentRecord(2) },
      { type: 'sfs-exchange', body: exchangeRecord(2, 'rejected') },
      { type: 'document', body: documentRecord(3) },
      { type: 'sfs-exchange', body: exchangeRecord(3, 'accepted') },
      { type: 'print', body: printRecord(3, false) },
      { type: 'print', body: printRecord(2, true) },
      { type: 'print', body: printRecord(1, true) },
    );
    expect(index.unsentDocuments().map((d) => d.document.documentNo)).toEqual([1]);
    expect(index.stuckDocuments().map((d) => d.document.documentNo)).toEqual([2]);
    const third = index.findDocument({ by: 'documentNo', documentNo: 3 });
    expect(third).toMatchObject({ sendState: 'online', printState: 'failed', lastPrinterCode: 102 });
    expect(index.unprintedDocument()?.document.documentNo).toBe(3);

    const redated = { ...documentRecord(2).sfs, CreateDate: '2026-03-03T08:00:00+01:00' };
    feed(
      {
        type: 'repair',
        body: {
          subject: { kind: 'document', documentNo: 2 },
          reason: 're-dated',
          sfs: redated,
          okp: 'new-okp',
        },
      },
      { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted', 2) },
    );
    const second = index.findDocument({ by: 'okp', okp: 'new-okp' });
    expect(second).toMatchObject({
      sendState: 'unsent',
      repairedBy: 11,
      document: { documentNo: 2, sfs: redated },
    });
    expect(index.findDocument({ by: 'okp', okp: documentRecord(2).okp })?.document.documentNo).toBe(2);
    expect(index.unsentDocuments().map((d) => d.document.documentNo)).toEqual([2]);
    expect(index.findDocument({ by: 'documentNo', documentNo: 1 })).toMatchObject({
      sendState: 'offline-sent',
      sendingCount: 2,
    });
    expect(index.unsentDocuments(0)).toEqual([]);
  });

  it('a rolled-back applyMany (a new merchant, then a record out of sequence) leaves the merchant in force and the mark as they were', () => {
    feed({ type: 'merchant', body: merchantRecord({ dic: '2021000003' }) });
    feed({ type: 'settings', body: { changes: { cashPaymentNames: ['Cash'] } } });
    const before = index.currentMerchant();
    const settings = index.settings();
    const at = (recordNo: number, r: NewRecord) =>
      ({
        ...r,
        version: 1,
        recordNo,
        address: recordNo * 3,
        writtenAt: '2026-03-02T10:15:30+01:00',
      }) as JournalRecord;
    expect(() =>
      index.applyMany([
        {
          record: at(3, { type: 'merchant', body: merchantRecord({ dic: '2021000014' }) }),
          chainHash: 'hash-3',
        },
        {
          record: at(4, { type: 'settings', body: { changes: { cashPaymentNames: ['Hotovosť'] } } }),
          chainHash: 'hash-4',
        },
        // Record 6 where 5 is due: the whole transaction is rolled back.
        { record: at(6, { type: 'free-text', body: { text: 'x' } }), chainHash: 'hash-6' },
      ]),
    ).toThrow(/expects record 5/);
    expect(index.highWaterMark()).toBe(2);
    expect(index.currentMerchant()).toEqual(before);
    expect(index.currentMerchant()).toMatchObject({ recordNo: 1, merchant: { dic: '2021000003' } });
    expect(index.settings()).toEqual(settings);
    // A fresh reader of the same file agrees: nothing of the rolled-back records was committed.
    const reader = SqliteJournalIndex.openReadOnly(join(dir, 'index.sqlite'))!;
    try {
      expect(reader.highWaterMark()).toBe(2);
      expect(reader.currentMerchant()?.recordNo).toBe(1);
    } finally {
      reader.close();
    }
  });

  it('keeps the merchant in force and the settings between the records that change them (read-only values)', () => {
    feed({ type: 'merchant', body: merchantRecord({ dic: '2021000003' }) });
    const first = index.currentMerchant();
    expect(index.currentMerchant()).toBe(first);
    expect(() => {
      (first!.merchant as { dic: string }).dic = 'x';
    }).toThrow(TypeError);
    feed({ type: 'free-text', body: { text: 'x' } });
    expect(index.currentMerchant()).toBe(first);
    feed({ type: 'merchant', body: merchantRecord({ dic: '2021000014' }) });
    expect(index.currentMerchant()).toMatchObject({ recordNo: 3, merchant: { dic: '2021000014' } });
    expect(index.settings()).toEqual({});
    feed({ type: 'settings', body: { changes: { cashPaymentNames: ['Cash'] } } });
    expect(index.settings()).toEqual({ cashPaymentNames: ['Cash'] });
    expect(index.settings()).toBe(index.settings());
    index.clear();
    expect(index.currentMerchant()).toBeUndefined();
    expect(index.settings()).toEqual({});
  });

  it('tracks locations and merges settings in order', () => {
    feed(
      { type: 'location', body: locationRecord(1) },
      {
        type: 'sfs-exchange',
        body: { ...exchangeRecord(0, 'rejected'), subject: { kind: 'location', locationNo: 1 } },
      },
      { type: 'location', body: locationRecord(2) },
      { type: 'settings', body: { changes: { printerWidth: 48, language: 'sk' } } },
      { type: 'settings', body: { changes: { printerWidth: 32, language: null } } },
    );
    expect(index.lastLocationNo()).toBe(2);
    expect(index.lastLocation()?.location.locationNo).toBe(2);
    expect(index.stuckLocations().map((l) => l.location.locationNo)).toEqual([1]);
    expect(index.unsentLocations().map((l) => l.location.locationNo)).toEqual([2]);
    feed({ type: 'repair', body: { subject: { kind: 'location', locationNo: 1 }, reason: 'resend' } });
    expect(index.unsentLocations().map((l) => l.location.locationNo)).toEqual([1, 2]);
    expect(index.settings()).toEqual({ printerWidth: 32 });
  });

  it('accepts only the next record number, and clear() empties everything', () => {
    feed({ type: 'merchant', body: merchantRecord() });
    const skip = {
      type: 'free-text',
      body: { text: 'x' },
      version: 1,
      recordNo: 3,
      address: 0,
      writtenAt: '',
    } as JournalRecord;
    expect(() => index.apply(skip, 'h')).toThrow(FiscalError);
    expect(index.highWaterMark()).toBe(1);
    index.clear();
    expect(index.highWaterMark()).toBe(0);
    expect(index.highWaterHash()).toBeUndefined();
    expect(index.genesisHash()).toBeUndefined();
    expect(index.currentMerchant()).toBeUndefined();
  });

  it('keeps the chain hash of record 1 as the journal it was built from', () => {
    feed({ type: 'merchant', body: merchantRecord() }, { type: 'free-text', body: { text: 'x' } });
    expect(index.genesisHash()).toBe('hash-1');
    expect(index.highWaterHash()).toBe('hash-2');
  });

  it('finds a receipt UUID whatever its case, through the uuid index (no table scan)', () => {
    feed(
      { type: 'merchant', body: merchantRecord() },
      { type: 'document', body: documentRecord(1) },
      { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted') },
    );
    const uuid = exchangeRecord(1, 'accepted').id!;
    for (const variant of [uuid, uuid.toLowerCase(), uuid.toUpperCase()]) {
      expect(index.findDocument({ by: 'uuid', uuid: variant })?.document.documentNo).toBe(1);
    }
    const plan = (sql: string) =>
      (
        index.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(
          ...Array(9)
            .fill(1)
            .slice(0, (sql.match(/\?/g) ?? []).length),
        ) as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join('; ');
    expect(plan(DOCUMENT_LOOKUPS.uuid)).toMatch(/SEARCH documents USING INDEX documents_uuid \(uuid=\?\)/);
    for (const [by, sql] of Object.entries(DOCUMENT_LOOKUPS)) {
      if (by === 'last') continue; // the newest row by its integer key: no WHERE to search by
      expect(plan(sql), by).not.toMatch(/SCAN (documents|d|c)\b/);
    }
    // ADR 1115's narrow reads: the same plans as the look-ups they stand in for.
    expect(plan(DOCUMENT_ROW_READS.facts)).toBe(plan(DOCUMENT_LOOKUPS.documentNo));
    expect(plan(DOCUMENT_ROW_READS.lastCreated)).toBe(plan(DOCUMENT_LOOKUPS.last));
  });

  it('has the creation-date index of the document list from the start, so no start-up builds it over every document', () => {
    // Capability 13 figure 3 × capability 12: built at start-up over a million documents it took seconds.
    const names = index.database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents'")
      .pluck()
      .all();
    expect(names).toContain('documents_created');
  });

  it('recreates a file that is not a database (the index is derived)', () => {
    index.close();
    const path = join(dir, 'garbage.sqlite');
    writeFileSync(path, 'this is not sqlite'.repeat(100));
    const fresh = SqliteJournalIndex.open(path);
    expect(fresh.highWaterMark()).toBe(0);
    fresh.close();
    index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  });
});
