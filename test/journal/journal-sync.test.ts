import { copyFileSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { dumpTables } from '../../src/adapters/index/sqlite-index-schema.js';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { syncJournalIndex } from '../../src/core/services/journal-sync.js';
import { mixedRecords } from '../support/journal-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-sync-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function openJournal(name = 'chdu.img') {
  const chdu = await ImageFileChdu.open(join(dir, name), { create: true, capacityBlocks: 100_000 });
  return { chdu, journal: await ChduJournal.open(chdu, { sha256: nodeSha256 }) };
}

describe('syncJournalIndex', () => {
  it('replays what a crash between the CHDÚ write and the index write left out', async () => {
    const { chdu, journal } = await openJournal();
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    const records = [...mixedRecords(40)];
    for (const r of records.slice(0, 30)) {
      const written = await journal.append(r);
      index.apply(written, written.chainHash!);
    }
    for (const r of records.slice(30)) await journal.append(r); // the index never heard of these
    index.close();
    await chdu.close();

    const again = await openJournal();
    const reopened = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    expect(reopened.highWaterMark()).toBe(30);
    const report = await syncJournalIndex(again.journal, reopened);
    expect(report).toEqual({ action: 'replayed', applied: 10, highWaterMark: 40 });
    expect(reopened.highWaterHash()).toBe(again.journal.head()?.hash);
    expect(await syncJournalIndex(again.journal, reopened)).toEqual({
      action: 'none',
      applied: 0,
      highWaterMark: 40,
    });
    reopened.close();
    await again.chdu.close();
  });

  it('rebuilds an index whose hash does not match the CHDÚ (another register, or damaged)', async () => {
    const a = await openJournal('a.img');
    const b = await openJournal('b.img');
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    for (const r of mixedRecords(12)) await a.journal.append(r);
    await syncJournalIndex(a.journal, index);
    for (const r of mixedRecords(20)) await b.journal.append({ ...r }); // same shapes, other times and chain
    const report = await syncJournalIndex(b.journal, index);
    expect(report.action).toBe('rebuilt');
    expect(report.highWaterMark).toBe(20);
    expect(index.highWaterHash()).toBe(b.journal.head()?.hash);

    const short = await openJournal('c.img');
    for (const r of mixedRecords(3)) await short.journal.append(r);
    expect((await syncJournalIndex(short.journal, index)).action).toBe('rebuilt');
    expect(index.highWaterMark()).toBe(3);
    index.close();
    await Promise.all([a.chdu.close(), b.chdu.close(), short.chdu.close()]);
  });

  it('a full rebuild (kasa chdu reindex) gives an index equal to the live one', async () => {
    const { chdu, journal } = await openJournal();
    const live = SqliteJournalIndex.open(join(dir, 'live.sqlite'));
    for (const r of mixedRecords(300)) {
      const w = await journal.append(r);
      live.apply(w, w.chainHash!);
    }
    const rebuilt = SqliteJournalIndex.open(join(dir, 'rebuilt.sqlite'));
    const progress: number[] = [];
    const report = await syncJournalIndex(journal, rebuilt, {
      rebuild: true,
      batchSize: 64,
      onProgress: (done) => progress.push(done),
    });
    expect(report).toMatchObject({
      action: 'rebuilt',
      reason: 'requested',
      applied: 300,
      highWaterMark: 300,
    });
    expect(progress.at(-1)).toBe(300);
    expect(dumpTables(rebuilt.database)).toEqual(dumpTables(live.database));
    live.close();
    rebuilt.close();
    await chdu.close();
  });

  it('an index ahead of its own CHDÚ (acknowledged records missing) is refused with 201, not rebuilt', async () => {
    const { chdu, journal } = await openJournal();
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    for (const r of mixedRecords(5)) await journal.append(r);
    await syncJournalIndex(journal, index);
    const fifth = (await journal.get(5))!.address;
    await chdu.close();
    // The CHDÚ loses its last record (e.g. a damaged last block dropped as torn): the same image
    // cut after record 4 stands in for it.
    copyFileSync(join(dir, 'chdu.img'), join(dir, 'short.img'));
    truncateSync(join(dir, 'short.img'), slotOffset(fifth));
    const cut = await openJournal('short.img');
    expect(cut.journal.head()?.recordNo).toBe(4);
    const e = await syncJournalIndex(cut.journal, index).catch((x: unknown) => x);
    expect(e).toMatchObject({ resultCode: 201, details: { missingFrom: 5, missingTo: 5, chduHead: 4 } });
    expect(index.highWaterMark()).toBe(5);
    // The operator's decision (kasa chdu reindex) rebuilds.
    expect(await syncJournalIndex(cut.journal, index, { rebuild: true })).toMatchObject({
      action: 'rebuilt',
      highWaterMark: 4,
    });
    index.close();
    await cut.chdu.close();
  });
});
