import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pkcs12MerchantKeystore } from '../../src/adapters/merchant/pkcs12-merchant-keystore.js';
import { SealedSecretStore } from '../../src/adapters/merchant/sealed-secret-store.js';
import type { Clock } from '../../src/core/ports/clock.js';
import { MerchantSession } from '../../src/core/services/merchant-session.js';
import { StoreMerchant } from '../../src/core/services/store-merchant.js';
import { WriteLock } from '../../src/core/services/write-lock.js';
import { InMemoryJournalDouble, InMemoryJournalIndexDouble } from './in-memory-journal.js';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(public current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  advanceDays(days: number): void {
    this.current = new Date(this.current.getTime() + days * 86_400_000);
  }
}

export const HOST_A = () => new TextEncoder().encode('test-host-secret-A-1234567890');

/**
 * The merchant part of a register over a data dir: real keystore adapter and secret store, the
 * in-memory journal and index doubles (the CHDÚ journal lands separately). `restart()` builds new
 * instances over the same data dir and journal, with the index rebuilt from the journal.
 */
export function merchantRegister(
  options: {
    dataDir?: string;
    clock?: ManualClock;
    journal?: InMemoryJournalDouble;
    hostSecret?: () => Uint8Array;
  } = {},
) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kasa-reg-'));
  const clock = options.clock ?? new ManualClock(new Date());
  const journal = options.journal ?? new InMemoryJournalDouble(clock);
  const index = new InMemoryJournalIndexDouble();
  const secrets = new SealedSecretStore(join(dataDir, 'secrets'), options.hostSecret ?? HOST_A);
  const keystore = new Pkcs12MerchantKeystore(secrets);
  const session = new MerchantSession({ index, keystore, clock });
  const lock = new WriteLock();
  const store = new StoreMerchant({ journal, index, keystore, session, clock, lock });
  return {
    dataDir,
    clock,
    journal,
    index,
    keystore,
    session,
    lock,
    store,
    /** Replays the journal into the (fresh) index and loads the session, as a start does. */
    async start() {
      for await (const r of journal.records(index.highWaterMark() + 1))
        index.apply(r, journal.hashAfter(r.recordNo));
      await session.load();
    },
    async restart(hostSecret?: () => Uint8Array) {
      const again = merchantRegister({
        dataDir,
        clock,
        journal,
        hostSecret: hostSecret ?? options.hostSecret ?? HOST_A,
      });
      await again.start();
      return again;
    },
  };
}
