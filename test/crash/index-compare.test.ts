import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { openJournalReadOnly } from '../../src/compose/open-journal.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import type { NewRecord } from '../../src/core/journal/records.js';
import { syncJournalIndex } from '../../src/core/services/journal-sync.js';
import { exchangeRecord, mixedRecords } from '../support/journal-fixtures.js';
import { compareIndexes, journalUpTo } from './index-compare.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-index-compare-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// The crash harness compares kasa's live index with a rebuild while kasa's sender may still be
// resending the backlog (two records per attempt). Read at different moments the two differ in
// the hwm, the type counts and the resent document's row although neither is wrong; read at one
// record (the live snapshot's high-water mark) they must be equal.
it('a live index read in one snapshot equals a rebuild stopped at its high-water mark while the writer goes on', async () => {
  const chdu = await ImageFileChdu.open(join(dir, 'chdu.img'), { create: true, capacityBlocks: 10_000 });
  const writer = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  const liveWriter = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  const append = async (r: NewRecord) => {
    const w = await writer.append(r);
    liveWriter.apply(w, w.chainHash!);
  };
  for (const r of mixedRecords(30)) await append(r);
  // Document 7 went offline (mixedRecords: 7 → unreachable); the sender will resend it.
  const live = SqliteJournalIndex.openReadOnly(join(dir, 'index.sqlite'))!;
  live.database.exec('BEGIN');
  const mark = live.highWaterMark();
  expect(mark).toBe(30);

  // The sender goes on after the snapshot: an attempt, then its outcome.
  const resend = exchangeRecord(7, 'accepted', 2, { requestUuid: '00000000-0000-4000-8000-00000000aaaa' });
  const { outcome: _o, id: _i, processDate: _p, ...attempt } = resend;
  await append({ type: 'sfs-attempt', body: attempt });
  await append({ type: 'sfs-exchange', body: resend });

  const opened = await openJournalReadOnly({ kind: 'image', path: join(dir, 'chdu.img') });
  const atHead = SqliteJournalIndex.open(join(dir, 'head.sqlite'));
  const atMark = SqliteJournalIndex.open(join(dir, 'mark.sqlite'));
  try {
    // The race the harness hit: a rebuild to the CHDÚ's head against the earlier snapshot.
    await syncJournalIndex(opened.journal, atHead, { rebuild: true });
    expect(compareIndexes(live, atHead).join('\n')).toMatch(/hwm.*30.*32/);
    // At one record they are equal, and a record the CHDÚ lacks is refused.
    await syncJournalIndex((await journalUpTo(opened.journal, mark))!, atMark, { rebuild: true });
    expect(atMark.highWaterMark()).toBe(30);
    expect(compareIndexes(live, atMark)).toEqual([]);
    expect(await journalUpTo(opened.journal, 33)).toBeUndefined();
  } finally {
    live.close();
    atHead.close();
    atMark.close();
    liveWriter.close();
    await opened.close();
    await chdu.close();
  }
});
