import type { FiscalError } from '../fiscal-error.js';

/**
 * The protected data storage (CHDÚ) as a block device, after the CHDU Lite wire protocol
 * (JM Systems "P150300 – Špecifikácia komunikácie" v1.3, ADR 0104): write-once blocks with growing addresses, a printer behind
 * the device, a drawer, a permanent lock. There is no erase or overwrite anywhere.
 *
 * Every method rejects with a FiscalError: 200 CHDU_NOT_CONNECTED (device missing, port closed),
 * 201 CHDU_WRITE_ERROR (EC_HW, EC_CRC, data error), 202 CHDU_WRITE_LIMIT (full, or locked:
 * EC_LOCKED), 100 PRINTER_NOT_READY (EC_PRINTER on a write+print or drawer), 300 BUSY (EC_BUSY),
 * 701 INVALID_INPUT (data larger than a block).
 */
export interface ChduStatus {
  /** Protocol version, e.g. `1.3`. */
  protocolVersion: string;
  storageOk: boolean;
  printerReady: boolean;
  deviceLocked: boolean;
  printerInvalid: boolean;
  serial: number;
  capacityBlocks: number;
  freeBlocks: number;
  /** Max data bytes per block (505 on CHDU Lite). */
  blockDataSize: number;
}

/** The command that wrote a block (the `bCmd` byte of a READ data frame). */
export type BlockCommand = 0xb2 | 0xb3 | 0xb4;

export interface ChduBlock {
  address: number;
  command: BlockCommand;
  data: Uint8Array;
  /** False when the stored CRC-32/MPEG-2 does not match the data (device answered BEL). */
  crcOk: boolean;
  /**
   * For a block written by WRITE_PRINT_OFFSET (0xB4): where the printed part of `data` starts.
   * `data` is then the caller's data without the device's 2-byte offset prefix.
   */
  printOffset?: number;
}

export interface Chdu {
  /** Human description of the target, e.g. `image:/var/kasa/chdu.img`. */
  readonly target: string;
  /** Model or adapter name for chduinfo, e.g. `kasa image file`, `CHDU Lite`. */
  readonly model?: string;
  /**
   * Image file only: bytes found after the last complete block when the image was opened — a
   * write torn by a crash, or a damaged last block (ADR 0103, 0108). They are never reported as
   * a block; chduinfo, `kasa chdu info|verify` and the start-up log show them.
   */
  readonly tornBytesAtOpen?: number;
  /**
   * Image file only: after a write failed because the disk holding the image is full, a
   * FiscalError 202 CHDU_WRITE_LIMIT naming the disk, until there is room again; undefined
   * otherwise (ADR 0116). The consistency check asks it, so the register refuses with that
   * sentence and goes on by itself once space is freed.
   */
  diskSpace?(): Promise<FiscalError | undefined>;
  status(): Promise<ChduStatus>;
  volumeSerial(): Promise<number>;
  firmwareVersion(): Promise<string>;
  /** Reads `count` blocks from `start`; stops early at the first never-written address. */
  read(start: number, count: number): Promise<ChduBlock[]>;
  /** Writes one block; resolves with its address only after the data are durable. */
  write(data: Uint8Array): Promise<number>;
  /**
   * Optional (the image file has it, a CHDU Lite device writes one block per command): writes
   * 1–256 consecutive blocks as one durable write — resolves with the first address only after
   * all of them are durable, and after a crash either all of them are there or none (ADR 1101).
   * Refused whole (202, 701), nothing written, when they do not all fit or one is too large.
   */
  writeMany?(data: readonly Uint8Array[]): Promise<number>;
  /** Writes one block and forwards it (from `printOffset`) to the printer behind the CHDÚ. */
  writeAndPrint(data: Uint8Array, printOffset?: number): Promise<number>;
  openDrawer(pin: 2 | 5): Promise<void>;
  /** LOCK_REQUEST: returns the magic valid for 1 s. */
  lockRequest(seed: number): Promise<number>;
  /** LOCK_ACTIVATE with `seed XOR magic`: the device becomes read-only for ever. */
  lockActivate(key: number): Promise<void>;
  close(): Promise<void>;
}
