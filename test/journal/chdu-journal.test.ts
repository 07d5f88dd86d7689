import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { openJournalReadOnly } from '../../src/compose/open-journal.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { MAX_RECORD_BYTES } from '../../src/core/journal/record-codec.js';
import { documentRecord, merchantRecord, mixedRecords } from '../support/journal-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function openImage(capacityBlocks = 10_000) {
  return ImageFileChdu.open(join(dir, 'chdu.img'), { create: true, capacityBlocks, serial: 7 });
}

describe('ChduJournal on an image file', () => {
  it('appends typed records, reads them back in order and finds the head after reopening', async () => {
    const chdu = await openImage();
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    expect(journal.head()).toBeUndefined();
    const written = [];
    for (const r of mixedRecords(20)) written.push(await journal.append(r));
    expect(written.map((r) => r.recordNo)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await chdu.close();

    const chdu2 = await openImage();
    const reopened = await ChduJournal.open(chdu2, { sha256: nodeSha256 });
    expect(reopened.head()).toMatchObject({
      recordNo: 20,
      hash: written[19]!.chainHash,
      type: written[19]!.type,
    });
    const read = [];
    for await (const r of reopened.records()) read.push(r);
    expect(read).toEqual(written);
    expect(await reopened.get(7)).toEqual(written[6]);
    const tail = [];
    for await (const r of reopened.records(18)) tail.push(r.recordNo);
    expect(tail).toEqual([18, 19, 20]);
    const report = await reopened.verify();
    expect(report).toMatchObject({
      ok: true,
      records: 20,
      lastRecordNo: 20,
      lastHash: written[19]!.chainHash,
    });
    await chdu2.close();
  });

  it('verify from after the head is an empty range (ok, 0 records); a checkpoint after the head is not', async () => {
    const chdu = await openImage();
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const written = [];
    for (const r of mixedRecords(7)) written.push(await journal.append(r));
    for (const from of [8, 9, 50]) {
      expect(await journal.verify({ fromRecordNo: from })).toMatchObject({ ok: true, records: 0 });
    }
    // The CHDÚ once had record 9 with this hash (the index says so): losing it is damage.
    const lost = await journal.verify({ checkpoint: { recordNo: 9, hash: written[6]!.chainHash! } });
    expect(lost).toMatchObject({ ok: false, problem: 'record 9 (the checkpoint) is not on the CHDÚ' });
    await chdu.close();
  });

  it('spans a large record across many blocks and rejects one over the maximum with 203, writing nothing', async () => {
    const chdu = await openImage();
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const big = await journal.append({ type: 'free-text', body: { text: 'x'.repeat(20_000) } });
    expect(big.recordNo).toBe(1);
    const used = chdu.usedBlocks;
    expect(used).toBeGreaterThan(40);
    const err = await journal
      .append({ type: 'free-text', body: { text: 'y'.repeat(MAX_RECORD_BYTES) } })
      .catch((e: unknown) => e);
    expect(FiscalError.is(err, 'CHDU_RECORD_SIZE_LIMIT')).toBe(true);
    expect(chdu.usedBlocks).toBe(used);
    const back = await journal.get(1);
    expect(back?.body).toEqual({ text: 'x'.repeat(20_000) });
    await chdu.close();
  });

  it('writes a record larger than one write in consecutive writes of at most 256 blocks (ADR 0121)', async () => {
    const chdu = await openImage();
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    await journal.append({ type: 'merchant', body: merchantRecord() });
    const writes: number[] = [];
    const writeMany = chdu.writeMany.bind(chdu);
    chdu.writeMany = (blocks) => {
      writes.push(blocks.length);
      return writeMany(blocks);
    };
    const text = 'ž'.repeat(300_000); // 600 kB of UTF-8: over 1,000 blocks
    const big = await journal.append({ type: 'free-text', body: { text } });
    expect(big.recordNo).toBe(2);
    expect(writes.length).toBeGreaterThan(4);
    expect(Math.max(...writes)).toBe(256);
    const after = await journal.append({ type: 'free-text', body: { text: 'next' } });
    expect(after.recordNo).toBe(3);
    await chdu.close();

    const chdu2 = await openImage();
    const reopened = await ChduJournal.open(chdu2, { sha256: nodeSha256 });
    expect(reopened.head()?.recordNo).toBe(3);
    expect((await reopened.get(2))?.body).toEqual({ text });
    expect(await reopened.verify()).toMatchObject({ ok: true, records: 3, fragments: 0 });
    await chdu2.close();
  });

  it('a large record cut between its writes is a fragment: the next record takes its number (ADR 0114, 0121)', async () => {
    const chdu = await openImage();
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const first = await journal.append({ type: 'merchant', body: merchantRecord() });
    const writeMany = chdu.writeMany.bind(chdu);
    let calls = 0;
    chdu.writeMany = (blocks) => {
      calls += 1;
      // The first part lands; the power goes before the second.
      return calls === 2 ? Promise.reject(new Error('power cut')) : writeMany(blocks);
    };
    const err = await journal
      .append({ type: 'free-text', body: { text: 'x'.repeat(200_000) } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    await chdu.close();

    const chdu2 = await openImage();
    const reopened = await ChduJournal.open(chdu2, { sha256: nodeSha256 });
    expect(reopened.head()).toMatchObject({ recordNo: 1, hash: first.chainHash });
    const next = await reopened.append({ type: 'free-text', body: { text: 'after the cut' } });
    expect(next.recordNo).toBe(2);
    expect((await reopened.get(2))?.body).toEqual({ text: 'after the cut' });
    expect(await reopened.verify()).toMatchObject({ ok: true, records: 2, fragments: 1 });
    await chdu2.close();
  });

  it('a large record whose last part is torn by a power cut: that part is cut at open, the parts before it are a fragment (ADR 0121)', async () => {
    const chdu = await openImage();
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const first = await journal.append({ type: 'merchant', body: merchantRecord() });
    const big = await journal.append({ type: 'free-text', body: { text: 'x'.repeat(200_000) } });
    await chdu.close();
    // The power goes while the second part (blocks 256 onwards of the record) is being written:
    // the file ends in the middle of one of its slots.
    const path = join(dir, 'chdu.img');
    truncateSync(path, slotOffset(big.address + 256 + 10) + 100);

    const chdu2 = await openImage();
    const reopened = await ChduJournal.open(chdu2, { sha256: nodeSha256 });
    expect(reopened.head()).toMatchObject({ recordNo: 1, hash: first.chainHash });
    const next = await reopened.append({ type: 'free-text', body: { text: 'after the cut' } });
    expect(next.recordNo).toBe(2);
    expect(await reopened.verify()).toMatchObject({ ok: true, records: 2, fragments: 1 });
    await chdu2.close();
  });

  it('refuses a record that does not fit the free blocks with 202 before writing any block', async () => {
    const chdu = await openImage(6);
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    await journal.append({ type: 'merchant', body: merchantRecord() });
    const used = chdu.usedBlocks;
    const err = await journal
      .append({ type: 'free-text', body: { text: 'z'.repeat(5000) } })
      .catch((e: unknown) => e);
    expect(FiscalError.is(err, 'CHDU_WRITE_LIMIT')).toBe(true);
    expect(chdu.usedBlocks).toBe(used);
    const next = await journal.append({ type: 'document', body: documentRecord(1) });
    expect(next.recordNo).toBe(2);
    await chdu.close();
  });

  it('refuses (201, nothing written) to write under a number acknowledged earlier that the CHDÚ lacks', async () => {
    const chdu = await openImage();
    let acknowledged = 0;
    const journal = await ChduJournal.open(chdu, {
      sha256: nodeSha256,
      acknowledgedRecordNo: () => acknowledged,
    });
    await journal.append({ type: 'merchant', body: merchantRecord() });
    const used = chdu.usedBlocks;
    acknowledged = 3; // the index saw records 2 and 3, the CHDÚ ends at 1
    const e = await journal.append({ type: 'document', body: documentRecord(1) }).catch((x: unknown) => x);
    expect(FiscalError.is(e) && e.resultCode).toBe(201);
    expect((e as FiscalError).details).toEqual({ missingFrom: 2, missingTo: 3, chduHead: 1 });
    expect(chdu.usedBlocks).toBe(used);
    acknowledged = 1;
    expect((await journal.append({ type: 'document', body: documentRecord(1) })).recordNo).toBe(2);
    await chdu.close();
  });

  it('verify beside a running writer (kasa chdu verify next to kasa serve) takes the head at the end it reads', async () => {
    const chdu = await openImage();
    const writer = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    for (const r of mixedRecords(10)) await writer.append(r);
    const reader = await openJournalReadOnly({ kind: 'image', path: join(dir, 'chdu.img') });
    try {
      expect(reader.journal.head()?.recordNo).toBe(10);
      // The writer (another process in production) appends after the reader read the head.
      const eleventh = await writer.append({ type: 'document', body: documentRecord(11) });
      const report = await reader.journal.verify();
      expect(report).toMatchObject({ ok: true, records: 11, lastRecordNo: 11, lastHash: eleventh.chainHash });
      expect(report.problem).toBeUndefined();
      expect(reader.journal.head()?.recordNo).toBe(11);
    } finally {
      await reader.close();
      await chdu.close();
    }
  });
});
