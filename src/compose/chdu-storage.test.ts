import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord, merchantRecord } from '../../test/support/journal-fixtures.js';
import { ImageFileChdu } from '../adapters/chdu/image-file-chdu.js';
import { SLOT_SIZE, slotOffset } from '../adapters/chdu/image-layout.js';
import { nodeSha256 } from '../adapters/crypto/node-sha256.js';
import { runCli } from '../cli/program.js';
import { UsageError } from '../config/usage-error.js';
import { ChduJournal } from '../core/journal/chdu-journal.js';
import { ChduLiteEmulator } from '../simulators/chdu/chdu-lite-emulator.js';
import { composeChduStorage } from './chdu-storage.js';

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

  it('a flipped bit in the last block: refuses with 201 naming the lost record, never reuses its number', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const log = { warn: (fields: Record<string, unknown>) => void warnings.push(fields) };
    const first = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: image(),
      capacityBlocks: 1000,
    });
    for (let i = 1; i <= 4; i++) await first.journal.append({ type: 'free-text', body: { text: `r${i}` } });
    const last = first.journal.head()!;
    expect(last).toMatchObject({ recordNo: 4, blocks: 1 });
    await first.close();
    // One bit of record 4's only block changes on the medium: its slot no longer seals.
    const img = readFileSync(image().path);
    const at = slotOffset(last.address) + 20;
    img[at] = img[at]! ^ 0x04;
    writeFileSync(image().path, img);
    const size = statSync(image().path).size;

    const again = await composeChduStorage({ dataDir: join(dir, 'data'), chdu: image(), log });
    expect(warnings).toEqual([expect.objectContaining({ tornBytes: SLOT_SIZE })]);
    expect(again.check.refusal()?.resultCode).toBe(201);
    expect(again.check.refusal()?.details).toMatchObject({ missingFrom: 4, missingTo: 4, chduHead: 3 });
    expect(again.check.statusProbe().check()).toMatchObject({
      state: 'ERROR',
      reasonCode: 201,
      details: { tornBytesAtOpen: SLOT_SIZE },
    });
    expect(again.index.highWaterMark()).toBe(4); // evidence kept: nothing rebuilt
    const e = await again.journal
      .append({ type: 'free-text', body: { text: 'would be 4 again' } })
      .catch((x) => x);
    expect(e).toMatchObject({ resultCode: 201 });
    expect(statSync(image().path).size).toBe(size); // nothing written, the damaged block still there
    expect(await again.info()).toMatchObject({
      recordCount: 3,
      tornBytesAtOpen: SLOT_SIZE,
      index: { state: 'ahead', highWaterMark: 4 },
    });
    await again.check.run();
    expect(again.check.refusal()?.resultCode).toBe(201); // stays refused: no silent recovery
    await again.close();

    // Only the operator's reindex accepts the loss.
    const err: string[] = [];
    const io = { env: {}, cwd: dir, stdout: () => undefined, stderr: (t: string) => void err.push(t) };
    expect(await runCli(['chdu', 'reindex', '--data-dir', join(dir, 'data')], io, '0.0.0')).toBe(0);
    expect(err.join('')).toContain('records 4–4 are dropped');
    const accepted = await composeChduStorage({ dataDir: join(dir, 'data'), chdu: image() });
    expect(accepted.check.refusal()).toBeUndefined();
    expect(
      (await accepted.journal.append({ type: 'free-text', body: { text: 'after reindex' } })).recordNo,
    ).toBe(4);
    await accepted.close();
  });

  it('a write torn by a crash (never acknowledged): the register starts and continues the numbering', async () => {
    const first = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: image(),
      capacityBlocks: 1000,
    });
    for (let i = 1; i <= 3; i++) await first.journal.append({ type: 'free-text', body: { text: `r${i}` } });
    await first.close();
    writeFileSync(image().path, Buffer.concat([readFileSync(image().path), Buffer.alloc(200, 0x77)]));
    const again = await composeChduStorage({ dataDir: join(dir, 'data'), chdu: image() });
    expect(again.check.refusal()).toBeUndefined();
    expect((await again.info()).tornBytesAtOpen).toBe(200);
    expect((await again.journal.append({ type: 'free-text', body: { text: 'r4' } })).recordNo).toBe(4);
    await again.close();
  });

  it('an image capacity that does not fit the existing image is a usage error (exit 2)', async () => {
    const first = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: { ...image(), capacityBlocks: 500 },
    });
    expect((await first.info()).capacityBlocks).toBe(500);
    await first.close();
    const other = composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: { ...image(), capacityBlocks: 600 },
    });
    await expect(other).rejects.toThrow(UsageError);
    const same = await composeChduStorage({
      dataDir: join(dir, 'data'),
      chdu: { ...image(), capacityBlocks: 500 },
    });
    await same.close();
  });
});
