import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { repoRoot } from '../support/shared-fixtures.js';

it('kasa chdu export | head: a reader that leaves early ends the export quietly (exit 0, no stack trace)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kasa-export-pipe-'));
  const chdu = await ImageFileChdu.open(join(dataDir, 'chdu.img'), {
    create: true,
    capacityBlocks: 20_000,
    syncWrites: false,
  });
  const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  // Far more than a pipe buffer holds, so the writer is still busy when the reader goes.
  for (let i = 0; i < 3000; i++)
    await journal.append({ type: 'free-text', body: { text: `line ${i} ${'x'.repeat(200)}` } });
  await chdu.close();

  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'src/main.ts'),
      'chdu',
      'export',
      '--format',
      'jsonl',
      '--data-dir',
      dataDir,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  // `head -n 1`: read the first line, then close the pipe.
  const first = await new Promise<string>((resolve) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += String(d);
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        child.stdout.off('data', onData);
        resolve(out.slice(0, nl));
      }
    };
    child.stdout.on('data', onData);
  });
  child.stdout.destroy();
  expect(JSON.parse(first)).toMatchObject({ recordNo: 1, type: 'free-text' });
  const { code, signal } = await exited;
  expect(signal).toBeNull();
  expect(code).toBe(0);
  expect(err).not.toMatch(/EPIPE|Error|\n\s+at /);
}, 60_000);
