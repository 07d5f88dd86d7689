import { FiscalError } from '../fiscal-error.js';
import type { Journal } from '../ports/journal.js';

/** How far the whole-chain check got (ADR 0115). */
export interface ChainProgress {
  /** The last record the current pass verified, with its chain hash; absent at a pass's start. */
  cursor?: { recordNo: number; hash: string };
  /** When the current pass started (ISO). */
  passStartedAt?: string;
  /** When the last pass reached the head (ISO). */
  lastFullPassAt?: string;
}

/** Keeps {@link ChainProgress} across restarts; a lost or unreadable one only restarts the pass. */
export interface ChainProgressStore {
  load(): ChainProgress | undefined;
  save(progress: ChainProgress): void;
}

export interface ChainCheckDeps {
  journal: Pick<Journal, 'verify'>;
  /** Blocks per slice (default 20 000 ≈ 10 MB; 0 turns the whole-chain check off). */
  blocksPerRun?: number;
  store?: ChainProgressStore;
  /** ISO time stamps (the register's clock). */
  now: () => string;
}

/**
 * The whole chain, verified a slice at a time (ADR 0115): each `slice()` verifies up to
 * `blocksPerRun` blocks from where the last one stopped — framing, CRCs, numbering, every hash
 * link from a checkpoint — and starts again at record 1 after the head. Damage anywhere, an old
 * block included, is 201; the cursor then stays, so every later slice meets it again.
 */
export class ChainCheck {
  private current: ChainProgress | undefined;

  constructor(private readonly deps: ChainCheckDeps) {}

  /** Where the pass stands (undefined before the first slice). */
  get progress(): ChainProgress | undefined {
    return this.current;
  }

  async slice(): Promise<void> {
    const limitBlocks = this.deps.blocksPerRun ?? 20_000;
    if (limitBlocks <= 0) return;
    this.current ??= this.load();
    const progress = this.current;
    const passStartedAt = progress.passStartedAt ?? this.deps.now();
    const report = await this.deps.journal.verify(
      progress.cursor ? { checkpoint: progress.cursor, limitBlocks } : { limitBlocks },
    );
    if (!report.ok) {
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        `The CHDÚ's journal chain does not verify: ${report.problem}. kasa issues nothing until this is resolved: run kasa chdu verify and check the CHDÚ (its image file or device).`,
        { check: 'chain', ...(progress.cursor ? { verifiedThrough: progress.cursor.recordNo } : {}) },
      );
    }
    const next: ChainProgress =
      report.partial && report.lastRecordNo !== undefined && report.lastHash !== undefined
        ? {
            cursor: { recordNo: report.lastRecordNo, hash: report.lastHash },
            passStartedAt,
            ...(progress.lastFullPassAt ? { lastFullPassAt: progress.lastFullPassAt } : {}),
          }
        : { lastFullPassAt: this.deps.now() };
    this.current = next;
    try {
      this.deps.store?.save(next);
    } catch {
      // Only progress: a store that cannot be written (a full disk) restarts the pass after a restart.
    }
  }

  private load(): ChainProgress {
    try {
      return this.deps.store?.load() ?? {};
    } catch {
      return {};
    }
  }
}
