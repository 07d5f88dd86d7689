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
  /** Reads records in order starting at `fromRecordNo` (default 1). */
  records(fromRecordNo?: number): AsyncIterable<JournalRecord>;
  /** Reads one record by number. */
  get(recordNo: number): Promise<JournalRecord | undefined>;
  /** The last record written (number, first block address, chain hash), or undefined when empty. */
  head(): JournalHead | undefined;
  /** Verifies framing, CRCs and the hash chain from `fromRecordNo`; never throws for bad data. */
  verify(options?: {
    fromRecordNo?: number;
    onProgress?: (done: number, total: number) => void;
  }): Promise<VerifyReport>;
}

export interface AppendOptions {
  /** Bytes to forward to the printer behind the CHDÚ with the record (WRITE_PRINT). */
  print?: Uint8Array;
}

export interface JournalHead {
  recordNo: number;
  address: number;
  /** SHA-256 chain hash after this record, hex. */
  hash: string;
  type: RecordType;
}

export interface VerifyReport {
  ok: boolean;
  records: number;
  blocks: number;
  /** The first problem found, in words (record number and cause). */
  problem?: string;
}
