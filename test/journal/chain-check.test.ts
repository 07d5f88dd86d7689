import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { composeChduStorage } from '../../src/compose/chdu-storage.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-chain-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const dataDir = () => join(dir, 'data');
const image = () => ({ kind: 'image' as const, path: join(dir, 'data', 'chdu.img') });

/** Flips one bit of a block's data on the medium, as decay or a stray write would. */
function flipBitInBlock(address: number): void {
  const fd = openSync(image().path, 'r+');
  try {
    const at = slotOffset(address) + 30;
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, at);
    b[0] = b[0]! ^ 0x10;
    writeSync(fd, b, 0, 1, at);
  } finally {
    closeSync(fd);
  }
}

async function storageWith(records: number, chainBlocksPerRun?: number) {
  const storage = await composeChduStorage({
    dataDir: dataDir(),
    chdu: image(),
    capacityBlocks: 10_000,
    checkIntervalMs: 3_600_000,
    ...(chainBlocksPerRun === undefined ? {} : { chainBlocksPerRun }),
  });
  for (let i = 1; i <= records; i++)
    await storage.journal.append({ type: 'free-text', body: { text: `r${i}` } });
  return storage;
}

describe('the running consistency check verifies the whole chain (ADR 0115)', () => {
  it('a flipped bit in an OLD block is found at start: 201, status ERROR, fiscal work refused', async () => {
    const first = await storageWith(40);
    const old = (await first.journal.get(3))!.address;
    await first.close();
    flipBitInBlock(old);

    const again = await composeChduStorage({ dataDir: dataDir(), chdu: image(), checkIntervalMs: 3_600_000 });
    try {
      expect(again.check.refusal()?.resultCode).toBe(201);
      expect(again.check.state().cause).toMatchObject({ check: 'chain', resultCode: 201 });
      const status = await again.check.statusProbe().check();
      expect(status).toMatchObject({ component: 'CHDU', state: 'ERROR', reasonCode: 201 });
      expect(status.reason).toContain(`block ${old}`);
    } finally {
      await again.close();
    }
  });

  it('damage appearing while the register runs is found by a later run, and writes are refused', async () => {
    const storage = await storageWith(30);
    try {
      expect((await storage.check.run()).ok).toBe(true);
      const status = await storage.check.statusProbe().check();
      expect(status.details).toMatchObject({ chainCheck: { lastFullPassAt: expect.any(String) } });
      flipBitInBlock((await storage.journal.get(2))!.address);
      const state = await storage.check.run();
      expect(state.ok).toBe(false);
      expect(storage.check.refusal()?.resultCode).toBe(201);
      // It stays refused: the next run meets the same damage again.
      await storage.check.run();
      expect(storage.check.refusal()?.resultCode).toBe(201);
    } finally {
      await storage.close();
    }
  });

  it('works in slices from a checkpoint, resumes after a restart, and wraps round to record 1', async () => {
    const storage = await storageWith(60, 10);
    const head = storage.journal.head()!.recordNo;
    // The start run saw an empty journal; this run verifies the first slice only, not everything.
    await storage.check.run();
    const first = storage.check.state().chain?.cursor?.recordNo ?? 0;
    expect(first).toBeGreaterThanOrEqual(10);
    expect(first).toBeLessThan(head);
    await storage.check.run();
    const second = storage.check.state().chain?.cursor?.recordNo ?? 0;
    expect(second).toBeGreaterThanOrEqual(first + 10);
    expect(second).toBeLessThan(first + 12);
    await storage.close();

    const again = await composeChduStorage({
      dataDir: dataDir(),
      chdu: image(),
      checkIntervalMs: 3_600_000,
      chainBlocksPerRun: 10,
    });
    try {
      // Resumed from the checkpoint kept in the index, not from record 1.
      const resumed = again.check.state().chain?.cursor?.recordNo ?? 0;
      expect(resumed).toBeGreaterThanOrEqual(second + 10);
      let runs = 0;
      while (again.check.state().chain?.cursor !== undefined && runs++ < 20) await again.check.run();
      expect(again.check.state().chain).toEqual({ lastFullPassAt: expect.any(String) });
      await again.check.run(); // a new pass starts at record 1
      expect(again.check.state().chain?.cursor?.recordNo).toBeLessThan(12);
      expect(again.check.refusal()).toBeUndefined();
    } finally {
      await again.close();
    }
  });
});
