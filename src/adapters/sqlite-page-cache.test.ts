import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimMemory } from '../simulators/sfs/sim-memory.js';
import { SqliteJournalIndex } from './index/sqlite-journal-index.js';
import { SqlitePaymentIntentStore } from './qr-payments/sqlite-payment-intent-store.js';
import { PAGE_CACHE_KIB } from './sqlite-page-cache.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-page-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite page caches (ADR 1112)', () => {
  it('better-sqlite3 alone would give every connection 16 MiB, more than any kasa database gets', () => {
    const db = new Database(':memory:');
    const builtIn = -Number(db.pragma('cache_size', { simple: true }));
    db.close();
    expect(builtIn).toBe(16_000);
    for (const kib of Object.values(PAGE_CACHE_KIB)) expect(kib).toBeLessThan(builtIn);
  });

  it('the journal index (writer and reader), the simulator memory and the payment store are bounded', () => {
    const path = join(dir, 'index.sqlite');
    const index = SqliteJournalIndex.open(path);
    const reader = SqliteJournalIndex.openReadOnly(path)!;
    const memory = SimMemory.open(join(dir, 'sim.sqlite'));
    const payments = new SqlitePaymentIntentStore(join(dir, 'qr.sqlite'));
    try {
      expect(-Number(index.database.pragma('cache_size', { simple: true }))).toBe(
        PAGE_CACHE_KIB.journalIndex,
      );
      expect(-Number(reader.database.pragma('cache_size', { simple: true }))).toBe(
        PAGE_CACHE_KIB.journalIndex,
      );
      expect(memory.pageCacheKib()).toBe(PAGE_CACHE_KIB.simulatorMemory);
      expect(payments.pageCacheKib()).toBe(PAGE_CACHE_KIB.paymentIntents);
    } finally {
      index.close();
      reader.close();
      memory.close();
      payments.close();
    }
  });
});
