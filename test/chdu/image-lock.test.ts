import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { createFileExclusively } from '../../src/adapters/chdu/image-io.js';
import { runCli } from '../../src/cli/program.js';
import { composeChduStorage } from '../../src/compose/chdu-storage.js';
import { UsageError } from '../../src/config/usage-error.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { startHolderChild } from '../support/lock-holder-child.js';
import { startServeChild } from '../support/serve-child.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-image-lock-'));
  path = join(dir, 'chdu.img');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

async function kasa(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { env: {}, cwd: dir, stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
    '0.0.0',
  );
  return { code, out: out.join(''), err: err.join('') };
}

/** Block 0 written by the first writer, as bytes, to check nobody overwrote it. */
async function writeFirstBlock(): Promise<Uint8Array> {
  const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
  const chdu = await ImageFileChdu.open(path, { create: true, capacityBlocks: 1000 });
  expect(await chdu.write(data)).toBe(0);
  await chdu.close();
  return data;
}

describe('one writer per image (ADR 0106)', () => {
  it('a second writable instance in the same process is refused with 200; readers are not', async () => {
    const first = await ImageFileChdu.open(path, { create: true, capacityBlocks: 100, holder: 'serve' });
    const e = await failure(ImageFileChdu.open(path, { create: true }));
    expect(FiscalError.is(e) && e.resultCode).toBe(200);
    expect((e as FiscalError).details).toMatchObject({ inUseBy: { pid: process.pid, command: 'serve' } });
    const reader = await ImageFileChdu.open(path, { readOnly: true });
    expect(await first.write(Uint8Array.of(1))).toBe(0);
    expect(await first.write(Uint8Array.of(2))).toBe(1);
    expect((await reader.read(0, 5)).map((b) => b.data[0])).toEqual([1, 2]);
    await first.close();
    const second = await ImageFileChdu.open(path);
    expect(await second.write(Uint8Array.of(3))).toBe(2);
    await Promise.all([second.close(), reader.close()]);
  });

  it('two serves with different data dirs on one image: the second gets a usage error (exit 2)', async () => {
    const a = await composeChduStorage({ dataDir: join(dir, 'a'), chdu: { kind: 'image', path } });
    try {
      const e = await failure(composeChduStorage({ dataDir: join(dir, 'b'), chdu: { kind: 'image', path } }));
      expect(e).toBeInstanceOf(UsageError);
      expect((e as Error).message).toContain('in use by');
      await a.journal.append({ type: 'free-text', body: { text: 'only a writes' } });
    } finally {
      await a.close();
    }
    const b = await composeChduStorage({ dataDir: join(dir, 'b'), chdu: { kind: 'image', path } });
    expect(b.check.refusal()).toBeUndefined();
    expect((await b.journal.append({ type: 'free-text', body: { text: 'b next' } })).recordNo).toBe(2);
    await b.close();
  });

  it('another process holding the image: writers are refused, nothing is overwritten, SIGKILL frees it', async () => {
    const block0 = await writeFirstBlock();
    const holder = await startHolderChild('image', path);
    try {
      const e = await failure(ImageFileChdu.open(path));
      expect(FiscalError.is(e) && e.resultCode).toBe(200);
      expect((e as FiscalError).details).toMatchObject({ inUseBy: { pid: holder.child.pid } });
      const sim = await kasa('chdu-sim', '--image', path, '--port', '0');
      expect(sim.code).toBe(2);
      expect(sim.err.trim().split('\n')).toHaveLength(1);
      expect(sim.err).toContain('in use by');
      const serve = await kasa(
        'serve',
        '--data-dir',
        join(dir, 'other'),
        '--chdu',
        `image:${path}`,
        '--port',
        '0',
      );
      expect(serve.code).toBe(2);
      expect(serve.err).toContain('in use by');
      const reader = await ImageFileChdu.open(path, { readOnly: true });
      expect((await reader.read(0, 5)).map((b) => b.data)).toEqual([block0]);
      await reader.close();
    } finally {
      await holder.kill();
    }
    const after = await ImageFileChdu.open(path);
    expect(await after.write(Uint8Array.of(9))).toBe(1);
    expect((await after.read(0, 1))[0]?.data).toEqual(block0);
    await after.close();
  });

  it('kasa serve holding the image refuses a second kasa serve with another data dir (exit 2)', async () => {
    const serve = await startServeChild([
      '--port',
      '0',
      '--data-dir',
      join(dir, 'a'),
      '--chdu',
      `image:${path}`,
      '--log-level',
      'warn',
    ]);
    try {
      const second = await kasa(
        'serve',
        '--data-dir',
        join(dir, 'b'),
        '--chdu',
        `image:${path}`,
        '--port',
        '0',
      );
      expect(second.code).toBe(2);
      expect(second.err).toMatch(/in use by "kasa serve" \(pid \d+/);
      const other = await kasa('chdu-sim', '--image', path, '--port', '0');
      expect(other.code).toBe(2);
    } finally {
      serve.child.kill('SIGKILL');
      await new Promise((r) => serve.child.once('exit', r));
    }
    const after = await ImageFileChdu.open(path);
    await after.close();
  });
});

describe('creating an image', () => {
  it('never replaces an existing file, even when two creators race', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createFileExclusively(path, Buffer.from(`creator ${i}`))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(readFileSync(path, 'utf8')).toBe(`creator ${winner}`);
    writeFileSync(join(dir, 'keep'), 'x');
    expect(await createFileExclusively(join(dir, 'keep'), Buffer.from('y'))).toBe(false);
    expect(readFileSync(join(dir, 'keep'), 'utf8')).toBe('x');
  });
});
