import { describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord } from '../../../../test/support/journal-fixtures.js';
import { FiscalError } from '../../fiscal-error.js';
import type { JournalRecord, NewRecord } from '../../journal/records.js';
import type { Journal } from '../../ports/journal.js';
import type { NewRegisterEvent } from '../../ports/register-events.js';
import { EventPublishingJournal } from './event-publishing-journal.js';

/**
 * A journal whose append fails after the device may have stored the record (ADR 0114: the last
 * block's answer was lost); `stored` says what the CHDÚ holds afterwards, `readable` whether it
 * can still be read.
 */
function failingJournal(o: { stored?: NewRecord; readable?: boolean }): Journal {
  const at = (r: NewRecord): JournalRecord =>
    ({ ...r, recordNo: 5, version: 1, address: 0, writtenAt: '', chainHash: '' }) as JournalRecord;
  return {
    head: () => ({ recordNo: 4, address: 0, hash: '', type: 'print' }),
    append: async () => {
      throw new FiscalError('CHDU_WRITE_ERROR', 'no answer to the last block');
    },
    get: async (recordNo: number) => {
      if (o.readable === false) throw new FiscalError('CHDU_NOT_CONNECTED', 'gone');
      return recordNo === 5 && o.stored ? at(o.stored) : undefined;
    },
    records: () => (async function* () {})(),
    verify: async () => {
      throw new Error('not used');
    },
  } as unknown as Journal;
}

function wrap(journal: Journal) {
  const published: NewRegisterEvent[] = [];
  let pokes = 0;
  const j = new EventPublishingJournal(
    journal,
    { publish: (e) => published.push(e) },
    () => undefined,
    () => {
      pokes += 1;
    },
  );
  return { j, published, pokes: () => pokes };
}

describe('EventPublishingJournal, an append whose answer was lost (ADR 0114)', () => {
  const doc: NewRecord = { type: 'document', body: documentRecord(7) };

  it('publishes document.stored when the CHDÚ holds the record after all, and still rejects', async () => {
    const t = wrap(failingJournal({ stored: structuredClone(doc) }));
    await expect(t.j.append(doc)).rejects.toSatisfy((e) => FiscalError.is(e));
    expect(t.published).toEqual([
      { type: 'document.stored', data: expect.objectContaining({ internalDocumentId: 7, recordNo: 5 }) },
    ]);
    expect(t.pokes()).toBe(1);
  });

  it('publishes nothing when the record did not land, or another record is there', async () => {
    for (const journal of [
      failingJournal({}),
      failingJournal({ stored: { type: 'document', body: documentRecord(8) } }),
      failingJournal({ readable: false }),
    ]) {
      const t = wrap(journal);
      await expect(t.j.append(doc)).rejects.toSatisfy((e) => FiscalError.is(e));
      expect(t.published).toEqual([]);
    }
  });
});

/** A journal that records its writes: `appendMany` is one write, as on the image CHDÚ. */
function recordingJournal(o: { failAfter?: number } = {}) {
  const stored: JournalRecord[] = [];
  const writes: string[][] = [];
  const put = (r: NewRecord): JournalRecord => {
    const full = {
      ...r,
      recordNo: stored.length + 1,
      version: 1,
      address: 0,
      writtenAt: '',
    } as JournalRecord;
    stored.push(full);
    return full;
  };
  const journal = {
    head: () =>
      stored.length ? { recordNo: stored.length, address: 0, hash: '', type: 'print' } : undefined,
    append: async (r: NewRecord) => {
      writes.push([r.type]);
      return put(r);
    },
    appendMany: async (rs: readonly NewRecord[]) => {
      writes.push(rs.map((r) => r.type));
      if (o.failAfter !== undefined) {
        rs.slice(0, o.failAfter).forEach(put);
        throw new FiscalError('CHDU_WRITE_ERROR', 'the write failed half way');
      }
      return rs.map(put);
    },
    manyInOneWrite: () => true,
    get: async (recordNo: number) => stored[recordNo - 1],
    records: () => (async function* () {})(),
    verify: async () => {
      throw new Error('not used');
    },
  } as unknown as Journal;
  return { journal, writes };
}

describe('EventPublishingJournal, several records in one write (ADR 1105)', () => {
  const records: NewRecord[] = [
    { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted', 2) },
    { type: 'sfs-exchange', body: exchangeRecord(2, 'unreachable', 2) },
    {
      type: 'sfs-attempt',
      body: {
        subject: { kind: 'document', documentNo: 3 },
        requestUuid: 'u',
        requestDate: 'd',
        sendingCount: 2,
      },
    },
  ];

  it("passes appendMany through as one write and publishes every record's events in order, then one look", async () => {
    const r = recordingJournal();
    const t = wrap(r.journal);
    expect(t.j.manyInOneWrite()).toBe(true);
    const written = await t.j.appendMany(records);
    expect(written.map((w) => w.recordNo)).toEqual([1, 2, 3]);
    expect(r.writes).toEqual([['sfs-exchange', 'sfs-exchange', 'sfs-attempt']]);
    expect(t.published.map((e) => e.type)).toEqual(['document.registered', 'document.offline']);
    expect(t.pokes()).toBe(1);
  });

  it('after a write that failed half way, publishes the events of the records the CHDÚ took, and rejects', async () => {
    const r = recordingJournal({ failAfter: 1 });
    const t = wrap(r.journal);
    await expect(t.j.appendMany(records)).rejects.toSatisfy((e) => FiscalError.is(e));
    expect(t.published.map((e) => e.type)).toEqual(['document.registered']);
    expect(t.pokes()).toBe(1);
  });
});
