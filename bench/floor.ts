import { closeSync, fdatasyncSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * This machine's own floors, measured in the same run, so the benchmarks report ratios that mean
 * something on any disk: how many durable appends per second the file system allows, and how
 * fast a file is read sequentially.
 */
export interface Floor {
  /** 1 KiB appends, each followed by fdatasync, per second. */
  fsyncPerSecond: number;
  /** Sequential read of a file in 1 MiB chunks, MB/s (page cache warm, as for a fresh image). */
  readMBps: number;
}

export function measureFsyncFloor(dir: string, appends = 1000): number {
  const file = join(dir, 'fsync-floor.dat');
  const fd = openSync(file, 'w');
  const record = Buffer.alloc(1024, 0x61);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < appends; i++) {
    writeSync(fd, record);
    fdatasyncSync(fd);
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(fd);
  rmSync(file);
  return appends / s;
}

export function measureReadFloor(file: string): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.alloc(1 << 20);
  let total = 0;
  const t0 = process.hrtime.bigint();
  for (let n = readSync(fd, buf, 0, buf.length, 0); n > 0; n = readSync(fd, buf, 0, buf.length, total))
    total += n;
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(fd);
  return total / 1e6 / s;
}

/**
 * Plain SQLite inserts with the index's settings (WAL, synchronous=FULL), `rows` rows of about
 * `bytes` bytes of text in transactions of 1000: the index cannot be built faster than this.
 */
export function measureSqliteFloor(dir: string, rows: number, bytes = 600): number {
  const file = join(dir, 'sqlite-floor.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (id, body) VALUES (?, ?)');
  const body = 'x'.repeat(bytes);
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert.run(i, body);
  });
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < rows; i += 1000) batch(i, Math.min(rows, i + 1000));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  db.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return rows / s;
}
