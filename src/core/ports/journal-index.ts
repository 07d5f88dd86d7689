import type { JournalRecord } from '../journal/records.js';
import type { DocumentIndex } from './document-index.js';
import type { LocationIndex } from './location-index.js';
import type { LogoIndex } from './logo-index.js';
import type { MerchantIndex } from './merchant-index.js';
import type { OfflineReportIndex } from './offline-report-index.js';
import type { SendQueueIndex } from './send-queue-index.js';
import type { SettingsIndex } from './settings-index.js';

export type {
  IndexedDocument,
  IndexedLocation,
  PrintState,
  QueueEntry,
  RecordOf,
  SendState,
} from './indexed-records.js';

/**
 * Keeping the index in step with the journal. It is fed every record in journal order by
 * `apply()`; `highWaterMark()` says how far it got, so a start-up can replay what is missing.
 */
export interface IndexMaintenance {
  /** Number of the last record applied (0 when empty). */
  highWaterMark(): number;
  /** Chain hash stored with the high-water mark (to detect an index of another CHDÚ). */
  highWaterHash(): string | undefined;
  /**
   * Chain hash of record 1 as applied: which journal the index was built from. An index ahead of
   * the CHDÚ with the CHDÚ's own record 1 proves acknowledged records went missing (ADR 0108).
   */
  genesisHash?(): string | undefined;
  /**
   * Applies one record (must be `highWaterMark() + 1`), atomically with the new mark. Throws
   * FiscalError 202 CHDU_WRITE_LIMIT when the disk under the index is full, 201 CHDU_WRITE_ERROR
   * when it cannot be written otherwise (ADR 0116); nothing of the record is applied then.
   */
  apply(record: JournalRecord, chainHash: string): void;
  /** Applies consecutive records in one transaction (replay and rebuild); same rules as apply(). */
  applyMany?(entries: ReadonlyArray<{ record: JournalRecord; chainHash: string }>): void;
  /** Drops everything (before a full rebuild). */
  clear(): void;
  /** Number of records applied (all types; for chduinfo). */
  recordCount(): number;
  close(): void;
}

/**
 * The derived, rebuildable index over the journal (SQLite in production). Everything it answers
 * can be recomputed from the CHDÚ alone. It is one object, but split by role (ADR 0700): a use
 * case depends on the roles it reads (`DocumentIndex`, `SendQueueIndex`, `LocationIndex`,
 * `OfflineReportIndex`, `SettingsIndex`, `MerchantIndex`, `LogoIndex`), not on the whole index.
 */
export interface JournalIndex
  extends IndexMaintenance,
    MerchantIndex,
    DocumentIndex,
    SendQueueIndex,
    LocationIndex,
    OfflineReportIndex,
    SettingsIndex,
    LogoIndex {}

export type DocumentQuery =
  | { by: 'documentNo'; documentNo: number }
  | { by: 'sequenceId'; sequenceId: number; month: number; year: number }
  /** The POS's id; when several documents carry it, the last one. */
  | { by: 'externalId'; externalId: string }
  /** OKP / PKP, the original ones and those of any repair. */
  | { by: 'okp'; okp: string }
  | { by: 'pkp'; pkp: string }
  /** The eKasa receipt id (`O-…`) from the accepted exchange. */
  | { by: 'uuid'; uuid: string }
  | { by: 'idempotencyKey'; key: string }
  /** The document a QR payment id (`QR-…`) paid (ADR 0907): one at most. */
  | { by: 'qrPaymentId'; id: string }
  /** The paragón entered under this key (`paragonKey`, ADR 0431): one at most. */
  | { by: 'paragon'; key: string }
  | { by: 'last' };
