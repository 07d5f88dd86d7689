import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ImageFileChdu } from '../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../src/adapters/crypto/node-sha256.js';
import { dumpTables } from '../src/adapters/index/sqlite-index-schema.js';
import { SqliteJournalIndex } from '../src/adapters/index/sqlite-journal-index.js';
import { ChduJournal } from '../src/core/journal/chdu-journal.js';
import type { JournalRecord } from '../src/core/journal/records.js';
import { syncJournalIndex } from '../src/core/services/journal-sync.js';
import { mixedRecords } from '../test/support/journal-fixtures.js';
import { measureReadFloor, measureSqliteFloor } from './floor.js';
import type { Bench, BenchContext } from './run.js';

const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

/**
 * CHDÚ journal: durable appends against the fsync floor, then a journal of N records (default
 * 100,000; documents, SFS exchanges and print events) built with its live index, rebuilt from the
 * CHDÚ alone (`kasa chdu reindex`), compared table by table, and verified end to end.
 */
export const chduReindexBench: Bench = {
  name: 'chdu-journal',
  async run(ctx: BenchContext) {
    // 1. Durable appends: every block fdatasync'd, as kasa writes.
    const durable = await ImageFileChdu.open(join(ctx.dir, 'durable.img'), {
      create: true,
      capacityBlocks: 100_000,
    });
    const dj = await ChduJournal.open(durable, { sha256: nodeSha256 });
    const appends = 500;
    const t0 = process.hrtime.bigint();
    for (const r of mixedRecords(appends)) await dj.append(r);
    const appendS = seconds(t0);
    const blocksPerRecord = durable.usedBlocks / appends;
    await durable.close();
    ctx.report('durable appends', `${(appends / appendS).toFixed(0)} records/s`, {
      'blocks/record': blocksPerRecord.toFixed(2),
      'block writes/s': (durable.usedBlocks / appendS).toFixed(0),
      'vs fsync floor': `${((durable.usedBlocks / appendS / ctx.floor.fsyncPerSecond) * 100).toFixed(0)}%`,
    });

    // 2. A large journal (writes not synced: this part only builds the fixture) with a live index.
    const n = ctx.records;
    const chdu = await ImageFileChdu.open(join(ctx.dir, 'big.img'), {
      create: true,
      capacityBlocks: 2_000_000,
      syncWrites: false,
    });
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256, readBatch: 1024 });
    const live = SqliteJournalIndex.open(join(ctx.dir, 'live.sqlite'));
    const t1 = process.hrtime.bigint();
    let batch: Array<{ record: JournalRecord; chainHash: string }> = [];
    for (const r of mixedRecords(n)) {
      const w = await journal.append(r);
      batch.push({ record: w, chainHash: w.chainHash! });
      if (batch.length === 50) {
        live.applyMany(batch);
        batch = [];
      }
    }
    live.applyMany(batch);
    const imageBytes = statSync(join(ctx.dir, 'big.img')).size;
    ctx.report('build journal + live index', `${seconds(t1).toFixed(1)} s`, {
      records: n,
      blocks: chdu.usedBlocks,
      'image MB': (imageBytes / 1e6).toFixed(1),
    });

    // 3. Reindex from the CHDÚ alone into a fresh index.
    const readMBps = measureReadFloor(join(ctx.dir, 'big.img'));
    const sqliteRows = measureSqliteFloor(ctx.dir, n);
    const rebuilt = SqliteJournalIndex.open(join(ctx.dir, 'rebuilt.sqlite'));
    const t2 = process.hrtime.bigint();
    const report = await syncJournalIndex(journal, rebuilt, { rebuild: true });
    const reindexS = seconds(t2);
    const equal = JSON.stringify(dumpTables(rebuilt.database)) === JSON.stringify(dumpTables(live.database));
    ctx.report(`reindex ${n} records`, `${reindexS.toFixed(2)} s`, {
      'records/s': (report.applied / reindexS).toFixed(0),
      'vs plain SQLite insert floor': `${((report.applied / reindexS / sqliteRows) * 100).toFixed(0)}% of ${sqliteRows.toFixed(0)} rows/s`,
      'CHDÚ MB/s': (imageBytes / 1e6 / reindexS).toFixed(1),
      'equal to live index': equal ? 'yes' : 'NO',
    });
    if (!equal) ctx.fail('the rebuilt index differs from the live one');

    // 4. Full chain verification (`kasa chdu verify`).
    const t3 = process.hrtime.bigint();
    const v = await journal.verify();
    const verifyS = seconds(t3);
    ctx.report(`verify ${n} records`, `${verifyS.toFixed(2)} s`, {
      ok: v.ok ? 'yes' : `NO: ${v.problem}`,
      'CHDÚ MB/s': (imageBytes / 1e6 / verifyS).toFixed(1),
      'vs sequential read floor': `${((imageBytes / 1e6 / verifyS / readMBps) * 100).toFixed(1)}% of ${readMBps.toFixed(0)} MB/s`,
    });
    if (!v.ok) ctx.fail('verification failed');
    live.close();
    rebuilt.close();
    await chdu.close();
  },
};
