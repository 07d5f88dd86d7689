import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  documentRecord,
  exchangeRecord,
  locationRecord,
  merchantRecord,
} from '../../../test/support/journal-fixtures.js';
import type { JournalRecord, NewRecord } from '../../core/journal/records.js';
import { SqliteJournalIndex } from './sqlite-journal-index.js';
import { OFFLINE_QUERIES } from './sqlite-offline-queries.js';

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
      address: n,
      writtenAt: '2026-03-02T10:15:30+01:00',
    } as JournalRecord;
    index.apply(full, `hash-${n}`);
  }
}

const minute = (m: number) => {
  const d = new Date(Date.parse('2026-03-02T10:00:00+01:00') + m * 60_000);
  const local = new Date(d.getTime() + 3600_000).toISOString().slice(0, 19);
  return `${local}+01:00`;
};
const doc = (no: number) =>
  documentRecord(no, { sfs: { ...documentRecord(no).sfs, CreateDate: minute(no), IssueDate: minute(no) } });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-offline-index-'));
  index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  n = 0;
  feed({ type: 'merchant', body: merchantRecord() });
  // documents 1–8: 1 online, 2 unsent, 3 stuck, 4 unsent, location 1 (unsent), 5 not-sent, 6 unsent,
  // location 2 (stuck), 7 unsent, 8 online
  feed({ type: 'document', body: doc(1) }, { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted') });
  feed({ type: 'document', body: doc(2) }, { type: 'sfs-exchange', body: exchangeRecord(2, 'unreachable') });
  feed({ type: 'document', body: doc(3) }, { type: 'sfs-exchange', body: exchangeRecord(3, 'rejected') });
  feed({ type: 'document', body: doc(4) });
  feed({
    type: 'location',
    body: { ...locationRecord(1), sfs: { ...locationRecord(1).sfs, CreateDate: minute(4) } },
  });
  feed({ type: 'document', body: { ...doc(5), notSent: { reason: 'Act 384/2025' } } });
  feed({ type: 'document', body: doc(6) });
  feed(
    {
      type: 'location',
      body: { ...locationRecord(2), sfs: { ...locationRecord(2).sfs, CreateDate: minute(6) } },
    },
    {
      type: 'sfs-exchange',
      body: {
        ...exchangeRecord(0, 'rejected'),
        subject: { kind: 'location', locationNo: 2 },
        errorCode: -108,
      },
    },
  );
  feed({ type: 'document', body: doc(7) });
  feed({ type: 'document', body: doc(8) }, { type: 'sfs-exchange', body: exchangeRecord(8, 'accepted') });
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const label = (e: {
  kind: string;
  item: { document?: { documentNo: number }; location?: { locationNo: number } };
}) => (e.kind === 'document' ? `d${e.item.document!.documentNo}` : `l${e.item.location!.locationNo}`);

describe('send queue and offline report queries', () => {
  it('the send queue: unsent documents and locations together in creation order', () => {
    expect(index.sendQueue(10).map(label)).toEqual(['d2', 'd4', 'l1', 'd6', 'd7']);
    expect(index.sendQueue(3).map(label)).toEqual(['d2', 'd4', 'l1']);
    expect(index.queueSummary()).toMatchObject({
      unsentDocuments: 4,
      unsentLocations: 1,
      stuckDocuments: 1,
      stuckLocations: 1,
    });
    // The oldest not registered, stuck or unsent, as GET /api/report/offline/oldest answers.
    expect(label(index.queueSummary().oldest!)).toBe(label(index.oldestOffline()!));
    expect(index.findDocument({ by: 'documentNo', documentNo: 2 })?.firstAttemptDate).toBe(
      '2026-03-02T10:15:31+01:00',
    );
    expect(index.findDocument({ by: 'documentNo', documentNo: 4 })?.firstAttemptDate).toBeUndefined();
  });

  it("the sender's idle look names the queue's items as the queue itself does, per kind and limit", () => {
    const subjects = (limit: number) => {
      const { documents, locations } = index.unsentNumbers(limit);
      return [...documents.map((d) => `d${d}`), ...locations.map((l) => `l${l}`)];
    };
    const queue = (kind: string, limit: number) =>
      index
        .sendQueue(100)
        .map(label)
        .filter((l) => l.startsWith(kind))
        .slice(0, limit);
    for (const limit of [1, 2, 3, 10]) {
      expect(subjects(limit)).toEqual([...queue('d', limit), ...queue('l', limit)]);
    }
    expect(subjects(10)).toEqual(['d2', 'd4', 'd6', 'd7', 'l1']);
    expect(index.unsentNumbers(0)).toEqual({ documents: [], locations: [] });
    feed({ type: 'sfs-exchange', body: { ...exchangeRecord(2, 'accepted'), sendingCount: 2 } });
    expect(subjects(1)).toEqual(['d4', 'l1']);
  });

  it('the oldest item not registered counts stuck items too: the deadline and GET /api/report/offline/oldest agree', () => {
    feed({ type: 'sfs-exchange', body: { ...exchangeRecord(2, 'rejected'), sendingCount: 2 } });
    expect(index.findDocument({ by: 'documentNo', documentNo: 2 })?.sendState).toBe('stuck');
    expect(label(index.sendQueue(1)[0]!)).toBe('d4');
    expect(label(index.queueSummary().oldest!)).toBe('d2');
    expect(label(index.oldestOffline()!)).toBe('d2');
  });

  it('the last stored request is the newest document or location, whatever its state', () => {
    expect(label(index.lastStoredRequest()!)).toBe('d8');
    feed({ type: 'location', body: locationRecord(3) });
    expect(label(index.lastStoredRequest()!)).toBe('l3');
    expect(index.lastStuckLocation()?.location.locationNo).toBe(2);
  });

  it('the stuck last request is the last stored request when it is stuck, whichever kind is newest (ADR 1113)', () => {
    const same = () => {
      const last = index.lastStoredRequest();
      expect(index.stuckLastRequest()).toEqual(last?.item.sendState === 'stuck' ? last : undefined);
    };
    same(); // d8 online: nothing
    expect(index.stuckLastRequest()).toBeUndefined();
    const rejected = (
      subject: { kind: 'document'; documentNo: number } | { kind: 'location'; locationNo: number },
    ) =>
      ({
        type: 'sfs-exchange',
        body: { ...exchangeRecord(0, 'rejected'), subject, errorCode: -108 },
      }) as const;
    feed({ type: 'location', body: locationRecord(3) }, rejected({ kind: 'location', locationNo: 3 }));
    same();
    expect(label(index.stuckLastRequest()!)).toBe('l3');
    feed({ type: 'document', body: doc(9) });
    same(); // d9 unsent is newer than the stuck l3
    expect(index.stuckLastRequest()).toBeUndefined();
    feed(rejected({ kind: 'document', documentNo: 9 }));
    same();
    expect(label(index.stuckLastRequest()!)).toBe('d9');
    feed({ type: 'sfs-exchange', body: { ...exchangeRecord(9, 'duplicate'), sendingCount: 2 } });
    same();
    feed({ type: 'location', body: locationRecord(4) });
    same(); // l4 unsent
    expect(index.stuckLastRequest()).toBeUndefined();
  });

  it('the report: documents (unsent and stuck) first, then locations; offset and limit count items', () => {
    const page = (q: Parameters<SqliteJournalIndex['offlineReport']>[0]) => {
      const p = index.offlineReport(q);
      return [
        ...p.documents.map((d) => `d${d.document.documentNo}`),
        ...p.locations.map((l) => `l${l.location.locationNo}`),
      ];
    };
    expect(page({ offset: 0, limit: 100 })).toEqual(['d2', 'd3', 'd4', 'd6', 'd7', 'l1', 'l2']);
    expect(page({ offset: 2, limit: 2 })).toEqual(['d4', 'd6']);
    expect(page({ offset: 4, limit: 2 })).toEqual(['d7', 'l1']);
    expect(page({ offset: 6, limit: 5 })).toEqual(['l2']);
    expect(page({ offset: 7, limit: 5 })).toEqual([]);
    expect(page({ offset: 0, limit: 100, sequenceId: 3 })).toEqual(['d3']);
    const at = (m: number) => Date.parse(minute(m));
    expect(page({ offset: 0, limit: 100, fromMs: at(4), toMs: at(6) })).toEqual(['d4', 'd6', 'l1', 'l2']);
    expect(page({ offset: 1, limit: 2, fromMs: at(4), toMs: at(6) })).toEqual(['d6', 'l1']);
    expect(label(index.oldestOffline()!)).toBe('d2');
  });

  it('the report page counts every item matching the filter, whatever offset and limit (ADR 0716)', () => {
    const total = (q: Parameters<SqliteJournalIndex['offlineReport']>[0]) => index.offlineReport(q).total;
    expect(total({ offset: 0, limit: 100 })).toBe(7);
    expect(total({ offset: 0, limit: 2 })).toBe(7);
    expect(total({ offset: 6, limit: 5 })).toBe(7);
    expect(total({ offset: 50, limit: 5 })).toBe(7);
    // Locations carry no sequenceId: a sequenceId filter counts documents only.
    expect(total({ offset: 0, limit: 100, sequenceId: 3 })).toBe(1);
    expect(total({ offset: 0, limit: 100, sequenceId: 99 })).toBe(0);
    const at = (m: number) => Date.parse(minute(m));
    expect(total({ offset: 1, limit: 1, fromMs: at(4), toMs: at(6) })).toBe(4);
    expect(total({ offset: 0, limit: 1, fromMs: at(5) })).toBe(3);
  });

  it('every queue and report query is an index search, never a scan of all documents (ADR 0700)', () => {
    const plan = (sql: string) =>
      (
        index.database
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(
            ...(sql.includes('@')
              ? [{ seq: null, from: null, to: null, limit: 1, offset: 0 }]
              : Array((sql.match(/\?/g) ?? []).length).fill('unsent')),
          ) as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join('; ');
    for (const [name, sql] of Object.entries(OFFLINE_QUERIES)) {
      // the newest row by its key
      if (/^last(Document|Location)(State)?$/.test(name)) continue;
      expect(plan(sql), name).not.toMatch(/SCAN (documents|locations)\b(?! USING)/);
    }
  });
});
