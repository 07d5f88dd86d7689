import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChduLiteChdu } from '../../src/adapters/chdu/chdu-lite-chdu.js';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { TcpTransport } from '../../src/adapters/transport/byte-transport.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import type { NewRecord } from '../../src/core/journal/records.js';
import { IndexedJournal } from '../../src/core/services/indexed-journal.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { documentRecord, merchantRecord } from '../support/journal-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-append-many-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const text = (n: number, chars: number): NewRecord => ({
  type: 'free-text',
  body: { text: `${n}`.padEnd(chars, 'x') },
});

// ADR 1105: a multi-record append that fails half way leaves a journal that goes on — the records
// the CHDÚ took are indexed, numbers and the hash chain continue, and the CHDÚ verifies.
describe('Journal.appendMany failing half way', () => {
  it('image file: the second write of a long appendMany fails — head, index, numbers and chain go on, also after a reopen', async () => {
    const chdu = await ImageFileChdu.open(join(dir, 'chdu.img'), { create: true, capacityBlocks: 5000 });
    const raw = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    const journal = new IndexedJournal(raw, index, {});
    await journal.append({ type: 'merchant', body: merchantRecord() });
    // 40 records of ~10 blocks each: more than 256 blocks, so two or more writeMany runs.
    const records = Array.from({ length: 40 }, (_, i) => text(i, 4500));
    let calls = 0;
    const writeMany = chdu.writeMany.bind(chdu);
    chdu.writeMany = async (data) => {
      calls += 1;
      if (calls === 2) throw new Error('injected: second run fails');
      return writeMany(data);
    };
    const e = await journal.appendMany(records).catch((x: unknown) => x);
    expect(String(e)).toContain('injected');
    const head = raw.head()!;
    expect(head.recordNo).toBeGreaterThan(1);
    expect(index.highWaterMark()).toBe(head.recordNo);
    chdu.writeMany = writeMany;
    const next = await journal.append({ type: 'document', body: documentRecord(1) });
    expect(next.recordNo).toBe(head.recordNo + 1);
    const report = await raw.verify();
    expect(report.ok).toBe(true);
    await chdu.close();
    const reopened = await ChduJournal.open(await ImageFileChdu.open(join(dir, 'chdu.img')), {
      sha256: nodeSha256,
    });
    expect(reopened.head()?.recordNo).toBe(next.recordNo);
    expect((await reopened.verify()).ok).toBe(true);
    await (reopened.chdu as ImageFileChdu).close();
    index.close();
  });

  it('CHDU Lite (records one by one): a block of record 3 of 5 fails — the first two stay, numbers and chain go on', async () => {
    const emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'lite.img'), capacityBlocks: 500 });
    const chdu = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
    try {
      const raw = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
      const journal = new IndexedJournal(raw, index, {});
      await journal.append({ type: 'merchant', body: merchantRecord() });
      const records = [text(1, 100), text(2, 100), text(3, 2000), text(4, 100), text(5, 100)];
      // records 1, 2: one block each; record 3: ~5 blocks — fail its third block.
      emulator.inject({ kind: 'hw', afterWrites: 4, count: 1 });
      const e = await journal.appendMany(records).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect(raw.head()?.recordNo).toBe(3);
      expect(index.highWaterMark()).toBe(3);
      emulator.clear();
      const next = await journal.append({ type: 'document', body: documentRecord(1) });
      expect(next.recordNo).toBe(4);
      const report = await raw.verify();
      expect(report).toMatchObject({ ok: true, records: 4, fragments: 1 });
      const types: string[] = [];
      for await (const r of raw.records()) types.push(`${r.recordNo}:${r.type}`);
      expect(types).toEqual(['1:merchant', '2:free-text', '3:free-text', '4:document']);
      index.close();
    } finally {
      await chdu.close();
      await emulator.close();
    }
  });
});
