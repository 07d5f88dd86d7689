/**
 * CHDU Lite (JM Systems P150300) wire format, after JM Systems "P150300 – Špecifikácia komunikácie" v1.3 (ADR 0104).
 *
 * Command frame: STX LEN(uint16 LE) CMD ARGS EOT, LEN = |CMD + ARGS|. Output data frame:
 * STX LEN DATA EOT, LEN = |DATA|. A READ data frame's DATA is bCmd followed by the n stored bytes,
 * so the frame is n + 5 bytes long (the spec's "n = LEN − 5" counts the whole frame; ADR 0104).
 * Multi-byte values are little-endian. Pure functions only; no I/O here.
 */
export const STX = 0x02;
export const EOT = 0x04;
export const ACK = 0x06;
export const BEL = 0x07;
export const NAK = 0x15;
export const NUL = 0x00;

export const CMD = {
  NOP: 0x00,
  STATUS: 0x5a,
  VOLUME_SERIAL: 0x5b,
  VERSION2: 0x5c,
  READ: 0xb1,
  WRITE: 0xb2,
  WRITE_PRINT: 0xb3,
  WRITE_PRINT_OFFSET: 0xb4,
  OPEN_DRAWER: 0x12,
  OPEN_DRAWER2: 0x13,
  LOCK_REQUEST: 0xc1,
  LOCK_ACTIVATE: 0xc2,
} as const;
export type CommandName = keyof typeof CMD;
export const COMMAND_NAMES = new Map<number, CommandName>(
  (Object.entries(CMD) as Array<[CommandName, number]>).map(([k, v]) => [v, k]),
);

/** Error byte after NAK. */
export const EC = {
  UNKNOWN: 0x00,
  TIMEOUT: 0x01,
  FRAME: 0x02,
  COMMAND: 0x03,
  PARAM: 0x04,
  CRC: 0x05,
  BLOCK: 0x06,
  LOCKED: 0x07,
  HW: 0x08,
  PRINTER: 0x09,
  BUSY: 0x0a,
} as const;
export type ErrorName = keyof typeof EC;
export const ERROR_NAMES = new Map<number, ErrorName>(
  (Object.entries(EC) as Array<[ErrorName, number]>).map(([k, v]) => [v, k]),
);

export const FLAG = {
  STORAGE_OK: 0x0001,
  PRINTER_READY: 0x0002,
  DEVICE_LOCK: 0x0004,
  PRINTER_INVALID: 0x0010,
} as const;

export const MAX_FRAME = 510;
/** Largest LEN a frame can carry: MAX_FRAME − STX − LEN(2) − EOT. */
export const MAX_PAYLOAD = MAX_FRAME - 4;
export const MAX_BLOCK_DATA = 505;
export const STATUS_SIZE = 24;
/** The device forgets a half-received frame, and the host gives up on an answer, after 1 s. */
export const FRAME_TIMEOUT_MS = 1000;

export function u16(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff, (value >>> 8) & 0xff);
}

export function u32(value: number): Uint8Array {
  const v = value >>> 0;
  return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
}

export function readU16(b: Uint8Array, at = 0): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

export function readU32(b: Uint8Array, at = 0): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}

/** The bytes of `parts` one after the other. */
function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** STX LEN payload EOT. */
export function encodeFrame(payload: Uint8Array): Uint8Array {
  return concatBytes(encodeOpenFrame(payload), Uint8Array.of(EOT));
}

/**
 * STX LEN payload, with no EOT: a READ block frame as the public .NET driver reads the wire (its
 * end byte — ACK, BEL or EOT — comes only after the host's ACK; ADR 0104 §2, amended).
 */
export function encodeOpenFrame(payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_PAYLOAD) throw new RangeError(`frame payload ${payload.length} > ${MAX_PAYLOAD}`);
  return concatBytes(Uint8Array.of(STX), u16(payload.length), payload);
}

/**
 * How a device frames a READ transfer (ADR 0104 §2, amended), per block:
 * - `spec-text` (the maker's text): lead ACK (or BEL: stored CRC fails), STX LEN DATA EOT, the
 *   host's answer; EOT ends the transfer;
 * - `public-driver` (the maker-published .NET driver): the command's ACK once, then per block
 *   STX LEN DATA, the host's answer, and an end byte: ACK (CRC fine), BEL (CRC fails) or EOT (CRC
 *   fine, last block).
 */
export const READ_SHAPES = ['spec-text', 'public-driver'] as const;
export type ReadShape = (typeof READ_SHAPES)[number];

export function encodeCommand(cmd: number, args: Uint8Array = new Uint8Array(0)): Uint8Array {
  return encodeFrame(concatBytes(Uint8Array.of(cmd), args));
}

export const encodeRead = (start: number, count: number) =>
  encodeCommand(CMD.READ, concatBytes(u32(start), u32(count)));
export const encodeWrite = (data: Uint8Array) => encodeCommand(CMD.WRITE, data);
export const encodeWritePrint = (data: Uint8Array) => encodeCommand(CMD.WRITE_PRINT, data);
export const encodeWritePrintOffset = (offset: number, data: Uint8Array) =>
  encodeCommand(CMD.WRITE_PRINT_OFFSET, concatBytes(u16(offset), data));
export const encodeLockRequest = (seed: number) => encodeCommand(CMD.LOCK_REQUEST, u32(seed));
export const encodeLockActivate = (key: number) => encodeCommand(CMD.LOCK_ACTIVATE, u32(key));

/** The device's answer to a command: ACK, then the output data frame if the command has one. */
export function encodeAck(output?: Uint8Array): Uint8Array {
  return output ? concatBytes(Uint8Array.of(ACK), encodeFrame(output)) : Uint8Array.of(ACK);
}

/** The device's refusal: NAK and the error byte. */
export const encodeNak = (code: number): Uint8Array => Uint8Array.of(NAK, code);

export interface StatusFields {
  /** High byte major, low byte minor (0x0103 = 1.3). */
  version: number;
  flags: number;
  serial: number;
  capacity: number;
  free: number;
  blockDataSize: number;
  reserved?: number;
}

export function encodeStatus(s: StatusFields): Uint8Array {
  return concatBytes(
    u16(s.version),
    u16(s.flags),
    u32(s.serial),
    u32(s.capacity),
    u32(s.free),
    u32(s.blockDataSize),
    u32(s.reserved ?? 0),
  );
}

export function decodeStatus(b: Uint8Array): StatusFields {
  if (b.length !== STATUS_SIZE)
    throw new RangeError(`STATUS output is ${b.length} bytes, expected ${STATUS_SIZE}`);
  return {
    version: readU16(b, 0),
    flags: readU16(b, 2),
    serial: readU32(b, 4),
    capacity: readU32(b, 8),
    free: readU32(b, 12),
    blockDataSize: readU32(b, 16),
    reserved: readU32(b, 20),
  };
}

/** VERSION2 output: ASCII, NUL-terminated. */
export function encodeVersion(text: string): Uint8Array {
  return concatBytes(new TextEncoder().encode(text), Uint8Array.of(0));
}

export function decodeVersion(b: Uint8Array): string {
  const end = b.indexOf(0);
  return new TextDecoder('ascii').decode(end < 0 ? b : b.subarray(0, end));
}

/** READ data frame payload: the command that wrote the block, then its stored bytes. */
export function encodeBlockData(command: number, stored: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(command), stored);
}

export function decodeBlockData(payload: Uint8Array): { command: number; stored: Uint8Array } | undefined {
  if (payload.length < 1 || payload.length > MAX_BLOCK_DATA + 1) return undefined;
  return { command: payload[0]!, stored: payload.subarray(1) };
}

export type FrameResult =
  | { kind: 'frame'; payload: Uint8Array }
  | { kind: 'error'; reason: 'too-long' | 'no-eot' | 'empty' | 'no-stx' };

export interface FrameParserOptions {
  /**
   * Skip bytes before STX (default true: the device ignores everything but STX while idle). The
   * host reading an output frame right after ACK sets false: anything but STX there is an error.
   */
  skipNoise?: boolean;
  /**
   * Complete the frame when its payload is in, leaving the byte after it to the caller (default
   * false: that byte must be EOT). The driver reads READ block frames so, because that byte differs
   * between the two readings of the wire ({@link ReadShape}).
   */
  untilPayload?: boolean;
}

/**
 * The one frame reader of the driver and the emulator: feed bytes, get frames. `needed()` says how
 * many bytes it can take without reading past the current frame, so a reader with a deadline can
 * pull exactly those (see frame-reader.ts); `pending` tells whether a frame is half-received.
 * LEN over the maximum, and LEN 0 (no frame carries nothing), are errors as soon as LEN is read.
 */
export class FrameParser {
  private state: 'idle' | 'len' | 'payload' | 'eot' = 'idle';
  private lenBytes: number[] = [];
  private payload: Uint8Array = new Uint8Array(0);
  private got = 0;

  constructor(private readonly options: FrameParserOptions = {}) {}

  get pending(): boolean {
    return this.state !== 'idle';
  }

  /** Bytes the parser takes before the current frame could end (at least 1). */
  needed(): number {
    switch (this.state) {
      case 'idle':
      case 'eot':
        return 1;
      case 'len':
        return 2 - this.lenBytes.length;
      case 'payload':
        return this.payload.length - this.got;
    }
  }

  reset(): void {
    this.state = 'idle';
    this.lenBytes = [];
    this.got = 0;
  }

  /** Consumes bytes; appends the frames and errors completed to `out` and returns it. */
  push(bytes: Uint8Array, out: FrameResult[] = []): FrameResult[] {
    for (const byte of bytes) {
      switch (this.state) {
        case 'idle':
          if (byte === STX) this.state = 'len';
          else if (this.options.skipNoise === false) out.push({ kind: 'error', reason: 'no-stx' });
          break;
        case 'len':
          this.lenBytes.push(byte);
          if (this.lenBytes.length === 2) {
            const len = this.lenBytes[0]! | (this.lenBytes[1]! << 8);
            this.lenBytes = [];
            if (len > MAX_PAYLOAD || len === 0) {
              out.push({ kind: 'error', reason: len === 0 ? 'empty' : 'too-long' });
              this.reset();
            } else {
              this.payload = new Uint8Array(len);
              this.got = 0;
              this.state = 'payload';
            }
          }
          break;
        case 'payload':
          this.payload[this.got++] = byte;
          if (this.got < this.payload.length) break;
          if (this.options.untilPayload) {
            out.push({ kind: 'frame', payload: this.payload });
            this.reset();
          } else this.state = 'eot';
          break;
        case 'eot':
          out.push(
            byte === EOT ? { kind: 'frame', payload: this.payload } : { kind: 'error', reason: 'no-eot' },
          );
          this.reset();
          break;
      }
    }
    return out;
  }
}
