import { join } from 'node:path';
import type { ImageIoOpener } from '../adapters/chdu/image-io.js';
import { nodeSha256 } from '../adapters/crypto/node-sha256.js';
import { DataDirLock, DataDirLockedError } from '../adapters/data-dir-lock.js';
import { SqliteJournalIndex } from '../adapters/index/sqlite-journal-index.js';
import { FileHighWaterMarkStore } from '../adapters/state/file-high-water-mark-store.js';
import { type ChduTarget, describeChduTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import { FiscalError } from '../core/fiscal-error.js';
import { ChduJournal } from '../core/journal/chdu-journal.js';
import type { Chdu } from '../core/ports/chdu.js';
import { type Clock, systemClock } from '../core/ports/clock.js';
import type { Journal } from '../core/ports/journal.js';
import type { ChainProgressStore } from '../core/services/chain-check.js';
import { type ChduInfo, chduInfo } from '../core/services/chdu-info.js';
import { ConsistencyCheck } from '../core/services/consistency-check.js';
import { IndexedJournal } from '../core/services/indexed-journal.js';
import { syncJournalIndex } from '../core/services/journal-sync.js';
import { RollbackGuard } from '../core/services/rollback-guard.js';
import type { RoutePlugin } from '../http/app.js';
import { chduRoutes } from '../http/routes/chdu.js';
import { openChdu } from './open-chdu.js';

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
  /** Blocks of the whole chain verified per check run (default 20 000; ADR 0115). */
  chainBlocksPerRun?: number;
  /**
   * Capacity of a new image (default: the target's `?capacity=N`, else 2,000,000 blocks). An
   * existing image with another capacity is refused (ADR 0112).
   */
  capacityBlocks?: number;
  /** Image only: the file-operations seam (tests make the disk run full: ADR 0116). */
  imageIo?: ImageIoOpener;
  /**
   * Where the CHDÚ's high-water mark is kept, outside the data dir (`--mark-dir`, ADR 0118).
   * Without it there is no rollback detection (unit tests of the storage alone).
   */
  markDir?: string;
  /** Start-up warnings, e.g. a torn tail found in the image (pino's logger fits). */
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

/**
 * Composition of the CHDÚ part of `kasa serve` (capability 3), for composeKasa: takes the data dir's
 * lock (ADR 0008 §13), opens the CHDÚ (creating the image, taking its lock: ADR 0106), the
 * journal (its head read from the CHDÚ — a CHDÚ that is not there yet makes the check refuse with
 * 200 until it is), the index, and starts the consistency check, whose first run replays or
 * rebuilds the index. A data dir or image held by another process, or a capacity that does not
 * fit the existing image, is a {@link UsageError} (exit 2, one line).
 */
export async function composeChduStorage(options: ChduStorageOptions): Promise<ChduStorage> {
  const lock = lockDataDir(options.dataDir);
  let chdu: Chdu | undefined;
  let index: SqliteJournalIndex | undefined;
  try {
    chdu = await openChdu(options.chdu, {
      create: true,
      holder: 'serve',
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.capacityBlocks === undefined ? {} : { capacityBlocks: options.capacityBlocks }),
      ...(options.imageIo ? { imageIo: options.imageIo } : {}),
    }).catch((e: unknown) => {
      throw startupError(e, options.chdu);
    });
    const device = chdu;
    if (device.tornBytesAtOpen) {
      options.log?.warn(
        { target: device.target, tornBytes: device.tornBytesAtOpen },
        `CHDÚ: ${device.tornBytesAtOpen} bytes after the last complete block (a write torn by a crash, or a damaged last block) are not a block; they are cut before the next write. If the index knew a record there, the register refuses with 201 (ADR 0108).`,
      );
    }
    const idx = SqliteJournalIndex.open(join(options.dataDir, 'index.sqlite'));
    index = idx;
    const raw = ChduJournal.unopened(device, {
      sha256: nodeSha256,
      // ADR 0108: never reuse the number of a record the index saw acknowledged.
      acknowledgedRecordNo: () => idx.highWaterMark(),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await raw.refresh().catch(() => undefined); // the check reports why
    const check = new ConsistencyCheck({
      chdu: device,
      journal: raw,
      index: idx,
      syncIndex: () => syncJournalIndex(raw, idx),
      chainProgress: indexChainProgress(idx),
      ...(options.chainBlocksPerRun === undefined ? {} : { chainBlocksPerRun: options.chainBlocksPerRun }),
      ...(options.checkIntervalMs === undefined ? {} : { intervalMs: options.checkIntervalMs }),
      ...(options.clock ? { now: () => options.clock!.now() } : {}),
    });
    const guard =
      options.markDir === undefined
        ? undefined
        : new RollbackGuard({
            chdu: device,
            journal: raw,
            index: idx,
            store: new FileHighWaterMarkStore(options.markDir),
            now: () => (options.clock ?? systemClock).now(),
            ...(options.log ? { log: options.log } : {}),
          });
    if (guard) check.addProbe(guard.probe());
    const journal = new IndexedJournal(raw, idx, {
      onStorageError: (e) => check.reportStorageError(e),
      onIndexError: (e) => check.reportIndexError(e),
      ...(guard ? { onAppended: () => guard.noteAppended() } : {}),
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
        await guard?.flush();
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

function lockDataDir(dataDir: string): DataDirLock {
  try {
    return DataDirLock.acquire(dataDir, 'serve');
  } catch (e) {
    if (e instanceof DataDirLockedError) throw new UsageError(e.message, { cause: e });
    throw e;
  }
}

/** The CHDÚ cannot be ours (another writer holds the image, a capacity that does not fit): exit 2. */
function startupError(e: unknown, target: ChduTarget): unknown {
  if (!FiscalError.is(e)) return e;
  const held = (e.details as { inUseBy?: unknown } | undefined)?.inUseBy !== undefined;
  if (held || e.resultName === 'INVALID_INPUT') {
    return new UsageError(`--chdu ${describeChduTarget(target)}: ${e.message}`, { cause: e });
  }
  return e;
}

/** The chain check's progress in the index's meta table (ADR 0115); anything unreadable restarts the pass. */
function indexChainProgress(index: SqliteJournalIndex): ChainProgressStore {
  return {
    load() {
      const text = index.chainCheckProgress();
      if (text === undefined) return undefined;
      const p = JSON.parse(text) as Record<string, unknown>;
      const cursor = p.cursor as { recordNo?: unknown; hash?: unknown } | undefined;
      const iso = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const passStartedAt = iso(p.passStartedAt);
      const lastFullPassAt = iso(p.lastFullPassAt);
      return {
        ...(cursor && Number.isInteger(cursor.recordNo) && typeof cursor.hash === 'string'
          ? { cursor: { recordNo: cursor.recordNo as number, hash: cursor.hash } }
          : {}),
        ...(passStartedAt ? { passStartedAt } : {}),
        ...(lastFullPassAt ? { lastFullPassAt } : {}),
      };
    },
    save: (progress) => index.setChainCheckProgress(JSON.stringify(progress)),
  };
}
