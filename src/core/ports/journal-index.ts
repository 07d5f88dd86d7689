import type {
  DocumentRecord,
  JournalRecord,
  LocationRecord,
  MerchantRecord,
  SfsExchangeRecord,
} from '../journal/records.js';

/**
 * The derived, rebuildable index over the journal (SQLite in production). It is fed every record
 * in journal order by `apply()`; `highWaterMark()` says how far it got, so a start-up can replay
 * what is missing. Everything it answers can be recomputed from the CHDÚ alone.
 */
export interface JournalIndex {
  /** Number of the last record applied (0 when empty). */
  highWaterMark(): number;
  /** Chain hash stored with the high-water mark (to detect an index of another CHDÚ). */
  highWaterHash(): string | undefined;
  /**
   * Chain hash of record 1 as applied: which journal the index was built from. An index ahead of
   * the CHDÚ with the CHDÚ's own record 1 proves acknowledged records went missing (ADR 0108).
   */
  genesisHash?(): string | undefined;
  /** Applies one record (must be `highWaterMark() + 1`), atomically with the new mark. */
  apply(record: JournalRecord, chainHash: string): void;
  /** Applies consecutive records in one transaction (replay and rebuild); same rules as apply(). */
  applyMany?(entries: ReadonlyArray<{ record: JournalRecord; chainHash: string }>): void;
  /** Drops everything (before a full rebuild). */
  clear(): void;

  currentMerchant(): { recordNo: number; merchant: MerchantRecord } | undefined;
  /** Highest sequenceId used in the given local month, 0 when none. */
  lastSequenceId(year: number, month: number): number;
  /** Highest documentNo used, 0 when none. */
  lastDocumentNo(): number;
  lastLocationNo(): number;

  findDocument(query: DocumentQuery): IndexedDocument | undefined;
  /** Documents not yet accepted by the SFS (offline or never sent), oldest first. */
  unsentDocuments(limit?: number): IndexedDocument[];
  /** Documents the SFS rejected that wait for repair, oldest first. */
  stuckDocuments(): IndexedDocument[];
  /**
   * The last fiscal document (any type) whose original was neither printed nor delivered
   * electronically (print state `pending` or `failed`). Only the last document counts (no fiscal
   * write follows an unprinted one), and a stuck document is not one: it must not be handed over.
   */
  unprintedDocument(): IndexedDocument | undefined;

  lastLocation(): IndexedLocation | undefined;
  unsentLocations(limit?: number): IndexedLocation[];
  stuckLocations(): IndexedLocation[];

  /** Stored settings: all settings records merged in order (a later value wins; `null` removes the key). */
  settings(): Record<string, unknown>;
  /** Number of records applied (all types; for chduinfo). */
  recordCount(): number;
  close(): void;
}

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
  | { by: 'last' };

/**
 * Where a document or location stands with the SFS, derived from its `sfs-exchange` and `repair`
 * records in journal order (`src/core/journal/derived-state.ts`):
 * - `unsent`: no exchange yet, or only unreachable / invalid-response ones (the offline queue),
 *   or repaired after a rejection;
 * - `online`: the first exchange was accepted;
 * - `offline-sent`: accepted after at least one earlier exchange;
 * - `stuck`: the last decisive answer was a rejection, a duplicate or an unverifiable response;
 *   waits for a repair record;
 * - `not-sent`: a document the law does not let the register send (VK/VY since Act 384/2025,
 *   when the `sendCashDocuments` setting is off): never queued, never sent.
 * `online`, `offline-sent` and `not-sent` are final: later exchanges only update
 * `lastExchange`/`sendingCount`.
 */
export type SendState = 'unsent' | 'online' | 'offline-sent' | 'stuck' | 'not-sent';
/**
 * What happened to a document's original, derived from its `print` records (copies change
 * nothing): `pending` until the first print record, `printed` / `electronic` (final) on success,
 * `failed` (with `lastPrinterCode`) after a failed attempt, until one succeeds.
 */
export type PrintState = 'pending' | 'printed' | 'failed' | 'electronic';

/** A document with everything later records said about it. */
export interface IndexedDocument {
  recordNo: number;
  document: DocumentRecord;
  sendState: SendState;
  /** The last exchange, if any attempt was made. */
  lastExchange?: SfsExchangeRecord;
  /** The accepted exchange (UID, ProcessDate). */
  accepted?: SfsExchangeRecord;
  sendingCount: number;
  printState: PrintState;
  lastPrinterCode?: number;
  /** Record number of the latest repair, if repaired. */
  repairedBy?: number;
}

export interface IndexedLocation {
  recordNo: number;
  location: LocationRecord;
  sendState: SendState;
  lastExchange?: SfsExchangeRecord;
  accepted?: SfsExchangeRecord;
  sendingCount: number;
}

/** Convenience for adapters: the record union narrowed by type. */
export type RecordOf<T extends JournalRecord['type']> = Extract<JournalRecord, { type: T }>;
