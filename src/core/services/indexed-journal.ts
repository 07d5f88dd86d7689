import { appendEach } from '../journal/append-each.js';
import type { JournalRecord, NewRecord } from '../journal/records.js';
import type { AppendOptions, Journal, JournalHead, VerifyOptions, VerifyReport } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';

export interface IndexedJournalHooks {
  /** Any error from the CHDÚ (the consistency check runs soon after one: `reportStorageError`). */
  onStorageError?: (error: unknown) => void;
  /** The record is on the CHDÚ but the index did not take it; the next check replays it. */
  onIndexError?: (error: unknown) => void;
  /** A record is durable on the CHDÚ (the rollback guard moves its mark: ADR 0118). */
  onAppended?: () => void;
}

/**
 * The journal the use cases get: every record appended is also applied to the index, and every
 * storage error is reported to the consistency check. The CHDÚ write comes first; an index that
 * fails to follow is repaired by replay (the CHDÚ is the truth), never the other way round.
 */
export class IndexedJournal implements Journal {
  constructor(
    private readonly journal: Journal,
    private readonly index: JournalIndex,
    private readonly hooks: IndexedJournalHooks = {},
  ) {}

  async append(record: NewRecord, options?: AppendOptions): Promise<JournalRecord> {
    let written: JournalRecord;
    try {
      written = await this.journal.append(record, options);
    } catch (e) {
      this.hooks.onStorageError?.(e);
      const recordNo = (e as { details?: { recordNo?: unknown } }).details?.recordNo;
      // Written but not printed through the CHDÚ: the record exists, so index it all the same.
      if (typeof recordNo === 'number') {
        await this.indexUpTo(recordNo);
        this.hooks.onAppended?.();
      }
      throw e;
    }
    this.applyToIndex(written);
    this.hooks.onAppended?.();
    return written;
  }

  /** Whether `appendMany` below is one device write (the journal underneath says; ADR 1105). */
  manyInOneWrite(): boolean {
    return this.journal.appendMany !== undefined && (this.journal.manyInOneWrite?.() ?? false);
  }

  /**
   * Several records in one write where the journal can (ADR 1105), each applied to the index in
   * order; without `appendMany` underneath they are appended one after the other. After a failure
   * the records the CHDÚ took before it are indexed all the same.
   */
  async appendMany(records: readonly NewRecord[]): Promise<JournalRecord[]> {
    const inner = this.journal;
    if (!inner.appendMany) return appendEach((record) => this.append(record), records);
    let written: JournalRecord[];
    try {
      written = await inner.appendMany(records);
    } catch (e) {
      this.hooks.onStorageError?.(e);
      const headNo = inner.head()?.recordNo ?? 0;
      if (headNo > this.index.highWaterMark()) {
        for (let no = this.index.highWaterMark() + 1; no <= headNo; no++) await this.indexUpTo(no);
        this.hooks.onAppended?.();
      }
      throw e;
    }
    this.applyAllToIndex(written);
    if (written.length > 0) this.hooks.onAppended?.();
    return written;
  }

  records(fromRecordNo?: number): AsyncIterable<JournalRecord> {
    return this.journal.records(fromRecordNo);
  }

  async get(recordNo: number): Promise<JournalRecord | undefined> {
    try {
      return await this.journal.get(recordNo);
    } catch (e) {
      this.hooks.onStorageError?.(e);
      throw e;
    }
  }

  head(): JournalHead | undefined {
    return this.journal.head();
  }

  async verify(options?: VerifyOptions): Promise<VerifyReport> {
    try {
      return await this.journal.verify(options);
    } catch (e) {
      this.hooks.onStorageError?.(e);
      throw e;
    }
  }

  /**
   * The records of one multi-record write, in one index transaction where the index can (one
   * commit for a window of the offline sender's records instead of one each, capability 13); if
   * that fails, one by one as before, so each failing record is reported as `append` reports it.
   */
  private applyAllToIndex(written: readonly JournalRecord[]): void {
    const first = written[0];
    if (
      this.index.applyMany &&
      written.length > 1 &&
      first !== undefined &&
      first.recordNo === this.index.highWaterMark() + 1 &&
      written.every((r, i) => r.recordNo === first.recordNo + i && r.chainHash !== undefined)
    ) {
      try {
        this.index.applyMany(written.map((record) => ({ record, chainHash: record.chainHash as string })));
        return;
      } catch {
        // Rolled back whole: applied one by one below, each failure reported on its own.
      }
    }
    for (const record of written) {
      if (record.recordNo > this.index.highWaterMark()) this.applyToIndex(record);
    }
  }

  private applyToIndex(record: JournalRecord): void {
    try {
      if (record.recordNo === this.index.highWaterMark() + 1 && record.chainHash !== undefined) {
        this.index.apply(record, record.chainHash);
      } else {
        throw new Error(`index at record ${this.index.highWaterMark()}, journal wrote ${record.recordNo}`);
      }
    } catch (e) {
      this.hooks.onIndexError?.(e);
    }
  }

  private async indexUpTo(recordNo: number): Promise<void> {
    try {
      const record = await this.journal.get(recordNo);
      if (record) this.applyToIndex(record);
    } catch (e) {
      this.hooks.onIndexError?.(e);
    }
  }
}
