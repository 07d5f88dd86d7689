import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord, merchantRecord } from '../test/support/journal-fixtures.js';
import { ImageFileChdu } from './adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from './adapters/crypto/node-sha256.js';
import { UsageError } from './cli/exit.js';
import { composeChduStorage } from './compose-chdu.js';
import { ChduJournal } from './core/journal/chdu-journal.js';
import { ChduLiteEmulator } from './simulators/chdu/chdu-lite-emulator.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-storage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const image = () => ({ kind: 'image' as const, path: join(dir, 'data', 'chdu.img') });

describe('composeChduStorage', () => {
  it('appends keep the index current; one process per data dir', async () => {
    const storage = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: image(),
      capacityBlocks: 10_000,
    });
    expect(storage.check.refusal()).toBeUndefined();
    await storage.journal.append({ type: 'merchant', body: merchantRecord() });
    await storage.journal.append({ type: 'document', body: documentRecord(1) });
    await storage.journal.append({ type: 'sfs-exchange', body: exchangeRecord(1, 'accepted') });
    expect(storage.index.findDocument({ by: 'last' })).toMatchObject({ sendState: 'online', recordNo: 2 });
    expect((await storage.info()).index).toEqual({ state: 'current', highWaterMark: 3 });
    await expect(composeChduStorage({ dataDir: join(dir, 'data'), chdu: image() })).rejects.toThrow(
      UsageError, // exit 2: the data dir is in use
    );
    await storage.close();
  });

  it('replays at start what a crash left out of the index', async () => {
    const first = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: image(),
      capacityBlocks: 10_000,
    });
    await first.journal.append({ type: 'merchant', body: merchantRecord() });
    await first.close();
    // A record reaches the CHDÚ, then the process dies before the index hears of it.
    const chdu = await ImageFileChdu.open(image().path);
    await (await ChduJournal.open(chdu, { sha256: nodeSha256 })).append({
      type: 'document',
      body: documentRecord(1),
    });
    await chdu.close();
    const again = await composeChduStorage({ dataDir: join(dir, 'data'), chdu: image() });
    expect(again.check.refusal()).toBeUndefined();
    expect(again.index.highWaterMark()).toBe(2);
    expect(again.index.lastDocumentNo()).toBe(1);
    await again.close();
  });

  it('starts without its CHDU Lite (200), and recovers by itself when the device appears', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    const storage = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: { kind: 'chdu-lite-tcp', host: '127.0.0.1', port },
      checkIntervalMs: 50,
    });
    expect(storage.check.refusal()?.resultCode).toBe(200);
    await expect(storage.info()).rejects.toMatchObject({ resultCode: 200 });
    const emulator = await ChduLiteEmulator.start({
      imagePath: join(dir, 'device.img'),
      capacityBlocks: 1000,
      port,
    });
    const until = Date.now() + 5000;
    while (storage.check.refusal() && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(storage.check.refusal()).toBeUndefined();
    const r = await storage.journal.append({ type: 'merchant', body: merchantRecord() });
    expect(r.recordNo).toBe(1);
    expect(storage.index.highWaterMark()).toBe(1);
    await storage.close();
    await emulator.close();
  });
});
