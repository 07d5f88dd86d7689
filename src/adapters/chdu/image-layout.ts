import { crc32Mpeg2 } from '../../core/journal/crc32-mpeg2.js';

/**
 * Byte layout of the image-file CHDÚ (ADR 0103). One header, then fixed-size slots, one per block,
 * at `HEADER_SIZE + address * SLOT_SIZE`. A slot carries the block exactly as the device stores
 * it (command, length, data, CRC-32/MPEG-2 over LEN and DATA) plus a seal (CRC over the whole
 * slot) that tells a completed write from a torn one.
 */
export const IMAGE_MAGIC = 'KASACHDU';
export const IMAGE_LAYOUT_VERSION = 1;
export const HEADER_SIZE = 512;
export const BLOCK_DATA_SIZE = 505;
export const SLOT_SIZE = 524;
export const DEFAULT_CAPACITY_BLOCKS = 2_000_000;
/** Slot command of the permanent lock marker (LOCK_ACTIVATE); it is not a block. */
export const LOCK_SLOT_COMMAND = 0xc2;
export const BLOCK_COMMANDS: ReadonlySet<number> = new Set([0xb2, 0xb3, 0xb4]);

const SLOT_FOLLOWING_OFFSET = 5;
const SLOT_DATA_OFFSET = 8;
const SLOT_PRECEDING_OFFSET = 513;
/** One write puts at most this many slots down at once (ADR 1101: the run fields are one byte). */
export const MAX_SLOTS_PER_WRITE = 256;
const SLOT_DATA_CRC_OFFSET = 516;
const SLOT_SEAL_OFFSET = 520;
const FIRMWARE_OFFSET = 32;
const FIRMWARE_SIZE = 32;
const HEADER_CRC_OFFSET = HEADER_SIZE - 4;

export interface ImageHeader {
  capacityBlocks: number;
  serial: number;
  volumeSerial: number;
  /** Protocol version reported in STATUS, high byte major, low byte minor. */
  protocolVersion: number;
  firmware: string;
  createdAtMs: number;
}

export function encodeHeader(h: ImageHeader): Buffer {
  const b = Buffer.alloc(HEADER_SIZE);
  b.write(IMAGE_MAGIC, 0, 'ascii');
  b.writeUInt16LE(IMAGE_LAYOUT_VERSION, 8);
  b.writeUInt16LE(HEADER_SIZE, 10);
  b.writeUInt16LE(SLOT_SIZE, 12);
  b.writeUInt16LE(BLOCK_DATA_SIZE, 14);
  b.writeUInt32LE(h.capacityBlocks, 16);
  b.writeUInt32LE(h.serial, 20);
  b.writeUInt32LE(h.volumeSerial, 24);
  b.writeUInt16LE(h.protocolVersion, 28);
  b.write(h.firmware.slice(0, FIRMWARE_SIZE - 1), FIRMWARE_OFFSET, 'ascii');
  b.writeBigUInt64LE(BigInt(h.createdAtMs), 64);
  b.writeUInt32LE(crc32Mpeg2(b.subarray(0, HEADER_CRC_OFFSET)), HEADER_CRC_OFFSET);
  return b;
}

/** Decodes and checks a header; returns a reason string when it is not a valid kasa image. */
export function decodeHeader(b: Buffer): ImageHeader | string {
  if (b.length < HEADER_SIZE) return 'file shorter than the image header';
  if (b.toString('ascii', 0, 8) !== IMAGE_MAGIC) return 'not a kasa CHDÚ image (bad magic)';
  if (b.readUInt32LE(HEADER_CRC_OFFSET) !== crc32Mpeg2(b.subarray(0, HEADER_CRC_OFFSET))) {
    return 'image header checksum mismatch';
  }
  const version = b.readUInt16LE(8);
  if (version !== IMAGE_LAYOUT_VERSION) return `unsupported image layout version ${version}`;
  if (
    b.readUInt16LE(10) !== HEADER_SIZE ||
    b.readUInt16LE(12) !== SLOT_SIZE ||
    b.readUInt16LE(14) !== BLOCK_DATA_SIZE
  ) {
    return 'unsupported image geometry';
  }
  const fw = b.subarray(FIRMWARE_OFFSET, FIRMWARE_OFFSET + FIRMWARE_SIZE);
  const end = fw.indexOf(0);
  return {
    capacityBlocks: b.readUInt32LE(16),
    serial: b.readUInt32LE(20),
    volumeSerial: b.readUInt32LE(24),
    protocolVersion: b.readUInt16LE(28),
    firmware: fw.toString('ascii', 0, end < 0 ? FIRMWARE_SIZE : end),
    createdAtMs: Number(b.readBigUInt64LE(64)),
  };
}

export function slotOffset(address: number): number {
  return HEADER_SIZE + address * SLOT_SIZE;
}

/** The device's block CRC: CRC-32/MPEG-2 over LEN (uint16 LE) and DATA (the maker's specification P150300 v1.3, checksum). */
export function blockCrc(data: Uint8Array): number {
  const len = Buffer.alloc(2);
  len.writeUInt16LE(data.length, 0);
  return crc32Mpeg2(data, crc32Mpeg2(len));
}

/**
 * Where a slot stands in the write that put it down (ADR 1101): `preceding` slots of the same
 * write before it, `following` after it. A slot written alone is `{0, 0}` — the bytes every image
 * had before, in its reserved fields.
 */
export interface SlotRun {
  preceding: number;
  following: number;
}

const ALONE: SlotRun = { preceding: 0, following: 0 };

/** Encodes one slot into `into` (SLOT_SIZE bytes, zeroed) or a new buffer. */
export function encodeSlot(
  address: number,
  command: number,
  data: Uint8Array,
  run: SlotRun = ALONE,
  into?: Buffer,
): Buffer {
  if (data.length > BLOCK_DATA_SIZE) throw new RangeError('block data too long');
  if (run.preceding + run.following >= MAX_SLOTS_PER_WRITE) throw new RangeError('write run too long');
  const s = into ?? Buffer.alloc(SLOT_SIZE);
  s.writeUInt32LE(address, 0);
  s.writeUInt8(command, 4);
  s.writeUInt8(run.following, SLOT_FOLLOWING_OFFSET);
  s.writeUInt16LE(data.length, 6);
  s.writeUInt8(run.preceding, SLOT_PRECEDING_OFFSET);
  s.set(data, SLOT_DATA_OFFSET);
  s.writeUInt32LE(blockCrc(data), SLOT_DATA_CRC_OFFSET);
  s.writeUInt32LE(crc32Mpeg2(s.subarray(0, SLOT_SEAL_OFFSET)), SLOT_SEAL_OFFSET);
  return s;
}

export interface DecodedSlot {
  /** The seal verifies, the address is the slot's own and the command is known: a completed write. */
  sealed: boolean;
  command: number;
  data: Uint8Array;
  /** The stored block CRC matches the data (what the device reports with ACK instead of BEL). */
  crcOk: boolean;
  /** Where the slot stood in the write that put it down (meaningful when sealed). */
  run: SlotRun;
}

export function decodeSlot(s: Uint8Array, expectedAddress: number): DecodedSlot {
  const v = Buffer.from(s.buffer, s.byteOffset, SLOT_SIZE);
  const command = v.readUInt8(4);
  const rawLen = v.readUInt16LE(6);
  const len = Math.min(rawLen, BLOCK_DATA_SIZE);
  const data = Uint8Array.from(v.subarray(SLOT_DATA_OFFSET, SLOT_DATA_OFFSET + len));
  const sealOk = v.readUInt32LE(SLOT_SEAL_OFFSET) === crc32Mpeg2(v.subarray(0, SLOT_SEAL_OFFSET));
  const known = BLOCK_COMMANDS.has(command) || command === LOCK_SLOT_COMMAND;
  const sealed = sealOk && known && rawLen <= BLOCK_DATA_SIZE && v.readUInt32LE(0) === expectedAddress;
  const crcOk = rawLen <= BLOCK_DATA_SIZE && v.readUInt32LE(SLOT_DATA_CRC_OFFSET) === blockCrc(data);
  const run = {
    preceding: v.readUInt8(SLOT_PRECEDING_OFFSET),
    following: v.readUInt8(SLOT_FOLLOWING_OFFSET),
  };
  return { sealed, command, data, crcOk: crcOk && sealed, run };
}
