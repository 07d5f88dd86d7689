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
  /** Applies one record (must be `highWaterMark() + 1`), atomically with the new mark. */
  apply(record: JournalRecord, chainHash: string): void;
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
  /** The last fiscal document (any type) whose original was neither printed nor delivered electronically. */
  unprintedDocument(): IndexedDocument | undefined;

  lastLocation(): IndexedLocation | undefined;
  unsentLocations(limit?: number): IndexedLocation[];
  stuckLocations(): IndexedLocation[];

  /** Stored settings (merged from all settings records). */
  settings(): Record<string, unknown>;
  /** Number of records per type (for chduinfo). */
  recordCount(): number;
  close(): void;
}

export type DocumentQuery =
  | { by: 'documentNo'; documentNo: number }
  | { by: 'sequenceId'; sequenceId: number; month: number; year: number }
  | { by: 'externalId'; externalId: string }
  | { by: 'okp'; okp: string }
  | { by: 'pkp'; pkp: string }
  | { by: 'uuid'; uuid: string }
  | { by: 'idempotencyKey'; key: string }
  | { by: 'last' };

export type SendState = 'unsent' | 'online' | 'offline-sent' | 'stuck';
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
