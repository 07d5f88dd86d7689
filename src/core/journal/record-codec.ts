import { FiscalError } from '../fiscal-error.js';
import { crc32Mpeg2 } from './crc32-mpeg2.js';
import type { RecordType } from './records.js';

/**
 * Record framing over CHDÚ blocks (ADR 0100).
 *
 * A record is one byte string — fixed header, JSON body, CRC-32/MPEG-2 of both — cut into chunks,
 * one per block. Every block starts with an 8-byte prefix naming the record and the chunk's place,
 * so a reader recognises a record only when all its blocks are there, in order, and the CRC holds:
 *
 *   block prefix: 'K' kind(R first | C continuation | P print) recordNo:u32 index:u16
 *   record:       framing:u8 type:u8 version:u16 recordNo:u32 writtenAtMs:u64 bodyLength:u32
 *                 blockCount:u16 prevHash:32 body:bodyLength crc:u32
 *
 * All integers little-endian, as on the CHDU Lite wire.
 */
export const FRAMING_VERSION = 1;
export const BLOCK_MAGIC = 0x4b; // 'K'
export const BLOCK_PREFIX_SIZE = 8;
export const RECORD_HEADER_SIZE = 54;
export const RECORD_CRC_SIZE = 4;
/** ADR 0102, 0121: the largest record (header + body + CRC) the journal writes: 1 MiB. */
export const MAX_RECORD_BYTES = 1_048_576;
/** The largest print payload forwarded with one record (ADR 0102's 64 KiB; longer jobs go in parts). */
export const MAX_PRINT_BYTES = 65_536;

export type BlockKind = 'R' | 'C' | 'P';
const KIND_BYTES: Record<BlockKind, number> = { R: 0x52, C: 0x43, P: 0x50 };
const KIND_OF = new Map<number, BlockKind>([
  [0x52, 'R'],
  [0x43, 'C'],
  [0x50, 'P'],
]);

/** Type codes on the CHDÚ. Never renumber: a code, once written, means that type for ever. */
export const RECORD_TYPE_CODES: { readonly [T in RecordType]: number } = {
  merchant: 1,
  document: 2,
  'sfs-exchange': 3,
  location: 4,
  print: 5,
  'free-text': 6,
  logo: 7,
  settings: 8,
  repair: 9,
  'print-job': 10,
  'sfs-attempt': 11,
};
const TYPE_OF = new Map<number, RecordType>(
  (Object.entries(RECORD_TYPE_CODES) as Array<[RecordType, number]>).map(([t, c]) => [c, t]),
);

export interface BlockPrefix {
  kind: BlockKind;
  recordNo: number;
  index: number;
}

export interface RecordHeader {
  type: RecordType;
  version: number;
  recordNo: number;
  writtenAtMs: number;
  bodyLength: number;
  blockCount: number;
  /** 32 bytes. */
  prevHash: Uint8Array;
}

export function encodePrefix(p: BlockPrefix): Uint8Array {
  const b = new Uint8Array(BLOCK_PREFIX_SIZE);
  const v = new DataView(b.buffer);
  b[0] = BLOCK_MAGIC;
  b[1] = KIND_BYTES[p.kind];
  v.setUint32(2, p.recordNo, true);
  v.setUint16(6, p.index, true);
  return b;
}

/** The prefix of a journal block, or undefined for a block that is not one. */
export function decodePrefix(data: Uint8Array): BlockPrefix | undefined {
  if (data.length < BLOCK_PREFIX_SIZE || data[0] !== BLOCK_MAGIC) return undefined;
  const kind = KIND_OF.get(data[1]!);
  if (!kind) return undefined;
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { kind, recordNo: v.getUint32(2, true), index: v.getUint16(6, true) };
}

/** Record bytes per block of this kind: print blocks go through WRITE_PRINT_OFFSET (2 bytes less). */
export function chunkSize(blockDataSize: number, kind: BlockKind): number {
  return (kind === 'P' ? blockDataSize - 2 : blockDataSize) - BLOCK_PREFIX_SIZE;
}

export function blocksFor(bytes: number, blockDataSize: number, kind: BlockKind): number {
  return Math.max(1, Math.ceil(bytes / chunkSize(blockDataSize, kind)));
}

/**
 * Builds the record bytes (header, body, CRC). Throws 203 CHDU_RECORD_SIZE_LIMIT when they exceed
 * {@link MAX_RECORD_BYTES} — before anything is written.
 */
export function encodeRecord(
  h: Omit<RecordHeader, 'bodyLength' | 'blockCount'>,
  body: Uint8Array,
  blockDataSize: number,
): Uint8Array {
  const total = RECORD_HEADER_SIZE + body.length + RECORD_CRC_SIZE;
  if (total > MAX_RECORD_BYTES) {
    throw new FiscalError(
      'CHDU_RECORD_SIZE_LIMIT',
      `The ${h.type} record is ${total} bytes; the maximum record size is ${MAX_RECORD_BYTES} bytes.`,
      { size: total, limit: MAX_RECORD_BYTES },
    );
  }
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out[0] = FRAMING_VERSION;
  out[1] = RECORD_TYPE_CODES[h.type];
  v.setUint16(2, h.version, true);
  v.setUint32(4, h.recordNo, true);
  v.setBigUint64(8, BigInt(h.writtenAtMs), true);
  v.setUint32(16, body.length, true);
  v.setUint16(20, blocksFor(total, blockDataSize, 'R'), true);
  out.set(h.prevHash, 22);
  out.set(body, RECORD_HEADER_SIZE);
  v.setUint32(total - RECORD_CRC_SIZE, crc32Mpeg2(out.subarray(0, total - RECORD_CRC_SIZE)), true);
  return out;
}

/** Cuts record (or print) bytes into block payloads, each with its prefix. */
export function splitIntoBlocks(
  bytes: Uint8Array,
  recordNo: number,
  blockDataSize: number,
  print = false,
): Uint8Array[] {
  const size = chunkSize(blockDataSize, print ? 'P' : 'R');
  const count = blocksFor(bytes.length, blockDataSize, print ? 'P' : 'R');
  const blocks: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const chunk = bytes.subarray(i * size, (i + 1) * size);
    const kind: BlockKind = print ? 'P' : i === 0 ? 'R' : 'C';
    const block = new Uint8Array(BLOCK_PREFIX_SIZE + chunk.length);
    block.set(encodePrefix({ kind, recordNo, index: i }), 0);
    block.set(chunk, BLOCK_PREFIX_SIZE);
    blocks.push(block);
  }
  return blocks;
}

/** Reads the record header from the first chunk; undefined when it is too short or unknown. */
export function decodeHeader(firstChunk: Uint8Array): RecordHeader | undefined {
  if (firstChunk.length < RECORD_HEADER_SIZE || firstChunk[0] !== FRAMING_VERSION) return undefined;
  const type = TYPE_OF.get(firstChunk[1]!);
  if (!type) return undefined;
  const v = new DataView(firstChunk.buffer, firstChunk.byteOffset, firstChunk.byteLength);
  return {
    type,
    version: v.getUint16(2, true),
    recordNo: v.getUint32(4, true),
    writtenAtMs: Number(v.getBigUint64(8, true)),
    bodyLength: v.getUint32(16, true),
    blockCount: v.getUint16(20, true),
    prevHash: firstChunk.slice(22, 54),
  };
}

/** Checks the CRC of complete record bytes (header, body, CRC). */
export function recordCrcOk(bytes: Uint8Array): boolean {
  if (bytes.length < RECORD_HEADER_SIZE + RECORD_CRC_SIZE) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stored = v.getUint32(bytes.length - RECORD_CRC_SIZE, true);
  return stored === crc32Mpeg2(bytes.subarray(0, bytes.length - RECORD_CRC_SIZE));
}

export function recordLength(h: RecordHeader): number {
  return RECORD_HEADER_SIZE + h.bodyLength + RECORD_CRC_SIZE;
}
