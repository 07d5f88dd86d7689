import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Who holds a data dir: written as JSON into `<data-dir>/kasa.lock`. */
export interface LockHolder {
  pid: number;
  /** e.g. `serve`, `chdu reindex`. */
  command: string;
  hostname: string;
  startedAt: string;
}

export const LOCK_FILE = 'kasa.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the data dir ${dataDir} is in use by "kasa ${holder.command}" (pid ${holder.pid} on ${holder.hostname}, since ${holder.startedAt}); stop it first`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * One writer per data dir (DECISIONS 13): `kasa serve` holds this lock while it runs, and the
 * `kasa chdu` commands that write (reindex) refuse while anyone else holds it; reading commands
 * only look. A lock left by a process that no longer exists (same host) is taken over.
 */
export class DataDirLock {
  private released = false;

  private constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {}

  /** Takes the lock or throws {@link DataDirLockedError} naming the live holder. */
  static acquire(dataDir: string, command: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, LOCK_FILE);
    const holder: LockHolder = {
      pid: process.pid,
      command,
      hostname: hostname(),
      startedAt: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o644);
        try {
          writeSync(fd, `${JSON.stringify(holder)}\n`);
        } finally {
          closeSync(fd);
        }
        return new DataDirLock(path, holder);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const current = DataDirLock.holder(dataDir);
      if (current) throw new DataDirLockedError(dataDir, current);
      rmSync(path, { force: true }); // stale: its process is gone
    }
    throw new Error(`cannot take the lock ${path}`);
  }

  /** The live holder of the data dir's lock, or undefined (no lock, or a stale one). */
  static holder(dataDir: string): LockHolder | undefined {
    let text: string;
    try {
      text = readFileSync(join(dataDir, LOCK_FILE), 'utf8');
    } catch {
      return undefined;
    }
    let h: LockHolder;
    try {
      h = JSON.parse(text) as LockHolder;
    } catch {
      // Being written this instant, or garbage: treat as held by an unknown process.
      return { pid: 0, command: 'unknown', hostname: 'unknown', startedAt: 'unknown' };
    }
    if (h.hostname !== hostname()) return h; // cannot check a process on another machine
    return processAlive(h.pid) ? h : undefined;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      const h = JSON.parse(readFileSync(this.path, 'utf8')) as LockHolder;
      if (h.pid === this.holder.pid && h.startedAt === this.holder.startedAt)
        rmSync(this.path, { force: true });
    } catch {
      // already gone
    }
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
