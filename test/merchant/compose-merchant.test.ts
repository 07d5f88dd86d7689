import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { composeChduStorage } from '../../src/compose/chdu-storage.js';
import { composeMerchant } from '../../src/compose/merchant.js';
import { Readiness, RegisterStatus } from '../../src/core/services/register-status.js';
import { WriteLock } from '../../src/core/services/write-lock.js';
import { HOST_A, ManualClock } from '../support/merchant-register.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function boot(dataDir: string, clock: ManualClock, demo: boolean) {
  const storage = await composeChduStorage({
    dataDir,
    chdu: { kind: 'image', path: join(dataDir, 'chdu.img') },
    clock,
    capacityBlocks: 10_000,
    checkIntervalMs: 3_600_000,
  });
  open.push(storage);
  const readiness = new Readiness();
  const status = new RegisterStatus(readiness);
  readiness.add(storage.check);
  const part = await composeMerchant({
    dataDir,
    journal: storage.journal,
    index: storage.index,
    clock,
    lock: new WriteLock(),
    readiness,
    status,
    demo,
    logger: createLogger('silent'),
    hostSecret: HOST_A,
  });
  return { part, readiness, status, storage };
}

describe('composeMerchant', () => {
  it('without demo on an empty register: fiscal work refused with 402, status says what to do', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const { readiness, status } = await boot(mkdtempSync(join(tmpdir(), 'kasa-cm-')), clock, false);
    expect(readiness.refusal()?.resultCode).toBe(402);
    const report = await status.report();
    expect(report).toMatchObject({ state: 'MERCHANT_CERTIFICATE_ERROR', reasonCode: 402 });
    expect(report.components.find((c) => c.component === 'MERCHANT')).toMatchObject({
      state: 'ERROR',
      reasonCode: 402,
    });
  });

  it('with demo: creates the demo merchant once, and a restart loads it with no password', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-cm-'));
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const first = await boot(dataDir, clock, true);
    expect(first.readiness.refusal()).toBeUndefined();
    expect(first.part.session.currentSigner().merchant.demo).toBe(true);
    await open.pop()!.close();
    const again = await boot(dataDir, clock, true);
    expect(again.storage.journal.head()?.recordNo).toBe(1); // no second demo merchant
    expect(again.part.session.currentSigner().recordNo).toBe(1);
    expect(again.readiness.refusal()).toBeUndefined();
  });
});
