import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHolderChild } from '../../test/support/lock-holder-child.js';
import { DataDirLock, DataDirLockedError, LOCK_FILE } from './data-dir-lock.js';
import { FileLock, FileLockedError } from './file-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const holderJson = (pid: number, host: string) =>
  JSON.stringify({ pid, command: 'serve', hostname: host, startedAt: '2026-01-01T00:00:00.000Z' });

describe('DataDirLock', () => {
  it('is exclusive while held (a second holder in the same process too) and free again after release', () => {
    const lock = DataDirLock.acquire(dir, 'serve');
    expect(DataDirLock.holder(dir)).toMatchObject({ pid: process.pid, command: 'serve' });
    expect(() => DataDirLock.acquire(dir, 'chdu reindex')).toThrow(DataDirLockedError);
    expect(DataDirLock.holder(dir)).toMatchObject({ pid: process.pid, command: 'serve' }); // probing kept it
    lock.release();
    expect(existsSync(join(dir, `${LOCK_FILE}.json`))).toBe(false);
    expect(DataDirLock.holder(dir)).toBeUndefined();
    DataDirLock.acquire(dir, 'chdu reindex').release();
  });

  it('a lock naming this very PID (a restarted container is PID 1 again) does not block the start', () => {
    writeFileSync(join(dir, LOCK_FILE), holderJson(process.pid, hostname())); // the earlier text format
    writeFileSync(join(dir, `${LOCK_FILE}.json`), holderJson(process.pid, hostname()));
    expect(DataDirLock.holder(dir)).toBeUndefined();
    const lock = DataDirLock.acquire(dir, 'serve');
    expect(lock.holder.startedAt).not.toBe('2026-01-01T00:00:00.000Z');
    lock.release();
  });

  it('a lock left by another host name is not held for ever', () => {
    writeFileSync(join(dir, LOCK_FILE), holderJson(4242, 'some-other-host'));
    writeFileSync(join(dir, `${LOCK_FILE}.json`), holderJson(4242, 'some-other-host'));
    expect(DataDirLock.holder(dir)).toBeUndefined();
    DataDirLock.acquire(dir, 'serve').release();
  });

  it('another process holds it until it is SIGKILLed; then it is free at once', async () => {
    const child = await startHolderChild('data-dir', dir);
    try {
      const held = (() => {
        try {
          DataDirLock.acquire(dir, 'chdu reindex');
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(held).toBeInstanceOf(DataDirLockedError);
      expect((held as DataDirLockedError).holder).toMatchObject({ pid: child.child.pid, command: 'serve' });
      expect(DataDirLock.holder(dir)?.pid).toBe(child.child.pid);
    } finally {
      await child.kill();
    }
    expect(DataDirLock.holder(dir)).toBeUndefined();
    const lock = DataDirLock.acquire(dir, 'serve');
    expect(JSON.parse(readFileSync(join(dir, `${LOCK_FILE}.json`), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
  });
});

describe('FileLock', () => {
  it('refuses a second holder in the same process and in another process', async () => {
    const path = join(dir, 'x.lock');
    const child = await startHolderChild('file-lock', path);
    try {
      expect(() => FileLock.acquire(path, 'test')).toThrow(FileLockedError);
    } finally {
      await child.kill();
    }
    const mine = FileLock.acquire(path, 'test');
    expect(() => FileLock.acquire(path, 'test')).toThrow(FileLockedError);
    mine.release();
    expect(mine.held).toBe(false);
    FileLock.acquire(path, 'test').release();
  });
});
