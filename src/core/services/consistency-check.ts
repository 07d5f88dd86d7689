import { FiscalError } from '../fiscal-error.js';
import type { Chdu } from '../ports/chdu.js';
import type { Journal } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';
import { ChainCheck, type ChainProgress, type ChainProgressStore } from './chain-check.js';
import { indexInfo } from './chdu-info.js';
import type { ComponentStatus, RefusalSource, StatusProbe } from './register-status.js';

/**
 * One extra condition the register needs (capability 3 "Consistency check"; the merchant work adds
 * "certificate readable"). `run()` throws a FiscalError with the code of the cause (e.g. 402).
 */
export interface ConsistencyProbe {
  readonly name: string;
  run(): Promise<void> | void;
  /**
   * Something that does not stop the register but someone should see (e.g. the rollback mark
   * cannot be written, ADR 0118): the CHDU status entry turns WARNING with this code and sentence
   * while the check passes.
   */
  warning?(): { resultCode: number; reason: string; details?: Record<string, unknown> } | undefined;
}

export interface ConsistencyCheckDeps {
  chdu: Chdu;
  /**
   * `refresh()` (ChduJournal) re-reads the head after a storage error, or when `ready` is false
   * (the CHDÚ was not reachable when kasa started).
   */
  journal: Journal & { refresh?: () => Promise<unknown>; readonly ready?: boolean };
  index?: JournalIndex;
  /** Replays (or rebuilds) the index when it does not match the head (journal-sync). */
  syncIndex?: () => Promise<unknown>;
  probes?: ConsistencyProbe[];
  /** Period of the background check, ms (default 60 000). */
  intervalMs?: number;
  /**
   * While the check fails, a refused request (any call of `refusal()`) starts a new check, at
   * most once per this many ms (default 2000), so the register recovers within seconds of the
   * cause going away instead of at the next periodic run (ADR 0110).
   */
  recheckAfterRefusalMs?: number;
  /**
   * The whole-chain check (ADR 0115): each run verifies up to this many blocks of the chain from
   * where the previous run stopped, and starts again at record 1 after reaching the head
   * (default 20 000 blocks ≈ 10 MB; 0 turns it off). Damage anywhere, an old block included,
   * turns the check to 201.
   */
  chainBlocksPerRun?: number;
  /** Where the chain check's progress survives a restart (the index's meta table in kasa serve). */
  chainProgress?: ChainProgressStore;
  /** Time stamps for the state (the register's clock). */
  now?: () => Date;
  /** Real elapsed time for the re-check limit (default Date.now; a fixed test clock must not stop it). */
  monotonicMs?: () => number;
}

export interface ConsistencyState {
  ok: boolean;
  /** When the last check finished (ISO). */
  checkedAt?: string;
  /** The failing check and its cause. */
  cause?: { check: string; resultCode: number; message: string };
  /** The last record whose chain verified. */
  checkpoint?: { recordNo: number; hash: string };
  /** The whole-chain check's progress. */
  chain?: ChainProgress;
}

const STORAGE_CODES = new Set([200, 201, 202, 203]);

/**
 * The consistency check (capability 3): the CHDÚ answers, its status is OK, the journal chain verifies
 * from the last checkpoint, the index matches the head, and every extra probe passes. Runs at
 * start, every `intervalMs`, and soon after any storage error; while it fails, `refusal()` gives
 * the cause's FiscalError (200, 201, 202, 402 …) and the HTTP layer refuses fiscal requests with
 * it. It clears itself on the first run that passes.
 *
 * The chain is verified incrementally: from the index's high-water mark at start (the index was
 * built from a verified chain), then from the head verified by the previous run. A full
 * verification from record 1 is `kasa chdu verify`.
 */
export class ConsistencyCheck implements RefusalSource {
  private current: ConsistencyState = {
    ok: false,
    cause: { check: 'start', resultCode: 500, message: 'not checked yet' },
  };
  private failure: FiscalError | undefined = new FiscalError(
    'UNKNOWN',
    'The consistency check has not run yet.',
  );
  private running: Promise<ConsistencyState> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private pendingRerun: ReturnType<typeof setTimeout> | undefined;
  private readonly probes: ConsistencyProbe[];
  /** A storage error was seen: re-read the journal head from the CHDÚ before verifying. */
  private stale = false;
  /** When the last run started (monotonicMs), for the re-check limit. */
  private lastRunAt = Number.NEGATIVE_INFINITY;
  private readonly chainCheck: ChainCheck;
  /** Blocks a record needed that the CHDÚ could not give (202): full for practical purposes. */
  private roomNeeded: number | undefined;

  constructor(private readonly deps: ConsistencyCheckDeps) {
    this.probes = [...(deps.probes ?? [])];
    this.chainCheck = new ChainCheck({
      journal: deps.journal,
      now: () => this.stamp(),
      ...(deps.chainBlocksPerRun === undefined ? {} : { blocksPerRun: deps.chainBlocksPerRun }),
      ...(deps.chainProgress ? { store: deps.chainProgress } : {}),
    });
  }

  addProbe(probe: ConsistencyProbe): void {
    this.probes.push(probe);
  }

  /** The cause while the check fails; asking while it fails starts a re-check (rate-limited). */
  refusal(): FiscalError | undefined {
    if (this.failure && this.current.checkedAt !== undefined) this.recheckSoon();
    return this.failure;
  }

  state(): ConsistencyState {
    return this.current;
  }

  /** Runs the check now (concurrent callers share one run). */
  run(): Promise<ConsistencyState> {
    if (!this.running) this.lastRunAt = this.elapsed();
    this.running ??= this.check().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** First run now, then every `intervalMs`; the timer does not keep the process alive. */
  start(): Promise<ConsistencyState> {
    this.stop();
    this.timer = setInterval(() => void this.run(), this.deps.intervalMs ?? 60_000);
    unref(this.timer);
    return this.run();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.pendingRerun) clearTimeout(this.pendingRerun);
    this.timer = undefined;
    this.pendingRerun = undefined;
  }

  /** Call with any error a use case got from the CHDÚ: a storage error triggers a check soon. */
  reportStorageError(error: unknown): void {
    if (!FiscalError.is(error) || !STORAGE_CODES.has(error.resultCode)) return;
    const needed = (error.details as { needed?: unknown } | undefined)?.needed;
    if (error.resultName === 'CHDU_WRITE_LIMIT' && typeof needed === 'number') this.roomNeeded = needed;
    this.stale = true;
    if (this.pendingRerun) return;
    this.pendingRerun = setTimeout(() => {
      this.pendingRerun = undefined;
      void this.run();
    }, 0);
    unref(this.pendingRerun);
  }

  /**
   * The index did not take a record the CHDÚ did (ADR 0116: a full disk under it, SQLITE_FULL):
   * refuse at once with that cause — the very next request must not be answered from an index
   * that lags — and check (replay) soon; the refusal clears when the replay succeeds.
   */
  reportIndexError(error: unknown): void {
    // A record after one the index already missed says nothing new: keep that first cause.
    const known = this.current.cause?.check === 'index' ? this.failure : undefined;
    const cause = FiscalError.is(error)
      ? error
      : known
        ? known
        : new FiscalError(
            'CHDU_WRITE_ERROR',
            `The index did not take the last record written to the CHDÚ (${(error as Error).message}); it is replayed from the CHDÚ.`,
            undefined,
            { cause: error },
          );
    this.current = {
      ok: false,
      checkedAt: this.stamp(),
      cause: { check: 'index', resultCode: cause.resultCode, message: cause.message },
      ...(this.current.checkpoint ? { checkpoint: this.current.checkpoint } : {}),
      ...(this.chainCheck.progress ? { chain: this.chainCheck.progress } : {}),
    };
    this.failure = cause;
    if (this.pendingRerun) return;
    this.pendingRerun = setTimeout(() => {
      this.pendingRerun = undefined;
      void this.run();
    }, 0);
    unref(this.pendingRerun);
  }

  /** ADR 0110: a refusal asks for a re-check, at most once per `recheckAfterRefusalMs`. */
  private recheckSoon(): void {
    if (this.running || this.pendingRerun) return;
    if (this.elapsed() - this.lastRunAt < (this.deps.recheckAfterRefusalMs ?? 2000)) return;
    this.pendingRerun = setTimeout(() => {
      this.pendingRerun = undefined;
      void this.run();
    }, 0);
    unref(this.pendingRerun);
  }

  private elapsed(): number {
    return (this.deps.monotonicMs ?? Date.now)();
  }

  /** The CHDU entry of `GET /api/status/get`. */
  statusProbe(): StatusProbe {
    return {
      component: 'CHDU',
      check: (): ComponentStatus => {
        const s = this.current;
        const torn = this.deps.chdu.tornBytesAtOpen;
        const chain = this.chainCheck.progress;
        const details = {
          target: this.deps.chdu.target,
          ...(torn ? { tornBytesAtOpen: torn } : {}),
          ...(s.checkedAt ? { checkedAt: s.checkedAt } : {}),
          ...(s.checkpoint ? { verifiedRecords: s.checkpoint.recordNo } : {}),
          ...(chain
            ? {
                chainCheck: {
                  ...(chain.cursor ? { verifiedThrough: chain.cursor.recordNo } : {}),
                  ...(chain.passStartedAt ? { passStartedAt: chain.passStartedAt } : {}),
                  ...(chain.lastFullPassAt ? { lastFullPassAt: chain.lastFullPassAt } : {}),
                },
              }
            : {}),
        };
        const warning = s.ok ? this.firstWarning() : undefined;
        if (warning)
          return {
            component: 'CHDU',
            state: 'WARNING',
            reasonCode: warning.resultCode,
            reason: warning.reason,
            details: { ...details, ...warning.details },
          };
        if (s.ok)
          return {
            component: 'CHDU',
            state: 'OK',
            reasonCode: 0,
            reason: chain?.lastFullPassAt
              ? `The CHDÚ answers; its new records verify, and the whole chain verified on ${chain.lastFullPassAt} (checked again in slices while running).`
              : 'The CHDÚ answers; its new records verify; the whole chain is being checked in slices (no full pass finished yet).',
            details,
          };
        return {
          component: 'CHDU',
          state: 'ERROR',
          reasonCode: s.cause?.resultCode ?? 500,
          reason: s.cause?.message ?? 'The consistency check failed.',
          details: { ...details, check: s.cause?.check },
        };
      },
    };
  }

  private firstWarning(): ReturnType<NonNullable<ConsistencyProbe['warning']>> {
    for (const probe of this.probes) {
      const w = probe.warning?.();
      if (w) return w;
    }
    return undefined;
  }

  private async check(): Promise<ConsistencyState> {
    let step = 'chdu';
    try {
      const status = await this.deps.chdu.status();
      if (!status.storageOk)
        throw new FiscalError('CHDU_WRITE_ERROR', 'The CHDÚ reports its storage not OK.');
      if (status.deviceLocked)
        throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is permanently locked: replace it.');
      if (status.freeBlocks === 0) throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is full: replace it.');
      // A CHDÚ too full for the record just refused is full (blocks are never freed): say so.
      if (this.roomNeeded !== undefined && status.freeBlocks < this.roomNeeded) {
        throw new FiscalError(
          'CHDU_WRITE_LIMIT',
          `The CHDÚ is full: ${status.freeBlocks} free blocks, fewer than the ${this.roomNeeded} the last record needed. Replace it.`,
          { freeBlocks: status.freeBlocks, needed: this.roomNeeded },
        );
      }
      this.roomNeeded = undefined;
      // ADR 0116: the disk under an image file ran full; refuse with its sentence until it has room.
      const noRoom = await this.deps.chdu.diskSpace?.();
      if (noRoom) throw noRoom;

      step = 'journal';
      if ((this.stale || this.deps.journal.ready === false) && this.deps.journal.refresh) {
        await this.deps.journal.refresh();
      }
      this.stale = false;

      // The index first: an index of another CHDÚ is rebuilt here, so its mark can then serve as
      // the checkpoint the chain is verified from.
      step = 'index';
      await this.checkIndex();

      step = 'journal';
      const checkpoint = this.current.checkpoint ?? this.indexCheckpoint();
      const report = await this.deps.journal.verify(checkpoint ? { checkpoint } : {});
      if (!report.ok)
        throw new FiscalError('CHDU_WRITE_ERROR', `The journal does not verify: ${report.problem}.`);
      const verified =
        report.lastRecordNo !== undefined && report.lastHash !== undefined
          ? { recordNo: report.lastRecordNo, hash: report.lastHash }
          : undefined;

      step = 'chain';
      await this.chainCheck.slice();

      for (const probe of this.probes) {
        step = probe.name;
        await probe.run();
      }
      this.current = {
        ok: true,
        checkedAt: this.stamp(),
        ...(verified ? { checkpoint: verified } : {}),
        ...(this.chainCheck.progress ? { chain: this.chainCheck.progress } : {}),
      };
      this.failure = undefined;
    } catch (e) {
      const error = FiscalError.is(e)
        ? e
        : new FiscalError(
            'UNKNOWN',
            `Consistency check "${step}" failed: ${(e as Error).message}`,
            undefined,
            {
              cause: e,
            },
          );
      if (step === 'journal' || step === 'chdu') this.stale = true;
      this.current = {
        ok: false,
        checkedAt: this.stamp(),
        cause: { check: step, resultCode: error.resultCode, message: error.message },
        ...(this.current.checkpoint && step !== 'journal' ? { checkpoint: this.current.checkpoint } : {}),
        ...(this.chainCheck.progress ? { chain: this.chainCheck.progress } : {}),
      };
      this.failure = error;
    }
    return this.current;
  }

  private indexCheckpoint(): { recordNo: number; hash: string } | undefined {
    const index = this.deps.index;
    const hash = index?.highWaterHash();
    const recordNo = index?.highWaterMark() ?? 0;
    const head = this.deps.journal.head();
    // Only a checkpoint the journal can still reach; an index from elsewhere is the index step's job.
    if (!hash || recordNo === 0 || !head || recordNo > head.recordNo) return undefined;
    return { recordNo, hash };
  }

  private async checkIndex(): Promise<void> {
    const index = this.deps.index;
    if (!index) return;
    if (indexInfo(this.deps.journal, index).state === 'current') return;
    await this.deps.syncIndex?.();
    const after = indexInfo(this.deps.journal, index);
    if (after.state !== 'current') {
      throw new FiscalError(
        'UNKNOWN',
        `The index (${after.state}, record ${after.highWaterMark}) does not match the CHDÚ; run kasa chdu reindex.`,
      );
    }
  }

  private stamp(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }
}

function unref(t: unknown): void {
  (t as { unref?: () => void }).unref?.();
}
