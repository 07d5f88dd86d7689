import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { mixedRecords } from '../../../test/support/journal-fixtures.js';
import { ChduJournal } from '../../core/journal/chdu-journal.js';
import { ImageFileChdu } from '../chdu/image-file-chdu.js';
import { HEADER_SIZE, SLOT_SIZE, slotOffset } from '../chdu/image-layout.js';
import { nodeSha256 } from '../crypto/node-sha256.js';
import { FileBackupLog } from './file-backup-log.js';
import { RestoreRefusedError, restoreBackup } from './restore-backup.js';
import { checkBackupTarget, takeBackup } from './take-backup.js';
import { extractTarGz } from './tar-gz-reader.js';
import { TarGzWriter, tarHeader } from './tar-gz-writer.js';

let dir: string;
let dataDir: string;
let image: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-backup-'));
  dataDir = join(dir, 'data');
  image = join(dataDir, 'chdu.img');
});

/** A journal of `n` records; returns the head and the address after it. */
async function journalOf(n: number, bigLast = false) {
  const chdu = await ImageFileChdu.open(image, { create: true, capacityBlocks: 10_000 });
  const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  if (n > 0) for (const r of mixedRecords(n)) await journal.append(r);
  if (bigLast) await journal.append({ type: 'free-text', body: { text: 'x'.repeat(3000) } });
  const head = journal.head()!;
  const used = chdu.usedBlocks;
  await chdu.close();
  return { head, used };
}

const backup = (target = join(dir, 'b.tar.gz')) =>
  takeBackup({ dataDir, imagePath: image, target, kasaVersion: 't', log: new FileBackupLog(dataDir) });

describe('takeBackup', () => {
  it('copies up to the last complete record: a record half-written when the copy is taken is left out whole', async () => {
    const { head: before } = await journalOf(5);
    const { head, used } = await journalOf(0, true); // record 6 spans several blocks
    expect(head.recordNo).toBe(6);
    expect(used - head.address).toBeGreaterThan(2);
    // The writer is in the middle of record 6: only its first two blocks are on the disk, and
    // the third is being written (half a slot).
    truncateSync(image, slotOffset(head.address + 2) + 100);
    const summary = await backup();
    expect(summary.point.recordNo).toBe(5);
    expect(summary.point.chainHash).toBe(before.hash);
    expect(summary.blocks).toBe(head.address);
    expect(new FileBackupLog(dataDir).last()).toMatchObject({ recordNo: 5, file: summary.file });

    const restored = await restoreBackup({
      archive: summary.file,
      dataDir: join(dir, 'r'),
      imagePath: join(dir, 'r', 'chdu.img'),
    });
    expect(restored.records).toBe(5);
    expect(statSync(join(dir, 'r', 'chdu.img')).size).toBe(HEADER_SIZE + head.address * SLOT_SIZE);
  });

  it('keeps the data dir files as they are and leaves out the derived and private ones', async () => {
    await journalOf(3);
    mkdirSync(join(dataDir, 'secrets'), { mode: 0o700 });
    writeFileSync(join(dataDir, 'secrets', 'merchant-x.p12.sealed'), 'sealed bytes', { mode: 0o600 });
    writeFileSync(join(dataDir, 'index.sqlite'), 'derived');
    writeFileSync(join(dataDir, 'kasa.lock'), '');
    mkdirSync(join(dataDir, 'virtual-printer'));
    writeFileSync(join(dataDir, 'virtual-printer', '1-receipt.txt'), 'paper');
    writeFileSync(join(dataDir, 'secrets', 'x.tmp-123'), 'half written');
    const summary = await backup();
    expect(summary.files).toEqual(['secrets/merchant-x.p12.sealed']);
    const listing = spawnSync('tar', ['-tzf', summary.file], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(listing).toEqual(['chdu.img', 'files/secrets/merchant-x.p12.sealed', 'kasa-backup.json']);

    const target = join(dir, 'r');
    await restoreBackup({ archive: summary.file, dataDir: target, imagePath: join(target, 'chdu.img') });
    const restored = join(target, 'secrets', 'merchant-x.p12.sealed');
    expect(readFileSync(restored, 'utf8')).toBe('sealed bytes');
    expect(statSync(restored).mode & 0o777).toBe(0o600);
  });

  it('never carries rollback marks: a mark dir inside the data dir is left out, and restore never writes into it', async () => {
    // A service user whose home is the data dir keeps its marks there by default (ADR 0118).
    await journalOf(3);
    const inside = ['.local', 'state', 'kasa', 'marks'];
    const marks = join(dataDir, ...inside);
    mkdirSync(marks, { recursive: true });
    writeFileSync(join(marks, 'chdu-1-2.json'), 'the mark now');
    writeFileSync(join(dataDir, 'settings.json'), '{}');
    const summary = await takeBackup({
      dataDir,
      imagePath: image,
      target: join(dir, 'b.tar.gz'),
      kasaVersion: 't',
      markDir: marks,
    });
    expect(summary.files).toEqual(['settings.json']);
    // A backup that carried one (taken without knowing the mark dir) …
    const carried = await backup(join(dir, 'carried.tar.gz'));
    expect(carried.files).toContain('.local/state/kasa/marks/chdu-1-2.json');
    // … is restored without it: the target's own (newer) mark stays as it is.
    const target = join(dir, 'r');
    const targetMarks = join(target, ...inside);
    mkdirSync(targetMarks, { recursive: true });
    writeFileSync(join(targetMarks, 'chdu-1-2.json'), 'a newer mark');
    await restoreBackup({
      archive: carried.file,
      dataDir: target,
      imagePath: join(target, 'chdu.img'),
      markDir: targetMarks,
    });
    expect(readFileSync(join(targetMarks, 'chdu-1-2.json'), 'utf8')).toBe('a newer mark');
    expect(readFileSync(join(target, 'settings.json'), 'utf8')).toBe('{}');
  });

  it('copies a live SQLite database (WAL, not checkpointed) through SQLite: every committed row', async () => {
    await journalOf(2);
    const db = new Database(join(dataDir, 'qr-payments.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE intents (id TEXT PRIMARY KEY, state TEXT)');
    for (let i = 0; i < 50; i++) db.prepare('INSERT INTO intents VALUES (?, ?)').run(`qr-${i}`, 'PAID');
    try {
      expect(statSync(join(dataDir, 'qr-payments.sqlite-wal')).size).toBeGreaterThan(0);
      const summary = await backup();
      expect(summary.files).toEqual(['qr-payments.sqlite']);
      const target = join(dir, 'r');
      await restoreBackup({ archive: summary.file, dataDir: target, imagePath: join(target, 'chdu.img') });
      const restored = new Database(join(target, 'qr-payments.sqlite'), { readonly: true });
      expect(restored.prepare('SELECT count(*) AS n FROM intents').get()).toEqual({ n: 50 });
      restored.close();
    } finally {
      db.close();
    }
  });

  it('a disk that runs full while the archive is written: the error names the backup, nothing is kept', async () => {
    await journalOf(40);
    // write(2) on a full disk: ENOSPC, and Node's message names no file.
    const fullDisk = () =>
      new Writable({
        write(_chunk, _e, cb) {
          cb(
            Object.assign(new Error('ENOSPC: no space left on device, write'), {
              code: 'ENOSPC',
              syscall: 'write',
              errno: -28,
            }),
          );
        },
      });
    const target = join(dir, 'b.tar.gz');
    const e = await takeBackup({ dataDir, imagePath: image, target, kasaVersion: 't', sink: fullDisk }).catch(
      (x: unknown) => x,
    );
    expect((e as Error).message).toBe(
      `cannot write the backup ${target} (ENOSPC: no space left on device, write): the disk holding ${dir} is full; free space there or give --to another disk; nothing was kept`,
    );
    expect(readdirSync(dir)).toEqual(['data']);
  });

  it('refuses a target inside the data dir, an existing file without --force, and a relative path', () => {
    expect(checkBackupTarget(join(dataDir, 'b.tgz'), dataDir, false)).toMatch(/inside the data dir/);
    writeFileSync(join(dir, 'old.tgz'), '');
    expect(checkBackupTarget(join(dir, 'old.tgz'), dataDir, false)).toMatch(/never overwrites/);
    expect(checkBackupTarget(join(dir, 'old.tgz'), dataDir, true)).toBeUndefined();
    expect(checkBackupTarget('b.tgz', dataDir, false)).toMatch(/absolute/);
  });
});

describe('restoreBackup', () => {
  it('refuses a missing file or a folder as the archive before it creates the data dir', async () => {
    for (const archive of [join(dir, 'gone.tar.gz'), dir]) {
      const target = join(dir, 'never');
      const e = await restoreBackup({ archive, dataDir: target, imagePath: join(target, 'chdu.img') }).catch(
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(RestoreRefusedError);
      expect((e as Error).message).toContain(archive);
      expect(existsSync(target)).toBe(false);
    }
  });

  it('refuses a data dir holding another register, and leaves it untouched', async () => {
    await journalOf(3);
    const summary = await backup();
    const otherDir = join(dir, 'other');
    const other = await ImageFileChdu.open(join(otherDir, 'chdu.img'), {
      create: true,
      capacityBlocks: 1000,
    });
    const j = await ChduJournal.open(other, { sha256: nodeSha256 });
    await j.append({ type: 'free-text', body: { text: 'another register' } });
    await other.close();
    const before = readFileSync(join(otherDir, 'chdu.img'));
    const e = await restoreBackup({
      archive: summary.file,
      dataDir: otherDir,
      imagePath: join(otherDir, 'chdu.img'),
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RestoreRefusedError);
    expect((e as Error).message).toMatch(/another register/);
    expect(readFileSync(join(otherDir, 'chdu.img')).equals(before)).toBe(true);
  });

  it('replaces an older state of the same register and keeps the older image beside it', async () => {
    await journalOf(2);
    const oldCopy = readFileSync(image);
    await journalOf(2); // the register goes on to record 4
    const summary = await backup();
    const target = join(dir, 'r');
    mkdirSync(target);
    writeFileSync(join(target, 'chdu.img'), oldCopy);
    const r = await restoreBackup({
      archive: summary.file,
      dataDir: target,
      imagePath: join(target, 'chdu.img'),
    });
    expect(r.records).toBe(4);
    expect(readFileSync(r.replaced!).equals(oldCopy)).toBe(true);
  });

  it('refuses an archive whose image does not match its manifest', async () => {
    await journalOf(2);
    const summary = await backup();
    const out = join(dir, 'x');
    mkdirSync(out);
    await extractTarGz(summary.file, out, { maxEntries: 10, maxBytes: 1e9 });
    const forged = join(dir, 'forged.tar.gz');
    const w = new TarGzWriter(forged);
    const img = readFileSync(join(out, 'chdu.img'));
    img[img.length - 10]! ^= 1;
    await w.addBuffer('chdu.img', img);
    await w.addBuffer('kasa-backup.json', readFileSync(join(out, 'kasa-backup.json')));
    await w.finish();
    await expect(
      restoreBackup({ archive: forged, dataDir: '', imagePath: '', checkOnly: true }),
    ).rejects.toThrow(/does not match its SHA-256/);
  });
});

describe('the tar.gz format', () => {
  it('round-trips long names and empty files, readable by tar(1)', async () => {
    const file = join(dir, 't.tar.gz');
    mkdirSync(dir, { recursive: true });
    const w = new TarGzWriter(file);
    const long = `files/${'d'.repeat(60)}/${'e'.repeat(60)}/${'f'.repeat(90)}.sealed`;
    await w.addBuffer(long, Buffer.from('abc'));
    await w.addBuffer('empty', Buffer.alloc(0));
    await w.finish();
    expect(spawnSync('tar', ['-tzf', file], { encoding: 'utf8' }).stdout.trim().split('\n')).toEqual([
      long,
      'empty',
    ]);
    const out = join(dir, 'out');
    mkdirSync(out);
    const entries = await extractTarGz(file, out, { maxEntries: 10, maxBytes: 100 });
    expect(entries.map((e) => [e.name, e.bytes])).toEqual([
      [long, 3],
      ['empty', 0],
    ]);
    expect(readFileSync(join(out, long), 'utf8')).toBe('abc');
  });

  it('writes many chunks that each wait for the gzip stream without piling up listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      mkdirSync(dir, { recursive: true });
      const { randomBytes } = await import('node:crypto');
      // Incompressible 32 KiB chunks: each one fills gzip's buffer and waits for 'drain'.
      const chunks = Array.from({ length: 40 }, () => randomBytes(32 * 1024));
      const w = new TarGzWriter(join(dir, 'many.tar.gz'));
      await w.addFile('big', 40 * 32 * 1024, chunks);
      await w.finish();
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.filter((x) => x.name === 'MaxListenersExceededWarning')).toEqual([]);
      const out = join(dir, 'many');
      mkdirSync(out);
      const [entry] = await extractTarGz(join(dir, 'many.tar.gz'), out, { maxEntries: 1, maxBytes: 2e6 });
      expect(readFileSync(entry!.path).equals(Buffer.concat(chunks))).toBe(true);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a missing file or a folder is a rejection naming it, never an unhandled error event', async () => {
    const out = join(dir, 'o');
    mkdirSync(out, { recursive: true });
    const limits = { maxEntries: 9, maxBytes: 99 };
    await expect(extractTarGz(join(dir, 'gone.tar.gz'), out, limits)).rejects.toThrow(
      /ENOENT.*gone\.tar\.gz/,
    );
    await expect(extractTarGz(out, out, limits)).rejects.toThrow(/EISDIR/);
  });

  it('rejects names that leave the folder, damaged headers and archives over the limits', async () => {
    const { gzipSync } = await import('node:zlib');
    const evil = tarHeader('../evil', 1, 0o600, 0);
    const archive = (blocks: Buffer[]) => {
      const p = join(dir, `a-${Math.random()}.tar.gz`);
      writeFileSync(p, gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)])));
      return p;
    };
    const out = join(dir, 'o');
    mkdirSync(out);
    const data = Buffer.alloc(512, 0x61);
    await expect(extractTarGz(archive([evil, data]), out, { maxEntries: 9, maxBytes: 99 })).rejects.toThrow(
      /not a plain relative path/,
    );
    const damaged = tarHeader('ok', 1, 0o600, 0);
    damaged[0] = 0x70;
    await expect(
      extractTarGz(archive([damaged, data]), out, { maxEntries: 9, maxBytes: 99 }),
    ).rejects.toThrow(/checksum/);
    const big = tarHeader('big', 600, 0o600, 0);
    await expect(
      extractTarGz(archive([big, data, data]), out, { maxEntries: 9, maxBytes: 500 }),
    ).rejects.toThrow(/more than 500 bytes/);
    const truncated = join(dir, 'trunc.tar.gz');
    writeFileSync(truncated, gzipSync(Buffer.concat([tarHeader('t', 1000, 0o600, 0), data])));
    await expect(extractTarGz(truncated, out, { maxEntries: 9, maxBytes: 5000 })).rejects.toThrow(
      /truncated/,
    );
  });
});
