import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { type ImageIo, type ImageIoOpener, openImageIo } from '../../src/adapters/chdu/image-io.js';
import { HEADER_SIZE, SLOT_SIZE, slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { fullDisk } from '../support/full-disk.js';
import { merchantRecord } from '../support/journal-fixtures.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-image-'));
  path = join(dir, 'chdu.img');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<number> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!FiscalError.is(e)) throw new Error(`expected a FiscalError, got ${String(e)}`);
  return e.resultCode;
}

/** Wraps the real file operations: records every write and truncate, fails on demand. */
function instrumented(
  log: Array<{ op: string; at: number; length: number }>,
  failures: { writes: number[]; syncs: number[] },
) {
  let writes = 0;
  let syncs = 0;
  const opener: ImageIoOpener = async (p, writable) => {
    // Without O_DSYNC, so every durable write goes through the explicit sync() below.
    const io = await openImageIo(p, writable, false);
    const wrapped: ImageIo = {
      ...io,
      async write(buf, position) {
        log.push({ op: 'write', at: position, length: buf.length });
        if (failures.writes.includes(++writes)) {
          await io.write(buf.subarray(0, 100), position); // a torn write: part of the slot lands
          throw Object.assign(new Error('EIO'), { code: 'EIO' });
        }
        await io.write(buf, position);
      },
      async sync() {
        if (failures.syncs.includes(++syncs)) throw Object.assign(new Error('EIO'), { code: 'EIO' });
        await io.sync();
      },
      async truncate(length) {
        log.push({ op: 'truncate', at: length, length: 0 });
        await io.truncate(length);
      },
    };
    return wrapped;
  };
  return opener;
}

describe('image-file CHDÚ', () => {
  it('a missing image is 200 unless asked to create it; a damaged header is 201', async () => {
    expect(await code(ImageFileChdu.open(path))).toBe(200);
    const chdu = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10 });
    expect(chdu.target).toBe(`image:${path}`);
    await chdu.close();
    expect(statSync(path).size).toBe(HEADER_SIZE);
    const img = readFileSync(path);
    img[20] = (img[20] ?? 0) ^ 0xff;
    writeFileSync(path, img);
    expect(await code(ImageFileChdu.open(path))).toBe(201);
  });

  it('a write error is 201: nothing of the failed block remains, the next write takes its place', async () => {
    const log: Array<{ op: string; at: number; length: number }> = [];
    const io = instrumented(log, { writes: [3], syncs: [5] });
    const chdu = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10, io });
    await chdu.write(Uint8Array.of(1));
    await chdu.write(Uint8Array.of(2));
    expect(await code(chdu.write(Uint8Array.of(3)))).toBe(201); // the write itself fails
    expect(statSync(path).size).toBe(slotOffset(2));
    expect(await chdu.write(Uint8Array.of(3))).toBe(2);
    expect(await code(chdu.write(Uint8Array.of(4)))).toBe(201); // the data landed, fdatasync failed
    expect(statSync(path).size).toBe(slotOffset(3));
    expect((await chdu.status()).storageOk).toBe(true);
    expect(await chdu.write(Uint8Array.of(4))).toBe(3);
    expect((await chdu.read(0, 10)).map((b) => b.data[0])).toEqual([1, 2, 3, 4]);
    await chdu.close();
  });

  it('is write-once at the byte level: no write or truncate ever reaches an acknowledged block', async () => {
    const log: Array<{ op: string; at: number; length: number }> = [];
    const failures = { writes: [4, 9], syncs: [12] };
    let chdu = await ImageFileChdu.open(path, {
      create: true,
      capacityBlocks: 40,
      io: instrumented(log, failures),
    });
    let journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const acknowledgedEnd = () => slotOffset(chdu.usedBlocks);
    for (let i = 0; i < 12; i++) {
      const before = acknowledgedEnd();
      const from = log.length;
      await journal
        .append({ type: 'merchant', body: merchantRecord({ corporateFullName: `n${i}` }) })
        .catch(() => undefined);
      for (const entry of log.slice(from))
        expect(entry.at, JSON.stringify(entry)).toBeGreaterThanOrEqual(before);
      if (i === 6) {
        await chdu.close();
        chdu = await ImageFileChdu.open(path, { io: instrumented(log, { writes: [], syncs: [] }) });
        journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      }
    }
    expect(log.every((e) => e.op !== 'write' || (e.at - HEADER_SIZE) % SLOT_SIZE === 0)).toBe(true);
    expect((await journal.verify()).ok).toBe(true);
    await chdu.close();
  });

  it('keeps a torn tail for inspection until the first write cuts it; a read-only opening never touches it', async () => {
    const writer = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10 });
    await writer.write(Uint8Array.of(1));
    await writer.close();
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.alloc(300, 0xab)]));
    const reader = await ImageFileChdu.open(path, { readOnly: true });
    expect(reader.openReport).toEqual({ tornBytes: 300, blocks: 1 });
    expect(reader.tornBytesAtOpen).toBe(300);
    expect(statSync(path).size).toBe(slotOffset(1) + 300);
    expect(await code(reader.write(Uint8Array.of(9)))).toBe(202);
    const again = await ImageFileChdu.open(path);
    expect(again.openReport.tornBytes).toBe(300);
    expect(statSync(path).size).toBe(slotOffset(1) + 300); // ADR 0108: still there after opening
    expect((await reader.read(0, 5)).map((b) => b.data[0])).toEqual([1]);
    await again.write(Uint8Array.of(2));
    expect(statSync(path).size).toBe(slotOffset(2));
    expect((await reader.read(0, 5)).map((b) => b.data[0])).toEqual([1, 2]);
    expect((await reader.status()).freeBlocks).toBe(8);
    await Promise.all([reader.close(), again.close()]);
  });

  it('a torn tail longer than one slot is cut whole before the first write', async () => {
    const writer = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10 });
    await writer.write(Uint8Array.of(1));
    await writer.close();
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.alloc(SLOT_SIZE * 2 + 7, 0x5a)]));
    const again = await ImageFileChdu.open(path);
    expect(again.tornBytesAtOpen).toBe(SLOT_SIZE * 2 + 7);
    expect(await again.write(Uint8Array.of(2))).toBe(1);
    expect(statSync(path).size).toBe(slotOffset(2));
    await again.close();
  });

  it("refuses a capacity other than the existing image's (701); a new image takes it", async () => {
    const first = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10 });
    await first.close();
    expect(await code(ImageFileChdu.open(path, { create: true, capacityBlocks: 20 }))).toBe(701);
    const same = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10 });
    expect((await same.status()).capacityBlocks).toBe(10);
    await same.close();
    const reader = await ImageFileChdu.open(path, { readOnly: true, capacityBlocks: 20 });
    expect((await reader.status()).capacityBlocks).toBe(10); // a reader creates nothing
    await reader.close();
  });

  it('writeMany puts a record down in one write and one flush; slots say where they stand (ADR 1101)', async () => {
    const log: Array<{ op: string; at: number; length: number }> = [];
    let syncs = 0;
    const base = instrumented(log, { writes: [], syncs: [] });
    const io: ImageIoOpener = async (p, writable) => {
      const inner = await base(p, writable);
      return {
        ...inner,
        async sync() {
          syncs++;
          await inner.sync();
        },
      };
    };
    const chdu = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10, io });
    expect(await chdu.write(Uint8Array.of(0))).toBe(0);
    log.length = 0;
    syncs = 0;
    expect(await chdu.writeMany([Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)])).toBe(1);
    expect(log).toEqual([{ op: 'write', at: slotOffset(1), length: 3 * SLOT_SIZE }]);
    expect(syncs).toBe(1);
    expect((await chdu.read(0, 10)).map((b) => [b.address, b.data[0], b.crcOk])).toEqual([
      [0, 0, true],
      [1, 1, true],
      [2, 2, true],
      [3, 3, true],
    ]);
    const img = readFileSync(path);
    const runOf = (a: number) => [img[slotOffset(a) + 513], img[slotOffset(a) + 5]];
    expect([0, 1, 2, 3].map(runOf)).toEqual([
      [0, 0],
      [0, 2],
      [1, 1],
      [2, 0],
    ]);
    // Refused whole: 7 blocks do not fit in the 6 left; nothing is written.
    log.length = 0;
    expect(await code(chdu.writeMany(Array.from({ length: 7 }, () => Uint8Array.of(9))))).toBe(202);
    expect(await code(chdu.writeMany([new Uint8Array(506)]))).toBe(701);
    expect(log).toEqual([]);
    expect(chdu.usedBlocks).toBe(4);
    await chdu.close();
    const again = await ImageFileChdu.open(path);
    expect(again.openReport).toEqual({ tornBytes: 0, blocks: 4 });
    await again.close();
  });

  it('a failed writeMany leaves nothing of the write; the next write takes its place', async () => {
    const log: Array<{ op: string; at: number; length: number }> = [];
    const io = instrumented(log, { writes: [2], syncs: [] });
    const chdu = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10, io });
    await chdu.write(Uint8Array.of(1));
    expect(await code(chdu.writeMany([Uint8Array.of(2), Uint8Array.of(3)]))).toBe(201);
    expect(statSync(path).size).toBe(slotOffset(1));
    expect(await chdu.writeMany([Uint8Array.of(4), Uint8Array.of(5)])).toBe(1);
    await chdu.close();
    const again = await ImageFileChdu.open(path);
    expect((await again.read(0, 10)).map((b) => b.data[0])).toEqual([1, 4, 5]);
    await again.close();
  });
});

describe('image-file CHDÚ on a full disk (ADR 0116)', () => {
  it('ENOSPC is 202 naming the disk, nothing kept; diskSpace() says so until there is room again', async () => {
    const disk = fullDisk();
    const chdu = await ImageFileChdu.open(path, { create: true, capacityBlocks: 10, io: disk.opener });
    expect(await chdu.write(Uint8Array.of(1))).toBe(0);
    expect(await chdu.diskSpace()).toBeUndefined();
    disk.full = true;
    const e = await chdu.write(Uint8Array.of(2)).catch((x: unknown) => x);
    expect(FiscalError.is(e) && e.resultCode).toBe(202);
    expect((e as Error).message).toContain('disk holding the CHDÚ image');
    expect(statSync(path).size).toBe(slotOffset(1)); // the short write was cut away
    expect((await chdu.diskSpace())?.resultCode).toBe(202);
    expect((await chdu.status()).storageOk).toBe(true); // a full disk is not damaged storage
    disk.full = false;
    expect(await chdu.diskSpace()).toBeUndefined();
    expect(await chdu.write(Uint8Array.of(2))).toBe(1);
    await chdu.close();
  });
});
