import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChduLiteChdu } from '../../src/adapters/chdu/chdu-lite-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { TcpTransport } from '../../src/adapters/transport/byte-transport.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { ConsistencyCheck } from '../../src/core/services/consistency-check.js';
import { syncJournalIndex } from '../../src/core/services/journal-sync.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { mixedRecords } from '../support/journal-fixtures.js';

let dir: string;
let emulator: ChduLiteEmulator;
let chdu: ChduLiteChdu;
let journal: ChduJournal;
let index: SqliteJournalIndex;
let check: ConsistencyCheck;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-check-'));
  emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'chdu.img'), capacityBlocks: 2000 });
  chdu = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
  journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  for (const r of mixedRecords(10)) await journal.append(r);
  index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
  await syncJournalIndex(journal, index);
  check = new ConsistencyCheck({ chdu, journal, index, syncIndex: () => syncJournalIndex(journal, index) });
});

afterEach(async () => {
  check.stop();
  index.close();
  await chdu.close();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ConsistencyCheck', () => {
  it('refuses until the first run, then passes on a healthy register', async () => {
    expect(check.refusal()?.resultCode).toBe(-1);
    const state = await check.run();
    expect(state).toMatchObject({ ok: true, checkpoint: { recordNo: 10, hash: journal.head()?.hash } });
    expect(check.refusal()).toBeUndefined();
    expect(check.statusProbe().check()).toMatchObject({ component: 'CHDU', state: 'OK', reasonCode: 0 });
  });

  it.each([
    ['hw', 201],
    ['full', 202],
    ['busy', 300],
  ] as const)(
    'refuses with the code of the cause (%s → %i) and recovers when it goes',
    async (kind, code) => {
      await check.run();
      emulator.inject({ kind });
      await check.run();
      expect(check.refusal()?.resultCode).toBe(code);
      expect(check.statusProbe().check()).toMatchObject({ state: 'ERROR', reasonCode: code });
      emulator.clear();
      await check.run();
      expect(check.refusal()).toBeUndefined();
    },
  );

  it('200 while the CHDÚ is gone; recovers by itself on the periodic run once it is back', async () => {
    const port = emulator.port;
    await emulator.close();
    const fast = new ConsistencyCheck({ chdu, journal, index, intervalMs: 50 });
    await fast.start();
    expect(fast.refusal()?.resultCode).toBe(200);
    emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'chdu.img'), port });
    const until = Date.now() + 5000;
    while (fast.refusal() && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(fast.refusal()).toBeUndefined();
    fast.stop();
  });

  it('a refused request starts a re-check (at most every recheckAfterRefusalMs): recovery within seconds', async () => {
    const quick = new ConsistencyCheck({
      chdu,
      journal,
      index,
      syncIndex: () => syncJournalIndex(journal, index),
      intervalMs: 60_000,
      recheckAfterRefusalMs: 300,
    });
    await quick.start();
    expect(quick.refusal()).toBeUndefined();
    emulator.inject({ kind: 'hw' });
    await quick.run();
    expect(quick.refusal()?.resultCode).toBe(201);
    // While the cause stays, a request every 10 ms for 1 s starts a check at most every 300 ms.
    const history = () => emulator.history().filter((h) => h.command === 'STATUS').length;
    const before = history();
    const end = Date.now() + 1000;
    while (Date.now() < end) {
      expect(quick.refusal()?.resultCode).toBe(201);
      await new Promise((r) => setTimeout(r, 10));
    }
    const checks = history() - before; // one STATUS per failing check (it stops at the status step)
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(checks).toBeLessThanOrEqual(5);
    emulator.clear(); // the cause goes
    const until = Date.now() + 3000;
    while (quick.refusal() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(quick.refusal()).toBeUndefined(); // without waiting for the 60 s period
    quick.stop();
  });

  it('replays an index left behind or emptied', async () => {
    await journal.append({ type: 'free-text', body: { text: 'not indexed yet' } });
    expect((await check.run()).ok).toBe(true);
    expect(index.highWaterMark()).toBe(11);
    index.clear();
    const other = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    expect(other.head()?.recordNo).toBe(11);
    expect((await check.run()).ok).toBe(true);
    expect(index.highWaterHash()).toBe(journal.head()?.hash);
  });

  it('notices records written behind the journal’s back (201) and recovers after a storage-error report', async () => {
    await check.run();
    const intruder = await ChduJournal.open(
      new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url),
      { sha256: nodeSha256 },
    );
    await intruder.append({ type: 'free-text', body: { text: 'written by someone else' } });
    await (intruder.chdu as ChduLiteChdu).close();
    await check.run();
    expect(check.refusal()?.resultCode).toBe(201);
    check.reportStorageError(new FiscalError('CHDU_WRITE_ERROR', 'x'));
    const until = Date.now() + 3000;
    while (check.refusal() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(check.refusal()).toBeUndefined();
    expect(journal.head()?.recordNo).toBe(11);
    expect(index.highWaterMark()).toBe(11);
  });

  it('runs extra probes and takes their code (e.g. 402 certificate unreadable)', async () => {
    let certificateReadable = false;
    check.addProbe({
      name: 'certificate readable',
      run: () => {
        if (!certificateReadable)
          throw new FiscalError('MERCHANT_CERTIFICATE_ERROR', 'The certificate cannot be read.');
      },
    });
    expect((await check.run()).cause).toMatchObject({ check: 'certificate readable', resultCode: 402 });
    expect(check.refusal()?.resultCode).toBe(402);
    certificateReadable = true;
    await check.run();
    expect(check.refusal()).toBeUndefined();
  });
});
