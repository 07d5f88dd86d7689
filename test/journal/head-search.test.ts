import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChduLiteChdu } from '../../src/adapters/chdu/chdu-lite-chdu.js';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { TcpTransport } from '../../src/adapters/transport/byte-transport.js';
import { runCli } from '../../src/cli/program.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { findWrittenEnd } from '../../src/core/journal/journal-reader.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { mixedRecords } from '../support/journal-fixtures.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-head-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('finding the journal head (ADR 0109)', () => {
  it('finds the written end whatever free count STATUS claims, in a logarithmic number of READs', async () => {
    const chdu = await ImageFileChdu.open(join(dir, 'x.img'), { create: true, capacityBlocks: 2_000_000 });
    for (let i = 0; i < 37; i++) await chdu.write(Uint8Array.of(i));
    let reads = 0;
    const counting = Object.assign(Object.create(chdu) as ImageFileChdu, {
      read: (start: number, count: number) => {
        reads++;
        return chdu.read(start, count);
      },
    });
    for (const hint of [37, 0, 1, 36, 38, 2_000_000, 1_000_000, -5, 3_000_000]) {
      reads = 0;
      expect(await findWrittenEnd(counting, 2_000_000, hint), `hint ${hint}`).toBe(37);
      expect(reads, `hint ${hint}`).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(2_000_000)) + 1);
    }
    expect(await findWrittenEnd(counting, 37, 0)).toBe(37); // full device
    await chdu.close();
  });

  it('a CHDU Lite reporting itself full at the default capacity: head and kasa chdu info within seconds', async () => {
    const emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'chdu.img') });
    const chdu = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
    try {
      expect((await chdu.status()).capacityBlocks).toBe(2_000_000);
      const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      for (const r of mixedRecords(5)) await journal.append(r);
      emulator.reset(); // history from here on
      emulator.inject({ kind: 'full' });
      expect((await chdu.status()).freeBlocks).toBe(0);
      const reopened = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      expect(reopened.head()?.recordNo).toBe(5);
      expect(await reopened.verify()).toMatchObject({ ok: true, records: 5 });
      const reads = emulator.history().filter((h) => h.command === 'READ').length;
      expect(reads).toBeLessThan(100); // not one READ per block of 2,000,000
      await chdu.close();

      const out: string[] = [];
      const code = await runCli(
        ['chdu', 'info', '--data-dir', join(dir, 'data'), '--chdu', emulator.url, '--json'],
        { env: {}, cwd: dir, stdout: (t) => out.push(t), stderr: () => undefined },
        '0.0.0',
      );
      expect(code).toBe(0);
      expect(JSON.parse(out.join(''))).toMatchObject({ recordCount: 5, freeBlocks: 0 });
    } finally {
      await chdu.close();
      await emulator.close();
    }
  }, 15_000);
});
