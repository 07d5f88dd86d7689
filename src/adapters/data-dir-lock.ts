import { join } from 'node:path';
import { describeHolder, FileLock, FileLockedError, type LockHolder } from './file-lock.js';

export type { LockHolder } from './file-lock.js';

export const LOCK_FILE = 'kasa.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`the data dir ${dataDir} is in use by ${describeHolder(holder)}; stop it first`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * One writer per data dir (ADR 0008 §13): `kasa serve` holds this lock while it runs, and the
 * `kasa chdu` commands that write (reindex) refuse while anyone else holds it; reading commands
 * only look. The lock is `<data-dir>/kasa.lock`, held through the operating system (ADR 0106), so
 * it is free the moment its holder dies — there is no stale lock to judge by PID or host name.
 */
export class DataDirLock {
  private constructor(private readonly lock: FileLock) {}

  get path(): string {
    return this.lock.path;
  }

  get holder(): LockHolder {
    return this.lock.holder;
  }

  /** Takes the lock or throws {@link DataDirLockedError} naming the live holder. */
  static acquire(dataDir: string, command: string): DataDirLock {
    try {
      return new DataDirLock(FileLock.acquire(join(dataDir, LOCK_FILE), command));
    } catch (e) {
      if (e instanceof FileLockedError) throw new DataDirLockedError(dataDir, e.holder);
      throw e;
    }
  }

  /** The live holder of the data dir's lock, or undefined when nobody holds it. */
  static holder(dataDir: string): LockHolder | undefined {
    return FileLock.holder(join(dataDir, LOCK_FILE));
  }

  release(): void {
    this.lock.release();
  }
}
