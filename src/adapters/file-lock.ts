import { mkdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** Who holds a lock: written as JSON into `<lock>.json` for messages only (ADR 0106). */
export interface LockHolder {
  pid: number;
  /** e.g. `serve`, `chdu reindex`, `chdu-sim`. */
  command: string;
  hostname: string;
  startedAt: string;
}

/** A lock held by someone whose name could not be read (its `.json` is missing or being written). */
export const UNKNOWN_HOLDER: LockHolder = Object.freeze({
  pid: 0,
  command: 'unknown',
  hostname: 'unknown',
  startedAt: 'unknown',
});

export class FileLockedError extends Error {
  constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    super(`${path} is held by ${describeHolder(holder)}`);
    this.name = 'FileLockedError';
  }
}

export function describeHolder(h: LockHolder): string {
  if (h.pid === 0) return 'another process';
  return `"kasa ${h.command}" (pid ${h.pid} on ${h.hostname}, since ${h.startedAt})`;
}

export interface AcquireOptions {
  /**
   * How long to wait for a holder that is just letting go, or for a `holder()` probe that touches
   * the lock at the same instant (default 100 ms). The wait blocks the thread (SQLite's busy
   * handler), so keep it short.
   */
  waitMs?: number;
}

const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/**
 * An exclusive lock on `path` that the operating system releases when the holding process ends,
 * however it ends (SIGKILL, a container restart that reuses PID 1, power loss): ADR 0106.
 *
 * Node has no flock(). SQLite's unix VFS takes POSIX fcntl locks, which the kernel drops with the
 * process, and it also keeps track of them per inode inside the process, so a second holder in the
 * same process is refused too (plain fcntl would not refuse it). The lock file is an empty SQLite
 * database held in `locking_mode=EXCLUSIVE` inside an open `BEGIN EXCLUSIVE` (journal in memory,
 * so nothing is ever written to it). It is never deleted: deleting a lock file lets two processes
 * lock two different inodes under one name.
 *
 * Nothing else in a holding process may open and close `path` with node:fs: closing any
 * descriptor of a file drops the process's fcntl locks on it (POSIX). Only SQLite touches it.
 */
export class FileLock {
  private db: Database.Database | undefined;

  private constructor(
    readonly path: string,
    db: Database.Database,
    readonly holder: LockHolder,
  ) {
    this.db = db;
  }

  /** Takes the lock or throws {@link FileLockedError} naming the holder. */
  static acquire(path: string, command: string, options: AcquireOptions = {}): FileLock {
    mkdirSync(dirname(path), { recursive: true });
    for (let attempt = 0; ; attempt++) {
      let db: Database.Database | undefined;
      try {
        db = new Database(path, { timeout: options.waitMs ?? 100 });
        db.pragma('locking_mode = EXCLUSIVE');
        db.pragma('journal_mode = MEMORY');
        db.exec('BEGIN EXCLUSIVE');
      } catch (e) {
        db?.close();
        const code = (e as { code?: string }).code ?? '';
        if (BUSY.has(code)) throw new FileLockedError(path, readHolder(path));
        if (code === 'SQLITE_NOTADB' && attempt === 0) {
          // A plain-text lock file of an earlier kasa (pid + host, no OS lock): nobody can hold it
          // through the OS, so empty it (same inode) and take it.
          truncateSync(path, 0);
          continue;
        }
        throw e;
      }
      const holder: LockHolder = {
        pid: process.pid,
        command,
        hostname: hostname(),
        startedAt: new Date().toISOString(),
      };
      writeHolder(path, holder);
      return new FileLock(path, db, holder);
    }
  }

  /**
   * The holder of the lock at `path`, or undefined when nobody holds it (a `.json` left behind by
   * a killed holder does not count: only the OS lock decides). Probing takes SQLite's shared lock
   * for an instant; {@link acquire} waits that long.
   */
  static holder(path: string): LockHolder | undefined {
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: 0 });
      db.prepare('SELECT 1 FROM sqlite_master').get();
      return undefined;
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      return BUSY.has(code) ? readHolder(path) : undefined;
    } finally {
      db?.close();
    }
  }

  get held(): boolean {
    return this.db !== undefined;
  }

  release(): void {
    const db = this.db;
    if (!db) return;
    this.db = undefined;
    rmSync(`${this.path}.json`, { force: true });
    db.close(); // rolls back the empty transaction; the OS lock goes with the descriptor
  }
}

function writeHolder(path: string, holder: LockHolder): void {
  const tmp = `${path}.json.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(holder)}\n`);
  renameSync(tmp, `${path}.json`);
}

function readHolder(path: string): LockHolder {
  try {
    const h = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && typeof h.command === 'string') {
      return {
        pid: h.pid,
        command: h.command,
        hostname: String(h.hostname ?? 'unknown'),
        startedAt: String(h.startedAt ?? 'unknown'),
      };
    }
  } catch {
    // missing, or being replaced this instant
  }
  return UNKNOWN_HOLDER;
}
