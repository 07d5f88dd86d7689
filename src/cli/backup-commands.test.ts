import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mixedRecords } from '../../test/support/journal-fixtures.js';
import { ImageFileChdu } from '../adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../adapters/crypto/node-sha256.js';
import { ChduJournal } from '../core/journal/chdu-journal.js';
import { type CliIo, runCli } from './program.js';

let dir: string;

async function kasa(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    env: {},
    cwd: dir,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
  };
  const code = await runCli(argv, io, '0.0.0-test');
  return { code, out: out.join(''), err: err.join('') };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-cli-backup-'));
  const chdu = await ImageFileChdu.open(join(dir, 'live', 'chdu.img'), {
    create: true,
    capacityBlocks: 2000,
  });
  const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  for (const r of mixedRecords(5)) await journal.append(r);
  await chdu.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('kasa restore --from a file that is not a backup', () => {
  it.each([
    [['--from', 'gone.tar.gz'], 'the backup {dir}/gone.tar.gz does not exist'],
    [['--from', 'gone.tar.gz', '--check'], 'the backup {dir}/gone.tar.gz does not exist'],
    [['--from', 'live'], '{dir}/live is a folder; --from takes the backup file (.tar.gz) itself'],
    [['--from', 'live', '--check'], '{dir}/live is a folder; --from takes the backup file (.tar.gz) itself'],
  ])('%j: one line naming the cause, exit 2, no stack trace, nothing created', async (args, line) => {
    const r = await kasa('restore', ...args, '--data-dir', 'restored');
    expect(r).toMatchObject({ code: 2, out: '', err: `kasa: ${line.replace('{dir}', dir)}\n` });
    expect(existsSync(join(dir, 'restored'))).toBe(false);
  });

  it('leaves an existing data dir as it was: no lock file, no staging folder', async () => {
    mkdirSync(join(dir, 'restored'));
    const r = await kasa('restore', '--from', join(dir, 'gone.tar.gz'), '--data-dir', 'restored');
    expect(r.code).toBe(2);
    expect(readdirSync(join(dir, 'restored'))).toEqual([]);
  });

  it('a successful restore removes staging folders an earlier, interrupted restore left behind', async () => {
    expect((await kasa('backup', '--data-dir', 'live', '--to', join(dir, 'b.tar.gz'))).code).toBe(0);
    mkdirSync(join(dir, 'restored', '.restore-999999', 'files'), { recursive: true });
    const r = await kasa('restore', '--from', 'b.tar.gz', '--data-dir', 'restored', '--mark-dir', 'marks');
    expect(r.code).toBe(0);
    // The empty lock files stay (held through the OS, ADR 0106); their holder notes (.json) do not.
    expect(readdirSync(join(dir, 'restored')).sort()).toEqual([
      'chdu.img',
      'chdu.img.lock',
      'kasa.lock',
      'last-backup.json',
    ]);
  });
});

describe("kasa restore's next step", () => {
  it('names both ways to start: the service, and kasa serve by hand with the dirs the restore used', async () => {
    expect((await kasa('backup', '--data-dir', 'live', '--to', join(dir, 'b.tar.gz'))).code).toBe(0);
    const r = await kasa('restore', '--from', 'b.tar.gz', '--data-dir', 'restored', '--mark-dir', 'marks');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^restore: OK — /);
    expect(lines[1]).toContain('`sudo systemctl start kasa`');
    expect(lines[1]).toContain(
      `\`kasa serve --data-dir ${join(dir, 'restored')} --mark-dir ${join(dir, 'marks')}\``,
    );
  });

  it("quotes a path with a space and names an image that is not the data dir's own", async () => {
    expect((await kasa('backup', '--data-dir', 'live', '--to', join(dir, 'b.tar.gz'))).code).toBe(0);
    const image = join(dir, 'other place', 'till.img');
    const r = await kasa(
      'restore',
      '--from',
      'b.tar.gz',
      '--data-dir',
      'my till',
      '--chdu',
      `image:${image}`,
      '--mark-dir',
      'marks',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(
      `\`kasa serve --data-dir '${join(dir, 'my till')}' --mark-dir ${join(dir, 'marks')} --chdu 'image:${image}'\``,
    );
  });
});

describe('kasa backup --to', () => {
  it('takes a relative path against the current folder and names the absolute file', async () => {
    const r = await kasa('backup', '--data-dir', 'live', '--to', 'rel.tar.gz', '--mark-dir', 'marks');
    expect(r.code).toBe(0);
    expect(r.out).toContain(` to ${join(dir, 'rel.tar.gz')} (`);
    expect(existsSync(join(dir, 'rel.tar.gz'))).toBe(true);
  });
});
