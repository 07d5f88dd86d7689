import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_PEM_FILE_BYTES,
  openCharacterDevice,
  PathRefused,
  readRegularFileSync,
} from './checked-paths.js';

const writers: ChildProcess[] = [];
afterEach(() => {
  for (const w of writers.splice(0)) if (w.exitCode === null) w.kill('SIGKILL');
});

function fresh(): string {
  return mkdtempSync(join(tmpdir(), 'kasa-paths-'));
}

/**
 * A FIFO with a writer that comes after 3 s: a read that blocks on it then ends instead of
 * holding the test run for ever, and the test fails on time.
 */
function fifoWithLateWriter(dir: string): string {
  const path = join(dir, 'pipe');
  execFileSync('mkfifo', [path]);
  writers.push(spawn('sh', ['-c', 'sleep 3; echo x > "$0"', path], { stdio: 'ignore' }));
  return path;
}

const refusal = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('readRegularFileSync (ADR 0426)', () => {
  it('reads a regular file, also through a symlink, up to the bound exactly', () => {
    const dir = fresh();
    const file = join(dir, 'ca.pem');
    writeFileSync(file, Buffer.alloc(1000, 0x41));
    symlinkSync(file, join(dir, 'link.pem'));
    expect(readRegularFileSync(file, 1000, 'a PEM file')).toEqual(Buffer.alloc(1000, 0x41));
    expect(readRegularFileSync(join(dir, 'link.pem'), 1000, 'a PEM file').length).toBe(1000);
    writeFileSync(join(dir, 'empty.pem'), '');
    expect(readRegularFileSync(join(dir, 'empty.pem'), 1000, 'a PEM file').length).toBe(0);
  });

  it('refuses a file one byte over the bound, naming the bound', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'big.pem'), Buffer.alloc(MAX_PEM_FILE_BYTES + 1, 0x41));
    const e = refusal(() => readRegularFileSync(join(dir, 'big.pem'), MAX_PEM_FILE_BYTES, 'a PEM file'));
    expect(e).toBeInstanceOf(PathRefused);
    expect((e as Error).message).toBe(
      `${join(dir, 'big.pem')} is larger than the 1 MiB allowed for a PEM file`,
    );
  });

  it('refuses a FIFO at once, without waiting for a writer, also through a symlink', () => {
    const dir = fresh();
    const fifo = fifoWithLateWriter(dir);
    symlinkSync(fifo, join(dir, 'link.pem'));
    for (const path of [fifo, join(dir, 'link.pem')]) {
      const started = Date.now();
      const e = refusal(() => readRegularFileSync(path, MAX_PEM_FILE_BYTES, 'a PEM file'));
      expect(Date.now() - started, path).toBeLessThan(1000);
      expect(e, path).toBeInstanceOf(PathRefused);
      expect((e as Error).message).toBe(`${path} is a FIFO (named pipe), not a PEM file`);
    }
  });

  it('refuses /dev/zero, /dev/null and a directory without reading them', () => {
    const dir = fresh();
    for (const [path, kind] of [
      ['/dev/zero', 'a memory device'],
      ['/dev/null', 'a memory device'],
      [dir, 'a directory'],
    ] as const) {
      const started = Date.now();
      const e = refusal(() => readRegularFileSync(path, MAX_PEM_FILE_BYTES, 'a PEM file'));
      expect(Date.now() - started, path).toBeLessThan(1000);
      expect((e as Error).message, path).toBe(`${path} is ${kind}, not a PEM file`);
    }
  });

  it('leaves errors of the file system as they are (ENOENT)', () => {
    const e = refusal(() => readRegularFileSync('/nonexistent/ca.pem', 10, 'a PEM file'));
    expect(e).not.toBeInstanceOf(PathRefused);
    expect((e as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

describe('openCharacterDevice (ADR 0426)', () => {
  it('refuses a regular file, also through a symlink, and leaves its bytes and times as they were', async () => {
    const dir = fresh();
    const image = join(dir, 'chdu.img');
    const bytes = Buffer.from('KASACHDU\x01\x00\x00\x02 the image header');
    writeFileSync(image, bytes);
    symlinkSync(image, join(dir, 'lp0'));
    const before = statSync(image);
    for (const path of [image, join(dir, 'lp0')]) {
      const e = await openCharacterDevice(path, 'a printer device').catch((x: unknown) => x);
      expect(e, path).toBeInstanceOf(PathRefused);
      expect((e as Error).message).toBe(`${path} is a regular file, not a printer device`);
    }
    expect(readFileSync(image)).toEqual(bytes);
    expect(statSync(image).mtimeMs).toBe(before.mtimeMs);
  });

  it('refuses a FIFO, a directory, /dev/null and /dev/zero; opens a character device (a pty master)', async () => {
    const dir = fresh();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const [path, kind] of [
      [fifo, 'a FIFO (named pipe)'],
      [dir, 'a directory'],
      ['/dev/null', 'a memory device'],
      ['/dev/zero', 'a memory device'],
    ] as const) {
      const e = await openCharacterDevice(path, 'a printer device').catch((x: unknown) => x);
      expect((e as Error).message, path).toBe(`${path} is ${kind}, not a printer device`);
    }
    const handle = await openCharacterDevice('/dev/ptmx', 'a printer device');
    expect((await handle.stat()).isCharacterDevice()).toBe(true);
    await handle.close();
  });
});
