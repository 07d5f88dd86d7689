import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mixedRecords } from '../../test/support/journal-fixtures.js';
import { ImageFileChdu } from '../adapters/chdu/image-file-chdu.js';
import { slotOffset } from '../adapters/chdu/image-layout.js';
import { nodeSha256 } from '../adapters/crypto/node-sha256.js';
import { DataDirLock } from '../adapters/data-dir-lock.js';
import { ChduJournal } from '../core/journal/chdu-journal.js';
import type { JournalRecord } from '../core/journal/records.js';
import { registerChduCommands } from './chdu-commands.js';
import { type CliIo, runCli } from './program.js';

let dir: string;
let written: JournalRecord[];

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { env: {}, cwd: dir, stdout: (t) => out.push(t), stderr: (t) => err.push(t), out, err };
}

async function kasa(...argv: string[]) {
  const t = io();
  const code = await runCli(argv, t, '0.0.0');
  return { code, out: t.out.join(''), err: t.err.join('') };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-cli-chdu-'));
  const chdu = await ImageFileChdu.open(join(dir, 'data', 'chdu.img'), {
    create: true,
    capacityBlocks: 5000,
    serial: 77,
  });
  const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  written = [];
  for (const r of mixedRecords(50)) written.push(await journal.append(r));
  await chdu.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('kasa chdu', () => {
  it('info prints the facts (text and JSON) with the index state', async () => {
    const text = await kasa('chdu', 'info', '--data-dir', 'data');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^records: +50$/m);
    expect(text.out).toMatch(/^serial: +77$/m);
    const json = await kasa('chdu', 'info', '--data-dir', 'data', '--json');
    expect(JSON.parse(json.out)).toMatchObject({
      recordCount: 50,
      index: { state: 'missing' },
      inUseBy: null,
    });
  });

  it('reindex builds the index; info then shows it current', async () => {
    const r = await kasa('chdu', 'reindex', '--data-dir', 'data');
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toMatch(/^reindex: 50 records indexed in [\d.]+ s \(index at record 50\)\n$/);
    expect(existsSync(join(dir, 'data', 'index.sqlite'))).toBe(true);
    const info = JSON.parse((await kasa('chdu', 'info', '--data-dir', 'data', '--json')).out);
    expect(info.index).toEqual({ state: 'current', highWaterMark: 50 });
  });

  it('reindex refuses while kasa serve holds the data dir; info, verify and export still read', async () => {
    const lock = DataDirLock.acquire(join(dir, 'data'), 'serve');
    try {
      const r = await kasa('chdu', 'reindex', '--data-dir', 'data');
      expect(r.code).toBe(1);
      expect(r.err).toContain('kasa serve');
      expect(existsSync(join(dir, 'data', 'index.sqlite'))).toBe(false);
      expect((await kasa('chdu', 'verify', '--data-dir', 'data')).code).toBe(0);
      expect((await kasa('chdu', 'export', '--format', 'jsonl', '--data-dir', 'data')).code).toBe(0);
      const info = JSON.parse((await kasa('chdu', 'info', '--data-dir', 'data', '--json')).out);
      expect(info.inUseBy).toMatchObject({ command: 'serve', pid: process.pid });
    } finally {
      lock.release();
    }
  });

  it('verify prints one summary line and exits 1 when the journal is damaged', async () => {
    const ok = await kasa(
      'chdu',
      'verify',
      '--data-dir',
      'data',
      '--chdu',
      `image:${join('data', 'chdu.img')}`,
    );
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^verify: OK — 50 records in \d+ blocks, chain intact \([\d.]+ s\)\n$/);
    const img = readFileSync(join(dir, 'data', 'chdu.img'));
    const at = slotOffset(written[20]!.address) + 30;
    img[at] = img[at]! ^ 0x10;
    writeFileSync(join(dir, 'data', 'chdu.img'), img);
    const bad = await kasa('chdu', 'verify', '--data-dir', 'data');
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^verify: FAILED after 20 good records — block \d+: /);
  });

  it('export --format jsonl writes every record in order, to a file or standard output', async () => {
    const r = await kasa(
      'chdu',
      'export',
      '--format',
      'jsonl',
      '--data-dir',
      'data',
      '--output',
      'out.jsonl',
    );
    expect(r).toMatchObject({ code: 0, err: 'export: 50 records to out.jsonl\n' });
    const lines = readFileSync(join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(
      written.map((w) => ({
        recordNo: w.recordNo,
        type: w.type,
        version: w.version,
        address: w.address,
        writtenAt: w.writtenAt,
        chainHash: w.chainHash,
        body: w.body,
      })),
    );
    const tail = await kasa('chdu', 'export', '--format', 'jsonl', '--data-dir', 'data', '--from', '49');
    expect(
      tail.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).recordNo),
    ).toEqual([49, 50]);
  });

  it("a --from past the journal's head is an empty range for verify and export alike: exit 0, naming the head", async () => {
    for (const from of ['51', '52', '900']) {
      const v = await kasa('chdu', 'verify', '--data-dir', 'data', '--from', from);
      expect(v).toMatchObject({ code: 0, err: '' });
      expect(v.out).toMatch(
        new RegExp(
          `^verify: OK — 0 records: the journal ends at record 50; --from ${from} is past it \\([\\d.]+ s\\)\n$`,
        ),
      );
      const e = await kasa('chdu', 'export', '--format', 'jsonl', '--data-dir', 'data', '--from', from);
      expect(e).toMatchObject({
        code: 0,
        out: '',
        err: `export: 0 records (the journal ends at record 50; --from ${from} is past it)\n`,
      });
    }
    // Inside the journal nothing changed: from 50 checks the last record against record 49.
    const last = await kasa('chdu', 'verify', '--data-dir', 'data', '--from', '50');
    expect(last.out).toMatch(/^verify: OK — 1 records in \d+ blocks, chain intact/);
  });

  it('verify --from still fails on a journal that lost the record the check starts from', async () => {
    const img = readFileSync(join(dir, 'data', 'chdu.img'));
    const at = slotOffset(written[29]!.address) + 30; // record 30
    img[at] = img[at]! ^ 0x10;
    writeFileSync(join(dir, 'data', 'chdu.img'), img);
    const bad = await kasa('chdu', 'verify', '--data-dir', 'data', '--from', '31');
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(
      /^verify: FAILED after 0 good records — record 30 \(the one before record 31, where the check starts\) is not on the CHDÚ/,
    );
  });

  it('export through a slow reader adds no listener per wait (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      // A reader that takes one small chunk at a time: every record waits for 'drain'.
      let lines = 0;
      const slow = new Writable({
        highWaterMark: 1,
        write(chunk, _e, cb) {
          lines += String(chunk).split('\n').length - 1;
          setImmediate(cb);
        },
      });
      const t = { ...io(), stdoutStream: slow };
      expect(await runCli(['chdu', 'export', '--format', 'jsonl', '--data-dir', 'data'], t, '0.0.0')).toBe(0);
      expect(lines).toBe(50);
      // Only the export's own error listener is left on the stream.
      expect(slow.listenerCount('error')).toBeLessThanOrEqual(1);
      expect(slow.listenerCount('drain')).toBe(0);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('export never overwrites a file: one line, exit 2, the file unchanged', async () => {
    writeFileSync(join(dir, 'old.jsonl'), 'precious\n');
    const r = await kasa(
      'chdu',
      'export',
      '--format',
      'jsonl',
      '--data-dir',
      'data',
      '--output',
      'old.jsonl',
    );
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('--output old.jsonl');
    expect(readFileSync(join(dir, 'old.jsonl'), 'utf8')).toBe('precious\n');
    const nowhere = await kasa(
      'chdu',
      'export',
      '--format',
      'jsonl',
      '--data-dir',
      'data',
      '--output',
      'no/such/dir/x',
    );
    expect(nowhere.code).toBe(2);
    expect(nowhere.err.trim().split('\n')).toHaveLength(1);
    // A failed export leaves no partial file behind.
    const missing = await kasa(
      'chdu',
      'export',
      '--format',
      'jsonl',
      '--data-dir',
      'elsewhere',
      '--output',
      'x.jsonl',
    );
    expect(missing.code).toBe(1);
    expect(existsSync(join(dir, 'x.jsonl'))).toBe(false);
  });

  it('info and verify name bytes after the last complete block (a torn write or a damaged last block)', async () => {
    const image = join(dir, 'data', 'chdu.img');
    writeFileSync(image, Buffer.concat([readFileSync(image), Buffer.alloc(300, 0xab)]));
    const info = await kasa('chdu', 'info', '--data-dir', 'data');
    expect(info.out).toMatch(/^torn tail: +300 bytes after the last complete block/m);
    expect(JSON.parse((await kasa('chdu', 'info', '--data-dir', 'data', '--json')).out)).toMatchObject({
      tornBytesAtOpen: 300,
      recordCount: 50,
    });
    const verify = await kasa('chdu', 'verify', '--data-dir', 'data');
    expect(verify.code).toBe(0);
    expect(verify.out).toMatch(
      /^verify: OK — 50 records .*; 300 bytes after the last complete block are not a block/,
    );
  });

  it('a missing CHDÚ is an error line with its code, exit 1', async () => {
    const r = await kasa('chdu', 'info', '--data-dir', 'elsewhere');
    expect(r.code).toBe(1);
    expect(r.err).toContain('200 CHDU_NOT_CONNECTED');
  });

  it.each([
    [['chdu', 'export', '--format', 'csv'], '--format'],
    [['chdu', 'export'], '--format'],
    [['chdu', 'verify', '--from', 'x'], '--from'],
    [['chdu', 'verify', '--from', '0'], '--from'],
    [['chdu', 'info', '--chdu', 'floppy:/a'], '--chdu'],
    [['chdu', 'reindex', '--bogus'], '--bogus'],
    [['chdu-sim', '--image', 'x.img', '--port', 'abc'], '--port'],
    [['chdu-sim', '--image', 'x.img', '--fault', 'lava'], '--fault'],
    [['chdu-sim', '--image', 'x.img', '--printer', 'lpt1'], '--printer'],
    [['chdu-sim', '--image', 'x.img', '--read-shape', 'dotnet'], '--read-shape'],
    [['chdu-sim'], '--image'],
    [['chdu-sim', '--image', 'data/chdu.img', '--capacity', '10'], '--image'], // ADR 0112: not its capacity
  ])('bad flag or value → exit 2 with one line naming it: %j', async (argv, name) => {
    const r = await kasa(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(name);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('shows a progress bar on a terminal and still the summary line', async () => {
    const painted: string[] = [];
    const tty = Object.assign(
      new Writable({
        write(chunk, _e, cb) {
          painted.push(String(chunk));
          cb();
        },
      }),
      { isTTY: true, columns: 100 },
    );
    const t = io();
    const program = new Command('kasa').exitOverride();
    registerChduCommands(program, t, { stream: tty });
    await program.parseAsync(['chdu', 'reindex', '--data-dir', 'data'], { from: 'user' });
    expect(painted.join('')).toMatch(/reindex \[/);
    expect(t.out.join('')).toMatch(/^reindex: 50 records indexed/);
  });
});
