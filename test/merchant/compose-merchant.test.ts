import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { composeMerchant } from '../../src/compose-merchant.js';
import { Readiness, RegisterStatus } from '../../src/core/services/register-status.js';
import { WriteLock } from '../../src/core/services/write-lock.js';
import { InMemoryJournalDouble, InMemoryJournalIndexDouble } from '../support/in-memory-journal.js';
import { HOST_A, ManualClock } from '../support/merchant-register.js';

async function boot(dataDir: string, journal: InMemoryJournalDouble, clock: ManualClock, demo: boolean) {
  const index = new InMemoryJournalIndexDouble();
  for await (const r of journal.records()) index.apply(r, journal.hashAfter(r.recordNo));
  const readiness = new Readiness();
  const status = new RegisterStatus(readiness);
  const part = await composeMerchant({
    dataDir,
    journal,
    index,
    clock,
    lock: new WriteLock(),
    readiness,
    status,
    demo,
    logger: createLogger('silent'),
    hostSecret: HOST_A,
  });
  return { part, readiness, status };
}

describe('composeMerchant', () => {
  it('without demo on an empty register: fiscal work refused with 402, status says what to do', async () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00Z'));
    const { readiness, status } = await boot(
      mkdtempSync(join(tmpdir(), 'kasa-cm-')),
      new InMemoryJournalDouble(clock),
      clock,
      false,
    );
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
    const journal = new InMemoryJournalDouble(clock);
    const first = await boot(dataDir, journal, clock, true);
    expect(first.readiness.refusal()).toBeUndefined();
    expect(first.part.session.currentSigner().merchant.demo).toBe(true);
    const again = await boot(dataDir, journal, clock, true);
    expect(journal.head()?.recordNo).toBe(1); // no second demo merchant
    expect(again.part.session.currentSigner().recordNo).toBe(1);
    expect((await again.status.report()).state).toBe('READY');
  });
});
