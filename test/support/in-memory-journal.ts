import { createHash } from 'node:crypto';
import { FiscalError } from '../../src/core/fiscal-error.js';
import type { JournalRecord, MerchantRecord, NewRecord } from '../../src/core/journal/records.js';
import { RECORD_VERSIONS } from '../../src/core/journal/records.js';
import type { Clock } from '../../src/core/ports/clock.js';
import type { AppendOptions, Journal, JournalHead, VerifyReport } from '../../src/core/ports/journal.js';
import type {
  DocumentQuery,
  IndexedDocument,
  IndexedLocation,
  JournalIndex,
} from '../../src/core/ports/journal-index.js';
import { formatSfsDateTime } from '../../src/core/time.js';

/**
 * TEST DOUBLE of the {@link Journal} port for service tests, until the CHDÚ journal is on main:
 * records are JSON-encoded into one growing byte array (so tests can search "the journal bytes"),
 * numbered from 1 and hash-chained with SHA-256. `failNextAppend` makes the next append reject
 * with 201 before anything is written, as the real journal does for a failed write.
 */
export class InMemoryJournalDouble implements Journal {
  readonly #records: JournalRecord[] = [];
  readonly #chunks: Uint8Array[] = [];
  readonly #hashes: string[] = [];
  readonly #clock: Clock;
  #failNext: FiscalError | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  failNextAppend(error = new FiscalError('CHDU_WRITE_ERROR', 'simulated write error')): void {
    this.#failNext = error;
  }

  async append(record: NewRecord, _options?: AppendOptions): Promise<JournalRecord> {
    if (this.#failNext) {
      const e = this.#failNext;
      this.#failNext = undefined;
      throw e;
    }
    const full = {
      type: record.type,
      version: RECORD_VERSIONS[record.type],
      recordNo: this.#records.length + 1,
      address: this.#chunks.reduce((n, c) => n + c.length, 0),
      writtenAt: formatSfsDateTime(this.#clock.now()),
      body: structuredClone(record.body),
    } as JournalRecord;
    const bytes = new TextEncoder().encode(JSON.stringify(full));
    const previous = this.#hashes.at(-1) ?? '';
    this.#hashes.push(createHash('sha256').update(previous).update(bytes).digest('hex'));
    this.#chunks.push(bytes);
    this.#records.push(full);
    return structuredClone(full);
  }

  async *records(fromRecordNo = 1): AsyncIterable<JournalRecord> {
    for (const r of this.#records.slice(fromRecordNo - 1)) yield structuredClone(r);
  }

  async get(recordNo: number): Promise<JournalRecord | undefined> {
    const r = this.#records[recordNo - 1];
    return r ? structuredClone(r) : undefined;
  }

  head(): JournalHead | undefined {
    const last = this.#records.at(-1);
    if (!last) return undefined;
    return { recordNo: last.recordNo, address: last.address, hash: this.#hashes.at(-1)!, type: last.type };
  }

  async verify(): Promise<VerifyReport> {
    return { ok: true, records: this.#records.length, blocks: this.#chunks.length };
  }

  /** The chain hash after record `recordNo` (what JournalIndex.apply wants with it). */
  hashAfter(recordNo: number): string {
    const hash = this.#hashes[recordNo - 1];
    if (hash === undefined) throw new Error(`no record ${recordNo}`);
    return hash;
  }

  /** Every byte written so far. */
  bytes(): Uint8Array {
    return Buffer.concat(this.#chunks);
  }
}

/**
 * TEST DOUBLE of the {@link JournalIndex} port: keeps the applied records in memory and answers the
 * merchant, numbering, settings and count queries from them. Document/location queries are not
 * needed by the merchant services and throw, so a test cannot pass by accident through them.
 */
export class InMemoryJournalIndexDouble implements JournalIndex {
  #records: JournalRecord[] = [];
  #hash: string | undefined;

  highWaterMark(): number {
    return this.#records.length;
  }

  highWaterHash(): string | undefined {
    return this.#hash;
  }

  apply(record: JournalRecord, chainHash: string): void {
    if (record.recordNo !== this.highWaterMark() + 1) {
      throw new Error(`index: record ${record.recordNo} applied after ${this.highWaterMark()}`);
    }
    this.#records.push(structuredClone(record));
    this.#hash = chainHash;
  }

  clear(): void {
    this.#records = [];
    this.#hash = undefined;
  }

  currentMerchant(): { recordNo: number; merchant: MerchantRecord } | undefined {
    for (let i = this.#records.length - 1; i >= 0; i--) {
      const r = this.#records[i]!;
      if (r.type === 'merchant') return { recordNo: r.recordNo, merchant: structuredClone(r.body) };
    }
    return undefined;
  }

  lastSequenceId(): number {
    return 0;
  }

  lastDocumentNo(): number {
    return this.#records.filter((r) => r.type === 'document').length;
  }

  lastLocationNo(): number {
    return this.#records.filter((r) => r.type === 'location').length;
  }

  findDocument(_query: DocumentQuery): IndexedDocument | undefined {
    throw new Error('findDocument is not part of this test double');
  }

  unsentDocuments(): IndexedDocument[] {
    throw new Error('unsentDocuments is not part of this test double');
  }

  stuckDocuments(): IndexedDocument[] {
    throw new Error('stuckDocuments is not part of this test double');
  }

  unprintedDocument(): IndexedDocument | undefined {
    throw new Error('unprintedDocument is not part of this test double');
  }

  lastLocation(): IndexedLocation | undefined {
    throw new Error('lastLocation is not part of this test double');
  }

  unsentLocations(): IndexedLocation[] {
    throw new Error('unsentLocations is not part of this test double');
  }

  stuckLocations(): IndexedLocation[] {
    throw new Error('stuckLocations is not part of this test double');
  }

  settings(): Record<string, unknown> {
    const merged: Record<string, unknown> = {};
    for (const r of this.#records) if (r.type === 'settings') Object.assign(merged, r.body.changes);
    return merged;
  }

  recordCount(): number {
    return this.#records.length;
  }

  close(): void {}
}
