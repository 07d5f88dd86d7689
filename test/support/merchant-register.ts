import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pkcs12MerchantKeystore } from '../../src/adapters/merchant/pkcs12-merchant-keystore.js';
import { SealedSecretStore } from '../../src/adapters/merchant/sealed-secret-store.js';
import { composeChduStorage } from '../../src/compose/chdu-storage.js';
import type { Clock } from '../../src/core/ports/clock.js';
import { MerchantSession } from '../../src/core/services/merchant-session.js';
import { StoreMerchant } from '../../src/core/services/store-merchant.js';
import { WriteLock } from '../../src/core/services/write-lock.js';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(public current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
}

/** A clock that follows real time from `start` (fiscal dates move as the test runs). */
export class LiveClock extends ManualClock {
  readonly #offset: number;
  constructor(start: Date = new Date()) {
    super(start);
    this.#offset = start.getTime() - Date.now();
  }
  override now(): Date {
    return new Date(Date.now() + this.#offset);
  }
}

export const HOST_A = () => new TextEncoder().encode('test-host-secret-A-1234567890');

export interface MerchantRegisterOptions {
  dataDir?: string;
  clock?: ManualClock;
  hostSecret?: () => Uint8Array;
  /** Capacity of a new CHDÚ image in blocks (small values make appends fail with 202). */
  capacityBlocks?: number;
}

/**
 * The merchant part of a register over a data dir, on the real storage: the image-file CHDÚ, the
 * fiscal journal and its SQLite index as `kasa serve` composes them (composeChduStorage), the real
 * keystore adapter and secret store. `restart()` closes it and opens new instances over the same
 * data dir, as a new process would.
 */
export async function merchantRegister(options: MerchantRegisterOptions = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kasa-reg-'));
  const clock = options.clock ?? new ManualClock(new Date());
  const storage = await composeChduStorage({
    dataDir,
    chdu: { kind: 'image', path: join(dataDir, 'chdu.img') },
    clock,
    capacityBlocks: options.capacityBlocks ?? 10_000,
    checkIntervalMs: 3_600_000,
  });
  const { journal, index } = storage;
  const secrets = new SealedSecretStore(join(dataDir, 'secrets'), options.hostSecret ?? HOST_A);
  const keystore = new Pkcs12MerchantKeystore(secrets);
  const session = new MerchantSession({ index, keystore, clock });
  const lock = new WriteLock();
  const store = new StoreMerchant({ journal, index, keystore, session, clock, lock });
  await session.load();
  return {
    dataDir,
    clock,
    storage,
    journal,
    index,
    keystore,
    session,
    lock,
    store,
    /** Path of the CHDÚ image (every journal byte is in it). */
    imagePath: join(dataDir, 'chdu.img'),
    close: () => storage.close(),
    async restart(hostSecret?: () => Uint8Array) {
      await storage.close();
      return merchantRegister({ dataDir, clock, hostSecret: hostSecret ?? options.hostSecret ?? HOST_A });
    },
  };
}
