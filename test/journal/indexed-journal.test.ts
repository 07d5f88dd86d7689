import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { MAX_RECORD_BYTES } from '../../src/core/journal/record-codec.js';
import { IndexedJournal } from '../../src/core/services/indexed-journal.js';
import { syncJournalIndex } from '../../src/core/services/journal-sync.js';
import { documentRecord, exchangeRecord, merchantRecord } from '../support/journal-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-indexed-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('IndexedJournal', () => {
  it('applies each record after the CHDÚ write; an index failure is reported and replayed later', async () => {
    const chdu = await ImageFileChdu.open(join(dir, 'chdu.img'), { create: true, capacityBlocks: 1000 });
    const raw = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    const storageErrors: unknown[] = [];
    const indexErrors: unknown[] = [];
    const journal = new IndexedJournal(raw, index, {
      onStorageError: (e) => storageErrors.push(e),
      onIndexError: (e) => indexErrors.push(e),
    });
    await journal.append({ type: 'merchant', body: merchantRecord() });
    expect(index.highWaterMark()).toBe(1);

    const apply = index.apply.bind(index);
    index.apply = () => {
      throw new Error('disk full');
    };
    await journal.append({ type: 'document', body: documentRecord(1) });
    index.apply = apply;
    expect(indexErrors).toHaveLength(1);
    expect(index.highWaterMark()).toBe(1);
    expect(await syncJournalIndex(raw, index)).toMatchObject({ action: 'replayed', applied: 1 });

    const big = { type: 'free-text' as const, body: { text: 'x'.repeat(MAX_RECORD_BYTES) } };
    const e = await journal.append(big).catch((x: unknown) => x);
    expect(FiscalError.is(e, 'CHDU_RECORD_SIZE_LIMIT')).toBe(true);
    expect(storageErrors).toEqual([e]);
    index.close();
    await chdu.close();
  });
  it('indexes the records of one appendMany in one transaction; if that fails, one by one as append does', async () => {
    const chdu = await ImageFileChdu.open(join(dir, 'chdu.img'), { create: true, capacityBlocks: 1000 });
    const raw = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    const indexErrors: unknown[] = [];
    const journal = new IndexedJournal(raw, index, { onIndexError: (e) => indexErrors.push(e) });
    await journal.append({ type: 'merchant', body: merchantRecord() });
    await journal.appendMany([
      { type: 'document', body: documentRecord(1) },
      { type: 'document', body: documentRecord(2) },
    ]);
    const transactions: number[] = [];
    const applyMany = index.applyMany.bind(index);
    index.applyMany = (entries) => {
      transactions.push(entries.length);
      applyMany(entries);
    };
    const apply = index.apply.bind(index);
    let singles = 0;
    index.apply = (record, hash) => {
      singles += 1;
      apply(record, hash);
    };
    await journal.appendMany([
      { type: 'sfs-exchange', body: exchangeRecord(1, 'accepted', 2) },
      { type: 'sfs-exchange', body: exchangeRecord(2, 'accepted', 2) },
      { type: 'document', body: documentRecord(3) },
    ]);
    expect(transactions).toEqual([3]);
    expect(singles).toBe(0);
    expect(index.highWaterMark()).toBe(6);
    expect(index.findDocument({ by: 'documentNo', documentNo: 2 })?.sendState).toBe('offline-sent');
    // A transaction that fails is rolled back whole: the records go one by one, each failure reported.
    // (apply() itself is a transaction of one, through applyMany: only the larger one fails.)
    index.applyMany = (entries) => {
      if (entries.length > 1) throw new Error('disk full');
      applyMany(entries);
    };
    await journal.appendMany([
      { type: 'document', body: documentRecord(4) },
      { type: 'document', body: documentRecord(5) },
    ]);
    expect(singles).toBe(2);
    expect(index.highWaterMark()).toBe(8);
    expect(indexErrors).toEqual([]);
    index.close();
    await chdu.close();
  });
});
