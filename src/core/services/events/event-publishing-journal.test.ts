import { describe, expect, it } from 'vitest';
import { documentRecord } from '../../../../test/support/journal-fixtures.js';
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
