import { FiscalError } from '../fiscal-error.js';
import type { Chdu } from '../ports/chdu.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { AppendOptions, Journal, JournalHead, VerifyOptions, VerifyReport } from '../ports/journal.js';
import { SerialQueue } from '../serial-queue.js';
import { fromHex, GENESIS_HASH, type Sha256, sameBytes, toHex } from './hash-chain.js';
import {
  BlockCursor,
  findLastRecord,
  findWrittenEnd,
  locateRecord,
  type ReadItem,
  readItems,
} from './journal-reader.js';
import { missingAcknowledgedRecords } from './missing-records.js';
import {
  BLOCK_PREFIX_SIZE,
  encodeRecord,
  MAX_PRINT_BYTES,
  RECORD_HEADER_SIZE,
  splitIntoBlocks,
} from './record-codec.js';
import { type JournalRecord, type NewRecord, RECORD_VERSIONS } from './records.js';
import { WrittenAtFormatter } from './written-at.js';

export interface ChduJournalOptions {
  sha256: Sha256;
  clock?: Clock;
  /** Blocks per READ while streaming (default 256). */
  readBatch?: number;
  /**
   * The last record acknowledged to a caller as far as anyone else knows (the index's high-water
   * mark). While the head read from the CHDÚ is below it, append refuses with 201 instead of
   * giving a lost record's number to a new one (ADR 0108).
   */
  acknowledgedRecordNo?: () => number;
  /**
   * Opened beside the CHDÚ's writer (`kasa chdu verify|info|export` next to a running `kasa
   * serve`, whose image is read, never locked): another process may append at any moment, so
   * verify() takes the head from the device at the same moment as the device's end instead of
   * the head read at open. Without it a record the writer added meanwhile reads as "the CHDÚ
   * ends after the journal head".
   */
  besideWriter?: boolean;
}

type RecordItem = Extract<ReadItem, { kind: 'record' }>;

const utf8 = new TextEncoder();
/** A first block must hold the block prefix and the whole record header (ADR 0100). */
const MIN_BLOCK_DATA_SIZE = 64;
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The most blocks one `writeMany` takes (the `Chdu` port: 1–256). */
export const MAX_BLOCKS_PER_WRITE = 256;

/**
 * The fiscal journal on a CHDÚ (ADR 0100, 0101, 0102): typed records framed over write-once
 * blocks, hash-chained. Appends are serialised so a record's blocks are consecutive. On open the
 * head is found by reading the CHDÚ itself; nothing about the journal lives anywhere else.
 */
export class ChduJournal implements Journal {
  private readonly queue = new SerialQueue();
  private readonly times = new WrittenAtFormatter();
  private current: JournalHead | undefined;
  /** Set after a failed append: the CHDÚ may hold more than we know; re-read the head first. */
  private stale = false;
  private known = true;

  private constructor(
    readonly chdu: Chdu,
    private readonly options: ChduJournalOptions,
  ) {}

  /** Opens the journal on `chdu`, finding the head by reading the device. */
  static async open(chdu: Chdu, options: ChduJournalOptions): Promise<ChduJournal> {
    const journal = new ChduJournal(chdu, options);
    await journal.refresh();
    return journal;
  }

  /**
   * A journal whose head is not read yet (the CHDÚ may be unplugged at start): `ready` is false
   * until refresh() succeeds; append() and verify() read the head first.
   */
  static unopened(chdu: Chdu, options: ChduJournalOptions): ChduJournal {
    const journal = new ChduJournal(chdu, options);
    journal.stale = true;
    journal.known = false;
    return journal;
  }

  /** False until the head has been read from the CHDÚ (see {@link unopened}). */
  get ready(): boolean {
    return this.known;
  }

  head(): JournalHead | undefined {
    return this.current;
  }

  /** Re-reads the head from the CHDÚ (after a write error, or beside another writer). */
  refresh(): Promise<JournalHead | undefined> {
    return this.queue.run(async () => {
      this.current = await this.readHead();
      this.stale = false;
      this.known = true;
      return this.current;
    });
  }

  append(record: NewRecord, options: AppendOptions = {}): Promise<JournalRecord> {
    return this.queue.run(async () => {
      const [written] = await this.appendRecords([record], options.print);
      return written as JournalRecord;
    });
  }

  /** Whether `appendMany` puts records down in one device write: the CHDÚ has `writeMany`. */
  manyInOneWrite(): boolean {
    return this.chdu.writeMany !== undefined;
  }

  /**
   * Several records, chained in order, in as few durable writes as the CHDÚ allows (ADR 1105): with
   * `writeMany` (the image file) every run of whole records up to {@link MAX_BLOCKS_PER_WRITE}
   * blocks is one write and one flush, which a crash leaves whole or not at all (ADR 1101); a CHDU
   * Lite device gets them record after record. Refused before anything is written (203, 202) like
   * `append`. After a failed write the records written before it are in the head.
   */
  appendMany(records: readonly NewRecord[]): Promise<JournalRecord[]> {
    if (records.length === 0) return Promise.resolve([]);
    return this.queue.run(() => this.appendRecords(records));
  }

  /**
   * One record's blocks in consecutive `writeMany` calls of at most {@link MAX_BLOCKS_PER_WRITE}
   * (ADR 0121). Each part is durable before the next starts; the parts must land one after the
   * other, as the block-by-block path checks. Resolves with the record's first address.
   */
  private async writeInParts(recordNo: number, blocks: readonly Uint8Array[]): Promise<number> {
    const writeMany = this.chdu.writeMany!.bind(this.chdu);
    const first = await writeMany(blocks.slice(0, MAX_BLOCKS_PER_WRITE));
    for (let from = MAX_BLOCKS_PER_WRITE; from < blocks.length; from += MAX_BLOCKS_PER_WRITE) {
      const at = await writeMany(blocks.slice(from, from + MAX_BLOCKS_PER_WRITE));
      if (at !== first + from) {
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `The CHDÚ stored block ${from} of record ${recordNo} out of order.`,
        );
      }
    }
    return first;
  }

  private async appendRecords(records: readonly NewRecord[], print?: Uint8Array): Promise<JournalRecord[]> {
    if (this.stale) {
      this.current = await this.readHead();
      this.stale = false;
      this.known = true;
    }
    const acknowledged = this.options.acknowledgedRecordNo?.() ?? 0;
    const headNo = this.current?.recordNo ?? 0;
    if (acknowledged > headNo) throw missingAcknowledgedRecords(headNo, acknowledged);
    const status = await this.chdu.status();
    const bds = status.blockDataSize;
    if (bds < MIN_BLOCK_DATA_SIZE) {
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        `The CHDÚ's blocks hold ${bds} bytes; the journal needs ${MIN_BLOCK_DATA_SIZE}.`,
      );
    }
    const writtenAtMs = this.now().getTime();
    const writtenAt = this.times.format(writtenAtMs);
    let recordNo = this.current?.recordNo ?? 0;
    let prevHash = this.current ? fromHex(this.current.hash) : GENESIS_HASH;
    // ADR 0102: size (203) and room (202) of every record are checked before the first block is written.
    const encoded = records.map((record) => {
      recordNo += 1;
      const version = RECORD_VERSIONS[record.type];
      const body = utf8.encode(JSON.stringify(record.body));
      const bytes = encodeRecord({ type: record.type, version, recordNo, writtenAtMs, prevHash }, body, bds);
      const hash = this.options.sha256(bytes);
      prevHash = hash;
      return { record, version, recordNo, hash: toHex(hash), blocks: splitIntoBlocks(bytes, recordNo, bds) };
    });
    if (print && print.length > MAX_PRINT_BYTES) {
      throw new FiscalError('CHDU_RECORD_SIZE_LIMIT', `Print data over ${MAX_PRINT_BYTES} bytes.`, {
        size: print.length,
        limit: MAX_PRINT_BYTES,
      });
    }
    const last = encoded.at(-1)!;
    const printBlocks = print ? splitIntoBlocks(print, last.recordNo, bds, true) : [];
    if (status.deviceLocked) throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is permanently locked.');
    if (!status.storageOk) throw new FiscalError('CHDU_WRITE_ERROR', 'The CHDÚ reports its storage not OK.');
    const needed = encoded.reduce((n, e) => n + e.blocks.length, 0) + printBlocks.length;
    if (status.freeBlocks < needed) {
      throw new FiscalError(
        'CHDU_WRITE_LIMIT',
        `The CHDÚ has ${status.freeBlocks} free blocks; ${records.length > 1 ? 'the records need' : 'the record needs'} ${needed}.`,
        {
          freeBlocks: status.freeBlocks,
          needed,
        },
      );
    }
    const written: JournalRecord[] = [];
    const done = (e: (typeof encoded)[number], address: number): void => {
      this.current = {
        recordNo: e.recordNo,
        address,
        hash: e.hash,
        type: e.record.type,
        writtenAt,
        blocks: e.blocks.length,
      };
      written.push({
        ...e.record,
        version: e.version,
        recordNo: e.recordNo,
        address,
        writtenAt,
        chainHash: e.hash,
      } as JournalRecord);
    };
    try {
      if (this.chdu.writeMany) {
        // ADR 1101/1105: whole records, as many as fit, in one durable write.
        for (let i = 0; i < encoded.length; ) {
          const run = [encoded[i]!];
          let blocks = encoded[i]!.blocks.length;
          while (
            i + run.length < encoded.length &&
            blocks + encoded[i + run.length]!.blocks.length <= MAX_BLOCKS_PER_WRITE
          ) {
            blocks += encoded[i + run.length]!.blocks.length;
            run.push(encoded[i + run.length]!);
          }
          if (blocks > MAX_BLOCKS_PER_WRITE) {
            // ADR 0121: a record larger than one write (a document of hundreds of items) goes down
            // in consecutive writes; a crash between them leaves a fragment, as a CHDU Lite device
            // can (ADR 0114: the next record takes its number).
            done(run[0]!, await this.writeInParts(run[0]!.recordNo, run[0]!.blocks));
            i += 1;
            continue;
          }
          let address = await this.chdu.writeMany(run.flatMap((e) => e.blocks));
          for (const e of run) {
            done(e, address);
            address += e.blocks.length;
          }
          i += run.length;
        }
      } else {
        for (const e of encoded) {
          let address = -1;
          for (const [i, block] of e.blocks.entries()) {
            const at = await this.chdu.write(block);
            if (i === 0) address = at;
            else if (at !== address + i) {
              throw new FiscalError(
                'CHDU_WRITE_ERROR',
                `The CHDÚ stored block ${i} of record ${e.recordNo} out of order.`,
              );
            }
          }
          done(e, address);
        }
      }
    } catch (e) {
      this.stale = true;
      throw e;
    }
    const { address } = this.current!;
    let printedBytes = 0;
    for (const pb of printBlocks) {
      try {
        await this.chdu.writeAndPrint(pb, BLOCK_PREFIX_SIZE);
        printedBytes += pb.length - BLOCK_PREFIX_SIZE;
      } catch (e) {
        this.stale = true;
        const code = FiscalError.is(e) ? e.resultName : 'PRINTER_NOT_READY';
        throw new FiscalError(
          code,
          `Record ${last.recordNo} is written; printing it through the CHDÚ failed.`,
          // printedBytes: print data the CHDÚ acknowledged (forwarded) before the failure.
          { recordNo: last.recordNo, address, printedBytes },
          { cause: e },
        );
      }
    }
    return written;
  }

  async *records(fromRecordNo = 1): AsyncIterable<JournalRecord> {
    const start = fromRecordNo <= 1 ? 0 : await this.locate(fromRecordNo);
    let expected: number | undefined;
    let prev: Uint8Array | undefined;
    for await (const item of readItems(new BlockCursor(this.chdu, start, this.options.readBatch ?? 256))) {
      if (item.kind === 'damaged') {
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `Journal damaged at block ${item.address}: ${item.reason}.`,
        );
      }
      if (item.kind !== 'record' || item.header.recordNo < fromRecordNo) continue;
      const n = item.header.recordNo;
      if (expected !== undefined && n !== expected) {
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `Journal record ${expected} is missing (found ${n} at block ${item.address}).`,
        );
      }
      if (expected === undefined && n !== fromRecordNo) {
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `Journal record ${fromRecordNo} is missing (found ${n} at block ${item.address}).`,
        );
      }
      // The chain is checked on the way too, so nothing is indexed from a broken journal.
      const link = prev ?? (n === 1 ? GENESIS_HASH : undefined);
      if (link && !sameBytes(item.header.prevHash, link)) {
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `Journal hash chain broken at record ${n} (block ${item.address}).`,
        );
      }
      expected = n + 1;
      const hash = this.options.sha256(item.bytes);
      prev = hash;
      yield this.toRecord(item, hash);
    }
  }

  async get(recordNo: number): Promise<JournalRecord | undefined> {
    if (!Number.isInteger(recordNo) || recordNo < 1) return undefined;
    const item = await this.findRecord(recordNo);
    return item ? this.toRecord(item) : undefined;
  }

  async verify(options: VerifyOptions = {}): Promise<VerifyReport> {
    // Snapshot the head and the device's end together, so records appended meanwhile are left out.
    // This journal's own appends wait in the queue; another process's do not (besideWriter), so
    // then the head is the last complete record before that same end.
    if (!this.known) await this.refresh();
    const snap = await this.queue.run(async () => {
      const used = await this.writtenEnd();
      if (this.options.besideWriter) {
        this.current = await this.readHead(used);
        this.stale = false;
        this.known = true;
      }
      return { head: this.current, used };
    });
    const checkpoint = options.checkpoint;
    const from = checkpoint ? checkpoint.recordNo + 1 : Math.max(1, options.fromRecordNo ?? 1);
    const report: VerifyReport = { ok: true, records: 0, blocks: 0, fragments: 0 };
    const fail = (problem: string): VerifyReport => ({ ...report, ok: false, problem });
    let prev = GENESIS_HASH;
    let start = 0;
    const headNo = snap.head?.recordNo ?? 0;
    // A start after the head asks for an empty range, as records(from) then yields nothing: that
    // is not damage. A checkpoint after the head is (the CHDÚ lost records it once had).
    if (!checkpoint && from > headNo + 1) return report;
    if (from > 1) {
      const before = await this.findRecord(from - 1, snap.used);
      // The chain into record `from` starts from the hash of the record before it.
      if (!before) {
        return fail(
          checkpoint
            ? `record ${from - 1} (the checkpoint) is not on the CHDÚ`
            : `record ${from - 1} (the one before record ${from}, where the check starts) is not on the CHDÚ`,
        );
      }
      prev = this.options.sha256(before.bytes);
      if (checkpoint && toHex(prev) !== checkpoint.hash) {
        return fail(`record ${checkpoint.recordNo} does not have the checkpoint's chain hash`);
      }
      start = before.address + before.blocks;
      report.lastRecordNo = from - 1;
      report.lastHash = toHex(prev);
    }
    let expected = from;
    const total = snap.used - start;
    for await (const item of readItems(
      new BlockCursor(this.chdu, start, this.options.readBatch ?? 256, snap.used),
    )) {
      report.blocks += item.kind === 'record' || item.kind === 'fragment' ? item.blocks : 1;
      options.onProgress?.(report.blocks, total);
      if (item.kind === 'print') continue;
      if (item.kind === 'damaged') return fail(`block ${item.address}: ${item.reason}`);
      if (item.kind === 'fragment') {
        if (item.recordNo !== expected)
          return fail(`stray fragment of record ${item.recordNo} at block ${item.address}`);
        report.fragments = (report.fragments ?? 0) + 1;
        continue;
      }
      const n = item.header.recordNo;
      if (n !== expected)
        return fail(`record ${expected} is missing: found record ${n} at block ${item.address}`);
      if (!sameBytes(item.header.prevHash, prev))
        return fail(`hash chain broken at record ${n} (block ${item.address})`);
      prev = this.options.sha256(item.bytes);
      report.records++;
      report.lastRecordNo = n;
      report.lastHash = toHex(prev);
      expected = n + 1;
      // ADR 0115: a slice of the chain; the caller resumes from lastRecordNo/lastHash.
      if (
        options.limitBlocks !== undefined &&
        report.blocks >= options.limitBlocks &&
        n < (snap.head?.recordNo ?? 0)
      )
        return { ...report, partial: true };
    }
    if (expected - 1 !== headNo && !(from > headNo && report.records === 0)) {
      return fail(`the CHDÚ ends at record ${expected - 1} but the journal head is record ${headNo}`);
    }
    if (snap.head && report.lastHash !== undefined && report.lastHash !== snap.head.hash) {
      return fail(`the head record ${headNo} on the CHDÚ differs from the one this journal wrote`);
    }
    return report;
  }

  private async readHead(end?: number): Promise<JournalHead | undefined> {
    const last = await findLastRecord(this.chdu, end ?? (await this.writtenEnd()));
    if (!last) return undefined;
    const h = last.header;
    return {
      recordNo: h.recordNo,
      address: last.address,
      hash: toHex(this.options.sha256(last.bytes)),
      type: h.type,
      writtenAt: this.times.format(h.writtenAtMs),
      blocks: last.blocks,
    };
  }

  /** The first never-written address; capacity − free is only the hint (ADR 0109). */
  private async writtenEnd(): Promise<number> {
    const s = await this.chdu.status();
    return findWrittenEnd(this.chdu, s.capacityBlocks, s.capacityBlocks - s.freeBlocks);
  }

  private async locate(recordNo: number, used?: number): Promise<number> {
    return locateRecord(this.chdu, used ?? (await this.writtenEnd()), recordNo);
  }

  private async findRecord(recordNo: number, used?: number): Promise<RecordItem | undefined> {
    const end = used ?? (await this.writtenEnd());
    const start = await this.locate(recordNo, end);
    for await (const item of readItems(new BlockCursor(this.chdu, start, 64, end))) {
      if (item.kind !== 'record') continue;
      if (item.header.recordNo === recordNo) return item;
      if (item.header.recordNo > recordNo) return undefined;
    }
    return undefined;
  }

  private toRecord(item: RecordItem, hash = this.options.sha256(item.bytes)): JournalRecord {
    const h = item.header;
    let body: unknown;
    try {
      body = JSON.parse(
        fromUtf8.decode(item.bytes.subarray(RECORD_HEADER_SIZE, RECORD_HEADER_SIZE + h.bodyLength)),
      );
    } catch (e) {
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        `Journal record ${h.recordNo} has an unreadable body.`,
        undefined,
        {
          cause: e,
        },
      );
    }
    return {
      type: h.type,
      version: h.version,
      recordNo: h.recordNo,
      address: item.address,
      writtenAt: this.times.format(h.writtenAtMs),
      chainHash: toHex(hash),
      body,
    } as JournalRecord;
  }

  private now(): Date {
    return (this.options.clock ?? systemClock).now();
  }
}
