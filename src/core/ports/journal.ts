import type { JournalRecord, NewRecord, RecordType } from '../journal/records.js';

/**
 * The fiscal journal: typed records framed over the CHDÚ's write-once blocks, hash-chained.
 * The CHDÚ is the truth; everything else (the index) is derived from it.
 *
 * append() rejects with FiscalError 203 CHDU_RECORD_SIZE_LIMIT (record too large, checked before
 * anything is written), 202 CHDU_WRITE_LIMIT (no room for the whole record, checked before
 * anything is written), 201 CHDU_WRITE_ERROR, 200 CHDU_NOT_CONNECTED.
 */
export interface Journal {
  /** Appends one record; resolves after every block of it is durable. */
  append(record: NewRecord, options?: AppendOptions): Promise<JournalRecord>;
  /**
   * Optional: appends several records in order, in as few durable writes as the CHDÚ allows (one
   * write and one flush on the image file, ADR 1105); resolves after all of them are durable.
   * Rejects with the codes of `append`, checked for all records before anything is written; after
   * a failed write, the records written before it are in the journal (`head()` names the last).
   */
  appendMany?(records: readonly NewRecord[]): Promise<JournalRecord[]>;
  /**
   * Optional: whether `appendMany` puts several records down in ONE device write (the image file's
   * `writeMany`; a single record over its 256 blocks takes several, ADR 0121). False or absent: they go one write after another (a CHDU Lite device), so a
   * writer holding the write lock keeps its batches short (ADR 1105).
   */
  manyInOneWrite?(): boolean;
  /** Reads records in order starting at `fromRecordNo` (default 1). */
  records(fromRecordNo?: number): AsyncIterable<JournalRecord>;
  /** Reads one record by number. */
  get(recordNo: number): Promise<JournalRecord | undefined>;
  /** The last record written (number, first block address, chain hash), or undefined when empty. */
  head(): JournalHead | undefined;
  /**
   * Verifies framing, CRCs and the hash chain from `fromRecordNo` to the head; never throws for
   * bad data (a device that does not answer still rejects with its code, e.g. 200).
   */
  verify(options?: VerifyOptions): Promise<VerifyReport>;
}

export interface VerifyOptions {
  fromRecordNo?: number;
  /**
   * A chain hash known to be good (e.g. the index's high-water mark or the last verified head):
   * verification starts after it and first checks that the CHDÚ still has that hash there.
   */
  checkpoint?: { recordNo: number; hash: string };
  /**
   * Stop at the first record boundary after reading this many blocks: the report is then
   * `partial` and its `lastRecordNo`/`lastHash` are the checkpoint to resume from (the running
   * consistency check verifies the whole chain this way, a slice per run: ADR 0115).
   */
  limitBlocks?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface AppendOptions {
  /**
   * Bytes to forward to the printer behind the CHDÚ with the record (WRITE_PRINT_OFFSET blocks
   * after the record's own blocks, at most 64 KiB, else 203). If printing fails the record is
   * already written: append rejects with the cause's code (100 PRINTER_NOT_READY when the printer is
   * not ready) and `details.recordNo` names the written record.
   */
  print?: Uint8Array;
}

export interface JournalHead {
  recordNo: number;
  address: number;
  /** SHA-256 chain hash after this record, hex. */
  hash: string;
  type: RecordType;
  /** When the record was written (SFS dateTime), as in {@link JournalRecord.writtenAt}. */
  writtenAt?: string;
  /** Number of blocks the record occupies (print blocks not counted). */
  blocks?: number;
}

export interface VerifyReport {
  ok: boolean;
  records: number;
  blocks: number;
  /** The first problem found, in words (record number and cause). */
  problem?: string;
  /** Records cut short by a failed write and written again under the same number (not a problem). */
  fragments?: number;
  /** The last record verified (the head when ok). */
  lastRecordNo?: number;
  /** Its chain hash: a checkpoint for the next verification. */
  lastHash?: string;
  /** True when `limitBlocks` stopped the verification before the head. */
  partial?: boolean;
}
