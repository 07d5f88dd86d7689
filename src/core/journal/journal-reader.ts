import type { Chdu, ChduBlock } from '../ports/chdu.js';
import {
  BLOCK_PREFIX_SIZE,
  decodeHeader,
  decodePrefix,
  type RecordHeader,
  recordCrcOk,
  recordLength,
} from './record-codec.js';

/**
 * Reads framed records from the CHDÚ's blocks (ADR 0100). A record is reported only when all its
 * blocks are present, in order, and its CRC holds; anything else is a fragment (a record whose
 * write stopped part-way, later retried under the same number), a print block, or damage.
 */
export type ReadItem =
  | { kind: 'record'; header: RecordHeader; bytes: Uint8Array; address: number; blocks: number }
  | { kind: 'fragment'; recordNo: number; address: number; blocks: number }
  | { kind: 'print'; recordNo: number; address: number }
  | { kind: 'damaged'; address: number; reason: string };

/** Sequential block reader with one block of look-ahead, reading the device in batches. */
export class BlockCursor {
  private buffer: ChduBlock[] = [];
  private pos = 0;
  private ended = false;

  constructor(
    private readonly chdu: Chdu,
    private next_: number,
    private readonly batch = 256,
    /** Address after which nothing is read (exclusive); undefined = to the device's end. */
    private readonly end?: number,
  ) {}

  async peek(): Promise<ChduBlock | undefined> {
    if (this.pos < this.buffer.length) return this.buffer[this.pos];
    if (this.ended) return undefined;
    const count = this.end === undefined ? this.batch : Math.min(this.batch, this.end - this.next_);
    if (count <= 0) {
      this.ended = true;
      return undefined;
    }
    this.buffer = await this.chdu.read(this.next_, count);
    this.pos = 0;
    if (this.buffer.length === 0) {
      this.ended = true;
      return undefined;
    }
    this.next_ += this.buffer.length;
    return this.buffer[0];
  }

  async next(): Promise<ChduBlock | undefined> {
    const b = await this.peek();
    if (b) this.pos++;
    return b;
  }
}

/** Yields the items found from the cursor's position on. */
export async function* readItems(cursor: BlockCursor): AsyncGenerator<ReadItem> {
  for (let b = await cursor.next(); b; b = await cursor.next()) {
    if (!b.crcOk) {
      yield { kind: 'damaged', address: b.address, reason: 'stored block CRC does not match its data' };
      continue;
    }
    const p = decodePrefix(b.data);
    if (!p) {
      yield { kind: 'damaged', address: b.address, reason: 'not a journal block' };
      continue;
    }
    if (p.kind === 'P') {
      yield { kind: 'print', recordNo: p.recordNo, address: b.address };
      continue;
    }
    if (p.kind === 'C' || p.index !== 0) {
      yield {
        kind: 'damaged',
        address: b.address,
        reason: `continuation of record ${p.recordNo} without its start`,
      };
      continue;
    }
    const first = b.data.subarray(BLOCK_PREFIX_SIZE);
    const header = decodeHeader(first);
    if (!header || header.recordNo !== p.recordNo || header.blockCount < 1) {
      yield { kind: 'damaged', address: b.address, reason: `unreadable header of record ${p.recordNo}` };
      continue;
    }
    const parts: Uint8Array[] = [first];
    for (let i = 1; i < header.blockCount; i++) {
      const nb = await cursor.peek();
      const np = nb?.crcOk ? decodePrefix(nb.data) : undefined;
      if (!nb || !np || np.kind !== 'C' || np.recordNo !== p.recordNo || np.index !== i) break;
      await cursor.next();
      parts.push(nb.data.subarray(BLOCK_PREFIX_SIZE));
    }
    if (parts.length < header.blockCount) {
      yield { kind: 'fragment', recordNo: p.recordNo, address: b.address, blocks: parts.length };
      continue;
    }
    const bytes = joinParts(parts, recordLength(header));
    if (!bytes || !recordCrcOk(bytes)) {
      yield { kind: 'damaged', address: b.address, reason: `record ${p.recordNo} fails its CRC` };
      continue;
    }
    yield { kind: 'record', header, bytes, address: b.address, blocks: header.blockCount };
  }
}

/** The record's bytes from its blocks' parts (the last part is zero-padded past `length`). */
function joinParts(parts: Uint8Array[], length: number): Uint8Array | undefined {
  const total = parts.reduce((n, p) => n + p.length, 0);
  if (total < length) return undefined;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    const take = Math.min(p.length, length - at);
    out.set(p.subarray(0, take), at);
    at += take;
    if (at === length) break;
  }
  return out;
}

/**
 * The first never-written address (the number of blocks written). STATUS's capacity − free is
 * only a hint: a device that miscounts, or reports itself full, must not send the head search
 * over millions of addresses one READ each (ADR 0109). Two READs confirm a right hint; otherwise
 * a binary search over READ, which returns nothing past the end, bounded by the capacity.
 */
export async function findWrittenEnd(chdu: Chdu, capacity: number, hint: number): Promise<number> {
  const written = async (address: number): Promise<boolean> =>
    address >= 0 && address < capacity && (await chdu.read(address, 1)).length > 0;
  const h = Math.min(Math.max(0, hint), capacity);
  const before = h === 0 || (await written(h - 1));
  if (before && !(await written(h))) return h;
  // Written addresses form a prefix: find the first unwritten one in [lo, hi].
  let lo = before ? h + 1 : 0;
  let hi = before ? capacity : h - 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await written(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Blocks read backwards in windows (one READ per window, not per block). */
class BackwardWindow {
  private first = 0;
  private blocks: ChduBlock[] = [];

  constructor(
    private readonly chdu: Chdu,
    private readonly size = 64,
  ) {}

  async at(address: number): Promise<ChduBlock | undefined> {
    if (address < this.first || address >= this.first + this.blocks.length) {
      this.first = Math.max(0, address - this.size + 1);
      this.blocks = await this.chdu.read(this.first, address - this.first + 1);
    }
    return this.blocks[address - this.first];
  }
}

/** The last complete record on the device, walking back from the block before `end`. */
export async function findLastRecord(
  chdu: Chdu,
  end: number,
): Promise<Extract<ReadItem, { kind: 'record' }> | undefined> {
  const window = new BackwardWindow(chdu);
  let addr = end - 1;
  while (addr >= 0) {
    const b = await window.at(addr);
    const p = b?.crcOk ? decodePrefix(b.data) : undefined;
    if (!p) {
      addr--;
      continue;
    }
    if (p.kind === 'P') {
      // Print blocks follow their record's last block.
      addr -= p.index + 1;
      continue;
    }
    const first = addr - p.index;
    if (first < 0) {
      addr--;
      continue;
    }
    for await (const item of readItems(new BlockCursor(chdu, first, 256, addr + 1))) {
      if (item.kind === 'record' && item.address === first && first + item.blocks - 1 === addr) return item;
      break;
    }
    addr = first - 1;
  }
  return undefined;
}

/**
 * The address of the first block belonging to record `recordNo` or later, by binary search over
 * block prefixes (record numbers never decrease along the addresses).
 */
export async function locateRecord(chdu: Chdu, end: number, recordNo: number): Promise<number> {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const n = await probeRecordNo(chdu, mid, hi);
    if (n < recordNo) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Record number of the first readable journal block at or after `addr` (Infinity when none before `end`). */
async function probeRecordNo(chdu: Chdu, addr: number, end: number): Promise<number> {
  const window = Math.min(16, end - addr);
  const blocks = await chdu.read(addr, window);
  for (const b of blocks) {
    const p = b.crcOk ? decodePrefix(b.data) : undefined;
    if (p) return p.recordNo;
  }
  return Number.POSITIVE_INFINITY;
}
