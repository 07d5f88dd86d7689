import { join } from 'node:path';
import { openChdu } from './adapters/chdu/open-chdu.js';
import { nodeSha256 } from './adapters/crypto/node-sha256.js';
import { DataDirLock } from './adapters/data-dir-lock.js';
import { SqliteJournalIndex } from './adapters/index/sqlite-journal-index.js';
import type { ChduTarget } from './config/targets.js';
import { ChduJournal } from './core/journal/chdu-journal.js';
import type { Chdu } from './core/ports/chdu.js';
import type { Clock } from './core/ports/clock.js';
import type { Journal } from './core/ports/journal.js';
import { type ChduInfo, chduInfo } from './core/services/chdu-info.js';
import { ConsistencyCheck } from './core/services/consistency-check.js';
import { IndexedJournal } from './core/services/indexed-journal.js';
import { syncJournalIndex } from './core/services/journal-sync.js';
import type { RoutePlugin } from './http/app.js';
import { chduRoutes } from './http/routes/chdu.js';

/** The storage half of the register, as `kasa serve` composes it. */
export interface ChduStorage {
  chdu: Chdu;
  /** For the use cases: appends also update the index; storage errors trigger the check. */
  journal: Journal;
  index: SqliteJournalIndex;
  /** Add it to the Readiness (refusal) and its statusProbe() to RegisterStatus. */
  check: ConsistencyCheck;
  info(): Promise<ChduInfo>;
  /** `GET /api/chduinfo`. */
  routes: RoutePlugin;
  close(): Promise<void>;
}

export interface ChduStorageOptions {
  dataDir: string;
  chdu: ChduTarget;
  clock?: Clock;
  /** Consistency check period (default 60 s). */
  checkIntervalMs?: number;
  /** Capacity of a new image (default 2,000,000 blocks). */
  capacityBlocks?: number;
}

/**
 * Composition of the CHDÚ part of `kasa serve` (issue 3), for compose.ts: takes the data dir's
 * lock (DECISIONS 13), opens the CHDÚ (creating the image), the journal (its head read from the
 * CHDÚ — a CHDÚ that is not there yet makes the check refuse with 200 until it is), the index,
 * and starts the consistency check, whose first run replays or rebuilds the index.
 */
export async function composeChduStorage(options: ChduStorageOptions): Promise<ChduStorage> {
  const lock = DataDirLock.acquire(options.dataDir, 'serve');
  let chdu: Chdu | undefined;
  let index: SqliteJournalIndex | undefined;
  try {
    chdu = await openChdu(options.chdu, {
      create: true,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.capacityBlocks === undefined ? {} : { capacityBlocks: options.capacityBlocks }),
    });
    const device = chdu;
    const raw = ChduJournal.unopened(device, {
      sha256: nodeSha256,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await raw.refresh().catch(() => undefined); // the check reports why
    const idx = SqliteJournalIndex.open(join(options.dataDir, 'index.sqlite'));
    index = idx;
    const check = new ConsistencyCheck({
      chdu: device,
      journal: raw,
      index: idx,
      syncIndex: () => syncJournalIndex(raw, idx),
      ...(options.checkIntervalMs === undefined ? {} : { intervalMs: options.checkIntervalMs }),
      ...(options.clock ? { now: () => options.clock!.now() } : {}),
    });
    const journal = new IndexedJournal(raw, idx, {
      onStorageError: (e) => check.reportStorageError(e),
      onIndexError: () => void check.run(),
    });
    await check.start();
    const info = () => chduInfo({ chdu: device, journal: raw, index: idx });
    return {
      chdu: device,
      journal,
      index: idx,
      check,
      info,
      routes: chduRoutes({ info }),
      async close() {
        check.stop();
        idx.close();
        await device.close();
        lock.release();
      },
    };
  } catch (e) {
    index?.close();
    await chdu?.close().catch(() => undefined);
    lock.release();
    throw e;
  }
}
