import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLock, DataDirLockedError, LOCK_FILE } from './data-dir-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DataDirLock', () => {
  it('is exclusive while held and free again after release', () => {
    const lock = DataDirLock.acquire(dir, 'serve');
    expect(DataDirLock.holder(dir)).toMatchObject({ pid: process.pid, command: 'serve' });
    expect(() => DataDirLock.acquire(dir, 'chdu reindex')).toThrow(DataDirLockedError);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(DataDirLock.holder(dir)).toBeUndefined();
    DataDirLock.acquire(dir, 'chdu reindex').release();
  });

  it('takes over a lock whose process is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    writeFileSync(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: gone, command: 'serve', hostname: hostname(), startedAt: 'x' }),
    );
    expect(DataDirLock.holder(dir)).toBeUndefined();
    const lock = DataDirLock.acquire(dir, 'chdu reindex');
    expect(lock.holder.pid).toBe(process.pid);
    lock.release();
  });
});
