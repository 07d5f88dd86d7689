import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { FiscalError, invalidInput } from '../../core/fiscal-error.js';
import type { BlockCommand, Chdu, ChduBlock, ChduStatus } from '../../core/ports/chdu.js';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import { SerialQueue } from '../../core/serial-queue.js';
import type { FileLock } from '../file-lock.js';
import { type ImageIo, type ImageIoOpener, openImageIo } from './image-io.js';
import {
  BLOCK_COMMANDS,
  BLOCK_DATA_SIZE,
  decodeHeader,
  decodeSlot,
  encodeSlot,
  HEADER_SIZE,
  type ImageHeader,
  LOCK_SLOT_COMMAND,
  MAX_SLOTS_PER_WRITE,
  SLOT_SIZE,
  slotOffset,
} from './image-layout.js';
import { createImage, findTail, lockImage } from './image-open.js';
import type { PrintSink } from './print-sink.js';

export interface ImageFileChduOptions {
  /** Create the image when the file does not exist (default false: a missing image is 200). */
  create?: boolean;
  /**
   * Capacity in blocks of a new image (default 2,000,000 ≈ 1 GiB). An existing image keeps its
   * own; giving a different one for it is refused with 701 (ADR 0112).
   */
  capacityBlocks?: number;
  /** Device serial of a new image (default random). */
  serial?: number;
  /** Volume serial of a new image (default: Unix time of creation, as the device does). */
  volumeSerial?: number;
  /**
   * Open for reading only (CLI commands beside a running `kasa serve`). Only a writable opening
   * takes the image's lock (`<image>.lock`, ADR 0106); readers never wait for it.
   */
  readOnly?: boolean;
  /** Who holds the image's lock, for the message another writer gets (e.g. `serve`, `chdu-sim`). */
  holder?: string;
  /** The printer behind this CHDÚ; without one WRITE_PRINT fails with 100 as on a device without printer. */
  printer?: PrintSink;
  clock?: Clock;
  /** File operations seam (tests inject I/O errors). */
  io?: ImageIoOpener;
  /**
   * Test/bench seam only: `false` skips fdatasync on writes (never set by kasa itself; the
   * bench uses it to build a large journal quickly, then measures reading it).
   */
  syncWrites?: boolean;
}

export interface ImageOpenReport {
  /**
   * Bytes after the last completed slot when the image was opened: a write torn by a crash, or a
   * damaged last block (ADR 0103, 0108). Never reported as a block; a writer cuts them just
   * before its first write, so until then they stay in the file for inspection.
   */
  tornBytes: number;
  blocks: number;
}

const READ_CHUNK_SLOTS = 1024;
/** The file system's answers for "no room" (ADR 0116): the disk, a quota, or a file-size limit. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** After "no room", the image answers OK again once this much is free beside it (ADR 0116). */
export const ROOM_AGAIN_BYTES = 1024 * 1024;
const LOCK_WINDOW_MS = 1000;

/**
 * The CHDÚ as one image file (`--chdu image:PATH`): the CHDU Lite block semantics (write-once
 * blocks of ≤ 505 bytes, growing addresses, CRC-32/MPEG-2 per block, permanent lock) with a
 * write that resolves only after fdatasync. There is no method that writes below the end: every
 * write goes to the slot after the last completed one.
 */
export class ImageFileChdu implements Chdu {
  readonly target: string;
  readonly model = 'kasa image file';
  private readonly queue = new SerialQueue();
  private pendingLock: { seed: number; magic: number; atMs: number } | undefined;
  private failure: FiscalError | undefined;
  private closed = false;
  /** Bytes after the last sealed slot are still in the file: cut them before the first write. */
  private tornTail: boolean;
  /** The last write failed for lack of room on the disk (ADR 0116); cleared by a write that works. */
  private noRoom: FiscalError | undefined;

  private constructor(
    readonly path: string,
    private readonly io: ImageIo,
    private readonly header: ImageHeader,
    private blocks: number,
    private locked: boolean,
    private lastWriteMs: number | undefined,
    private readonly options: ImageFileChduOptions,
    readonly openReport: ImageOpenReport,
    private readonly lock: FileLock | undefined,
  ) {
    this.target = `image:${path}`;
    this.tornTail = openReport.tornBytes > 0;
  }

  /** Port: the bytes after the last complete block found at open (ADR 0108). */
  get tornBytesAtOpen(): number {
    return this.openReport.tornBytes;
  }

  static async open(path: string, options: ImageFileChduOptions = {}): Promise<ImageFileChdu> {
    if (!existsSync(path) && (!options.create || options.readOnly)) {
      throw new FiscalError('CHDU_NOT_CONNECTED', `No CHDÚ image at ${path}.`, { target: `image:${path}` });
    }
    // ADR 0106: one writer per image, whatever process or data dir it comes from.
    const lock = options.readOnly ? undefined : await lockImage(path, options.holder ?? 'image writer');
    try {
      return await ImageFileChdu.openLocked(path, options, lock);
    } catch (e) {
      lock?.release();
      throw e;
    }
  }

  private static async openLocked(
    path: string,
    options: ImageFileChduOptions,
    lock: FileLock | undefined,
  ): Promise<ImageFileChdu> {
    const created =
      !options.readOnly && options.create && !existsSync(path)
        ? await createImage(path, options, (options.clock ?? systemClock).now().getTime())
        : false;
    let io: ImageIo;
    try {
      io = await (options.io ?? openImageIo)(path, !options.readOnly, options.syncWrites !== false);
    } catch (e) {
      throw new FiscalError(
        'CHDU_NOT_CONNECTED',
        `Cannot open the CHDÚ image ${path}.`,
        { target: `image:${path}` },
        { cause: e },
      );
    }
    try {
      const head = Buffer.alloc(HEADER_SIZE);
      await io.read(head, 0);
      const header = decodeHeader(head);
      if (typeof header === 'string')
        throw new FiscalError('CHDU_WRITE_ERROR', `CHDÚ image ${path}: ${header}.`);
      const capacity = options.capacityBlocks;
      if (!created && !options.readOnly && capacity !== undefined && capacity !== header.capacityBlocks) {
        throw invalidInput(
          'capacityBlocks',
          `the image ${path} was created with ${header.capacityBlocks} blocks; a capacity (${capacity}) applies only to a new image`,
        );
      }
      const size = await io.size();
      const tail = await findTail(io, size);
      const tornBytes = size - slotOffset(tail.slots);
      const blocks = tail.locked ? tail.slots - 1 : tail.slots;
      const report = { tornBytes, blocks };
      return new ImageFileChdu(path, io, header, blocks, tail.locked, undefined, options, report, lock);
    } catch (e) {
      await io.close();
      throw e;
    }
  }

  /** Number of blocks written (the next write gets this address). */
  get usedBlocks(): number {
    return this.blocks;
  }

  /** When the last block was written by this process (undefined before the first write). */
  get lastWriteAt(): Date | undefined {
    return this.lastWriteMs === undefined ? undefined : new Date(this.lastWriteMs);
  }

  async status(): Promise<ChduStatus> {
    this.assertOpen();
    if (this.options.readOnly) await this.refresh();
    const printer = this.options.printer;
    return {
      protocolVersion: `${this.header.protocolVersion >> 8}.${this.header.protocolVersion & 0xff}`,
      storageOk: this.failure === undefined,
      printerReady: printer?.ready() ?? false,
      deviceLocked: this.locked,
      printerInvalid: printer === undefined,
      serial: this.header.serial,
      capacityBlocks: this.header.capacityBlocks,
      freeBlocks: Math.max(0, this.header.capacityBlocks - this.blocks),
      blockDataSize: BLOCK_DATA_SIZE,
    };
  }

  /**
   * Port: after a write failed because the disk holding the image is full, that 202 until at least
   * {@link ROOM_AGAIN_BYTES} are free there again (ADR 0116); the consistency check asks it.
   */
  async diskSpace(): Promise<FiscalError | undefined> {
    if (!this.noRoom) return undefined;
    let free = 0;
    try {
      free = await this.io.available();
    } catch {
      return this.noRoom;
    }
    if (free >= ROOM_AGAIN_BYTES) this.noRoom = undefined;
    return this.noRoom;
  }

  async volumeSerial(): Promise<number> {
    this.assertOpen();
    return this.header.volumeSerial;
  }

  async firmwareVersion(): Promise<string> {
    this.assertOpen();
    return this.header.firmware;
  }

  async read(start: number, count: number): Promise<ChduBlock[]> {
    this.assertOpen();
    if (!Number.isInteger(start) || start < 0) throw invalidInput('start', 'must be a block address ≥ 0');
    if (!Number.isInteger(count) || count < 0) throw invalidInput('count', 'must be an integer ≥ 0');
    if (this.options.readOnly && start + count > this.blocks) await this.refresh();
    const end = Math.min(start + count, this.blocks);
    const out: ChduBlock[] = [];
    for (let first = start; first < end; first += READ_CHUNK_SLOTS) {
      const n = Math.min(READ_CHUNK_SLOTS, end - first);
      const buf = Buffer.alloc(n * SLOT_SIZE);
      const got = await this.readIo(buf, slotOffset(first));
      for (let i = 0; i < n && (i + 1) * SLOT_SIZE <= got; i++) {
        out.push(toBlock(first + i, buf.subarray(i * SLOT_SIZE, (i + 1) * SLOT_SIZE)));
      }
    }
    return out;
  }

  write(data: Uint8Array): Promise<number> {
    return this.queue.run(() => this.append(0xb2, data));
  }

  /**
   * Port: consecutive blocks in one write and one flush (ADR 1101). Resolves with the first
   * address once all of them are durable; a crash in the middle leaves none of them (the torn
   * write is cut at the next open). Refused whole, nothing written, when they do not all fit.
   */
  writeMany(data: readonly Uint8Array[]): Promise<number> {
    return this.queue.run(async () => {
      if (data.length === 0 || data.length > MAX_SLOTS_PER_WRITE)
        throw invalidInput('data', `1 to ${MAX_SLOTS_PER_WRITE} blocks per write`);
      for (const d of data) {
        if (d.length > BLOCK_DATA_SIZE)
          throw invalidInput('data', `at most ${BLOCK_DATA_SIZE} bytes per block`);
      }
      this.assertWritable();
      if (this.blocks + data.length > this.header.capacityBlocks) {
        throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is full.', {
          capacityBlocks: this.header.capacityBlocks,
        });
      }
      const address = this.blocks;
      await this.writeSlots(0xb2, data);
      this.blocks = address + data.length;
      this.lastWriteMs = this.now();
      return address;
    });
  }

  writeAndPrint(data: Uint8Array, printOffset?: number): Promise<number> {
    return this.queue.run(async () => {
      const printer = this.options.printer;
      if (printOffset !== undefined) {
        if (data.length > BLOCK_DATA_SIZE - 2)
          throw invalidInput('data', `at most ${BLOCK_DATA_SIZE - 2} bytes with a print offset`);
        if (!Number.isInteger(printOffset) || printOffset < 0 || printOffset > data.length) {
          throw invalidInput('printOffset', 'must lie within the data');
        }
      }
      // CHDU Lite: a WRITE_PRINT with the printer not ready is refused (EC_PRINTER), nothing stored.
      if (!printer?.ready()) throw new FiscalError('PRINTER_NOT_READY', 'No printer ready behind the CHDÚ.');
      let stored: Uint8Array = data;
      if (printOffset !== undefined) {
        stored = new Uint8Array(data.length + 2);
        stored[0] = printOffset & 0xff;
        stored[1] = printOffset >> 8;
        stored.set(data, 2);
      }
      const address = await this.append(printOffset === undefined ? 0xb3 : 0xb4, stored);
      try {
        await printer.print(data.subarray(printOffset ?? 0));
      } catch (e) {
        throw new FiscalError(
          'PRINTER_NOT_READY',
          'The printer behind the CHDÚ failed.',
          { address },
          { cause: e },
        );
      }
      return address;
    });
  }

  async openDrawer(pin: 2 | 5): Promise<void> {
    this.assertOpen();
    const printer = this.options.printer;
    if (!printer?.ready()) throw new FiscalError('PRINTER_NOT_READY', 'No printer ready behind the CHDÚ.');
    await printer.openDrawer(pin);
  }

  async lockRequest(seed: number): Promise<number> {
    this.assertOpen();
    const magic = randomBytes(4).readUInt32LE(0);
    this.pendingLock = { seed: seed >>> 0, magic, atMs: this.now() };
    return magic;
  }

  lockActivate(key: number): Promise<void> {
    return this.queue.run(async () => {
      this.assertWritable();
      const p = this.pendingLock;
      this.pendingLock = undefined;
      if (!p || this.now() - p.atMs > LOCK_WINDOW_MS || key >>> 0 !== (p.seed ^ p.magic) >>> 0) {
        throw invalidInput('key', 'must be seed XOR magic within 1 s of LOCK_REQUEST');
      }
      await this.writeSlots(LOCK_SLOT_COMMAND, [new Uint8Array(0)]);
      this.locked = true;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.queue.run(() => this.io.close());
    } finally {
      this.lock?.release();
    }
  }

  private async append(command: BlockCommand, data: Uint8Array): Promise<number> {
    if (data.length > BLOCK_DATA_SIZE)
      throw invalidInput('data', `at most ${BLOCK_DATA_SIZE} bytes per block`);
    this.assertWritable();
    if (this.blocks >= this.header.capacityBlocks) {
      throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is full.', {
        capacityBlocks: this.header.capacityBlocks,
      });
    }
    const address = this.blocks;
    await this.writeSlots(command, [data]);
    this.blocks = address + 1;
    this.lastWriteMs = this.now();
    return address;
  }

  /**
   * Writes the slots after the last completed one in one write and syncs (ADR 1101: each slot
   * says where it stands in the write); on failure removes what may have landed.
   */
  private async writeSlots(command: number, data: readonly Uint8Array[]): Promise<void> {
    const offset = slotOffset(this.blocks);
    const bytes = Buffer.alloc(data.length * SLOT_SIZE);
    data.forEach((d, i) => {
      const run = { preceding: i, following: data.length - 1 - i };
      encodeSlot(this.blocks + i, command, d, run, bytes.subarray(i * SLOT_SIZE, (i + 1) * SLOT_SIZE));
    });
    try {
      if (this.tornTail) {
        // ADR 0103: the torn tail was never acknowledged as a block; it goes before the next one.
        await this.io.truncate(offset);
        await this.io.sync();
        this.tornTail = false;
      }
      await this.io.write(bytes, offset);
      if (this.options.syncWrites !== false && !this.io.durableWrites) await this.io.sync();
      this.noRoom = undefined;
    } catch (e) {
      await this.discardFrom(offset);
      const errno = (e as NodeJS.ErrnoException).code ?? '';
      if (NO_ROOM.has(errno)) {
        // ADR 0116: a full disk is a full storage for now (202), not a damaged one; it passes.
        this.noRoom = new FiscalError(
          'CHDU_WRITE_LIMIT',
          `The disk holding the CHDÚ image ${this.path} is full (${errno}): nothing of this write was kept. Free space on that disk; kasa goes on by itself once at least 1 MiB is free.`,
          { target: this.target, errno },
          { cause: e },
        );
        throw this.noRoom;
      }
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        'Writing to the CHDÚ image failed.',
        { target: this.target },
        { cause: e },
      );
    }
  }

  /** After a failed write: cut the unacknowledged slot away, or stop writing until reopened. */
  private async discardFrom(offset: number): Promise<void> {
    try {
      await this.io.truncate(offset);
      await this.io.sync();
    } catch (e) {
      this.failure = new FiscalError(
        'CHDU_WRITE_ERROR',
        'The CHDÚ image cannot be written; reopen it.',
        undefined,
        {
          cause: e,
        },
      );
    }
  }

  /** Read-only mode: another process may have appended since the last look. */
  private async refresh(): Promise<void> {
    const size = await this.io.size();
    let slots = this.blocks;
    const one = Buffer.alloc(SLOT_SIZE);
    while (slotOffset(slots + 1) <= size) {
      await this.readIo(one, slotOffset(slots));
      const s = decodeSlot(one, slots);
      if (!s.sealed) break;
      slots++;
      if (s.command === LOCK_SLOT_COMMAND) {
        this.locked = true;
        slots--;
        break;
      }
    }
    this.blocks = slots;
  }

  private async readIo(buf: Buffer, position: number): Promise<number> {
    try {
      return await this.io.read(buf, position);
    } catch (e) {
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        'Reading the CHDÚ image failed.',
        { target: this.target },
        { cause: e },
      );
    }
  }

  private assertOpen(): void {
    if (this.closed)
      throw new FiscalError('CHDU_NOT_CONNECTED', 'The CHDÚ image is closed.', { target: this.target });
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.failure) throw this.failure;
    if (this.options.readOnly) throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ image is open read-only.');
    if (this.locked) throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is permanently locked.');
  }

  private now(): number {
    return (this.options.clock ?? systemClock).now().getTime();
  }
}

function toBlock(address: number, slot: Buffer): ChduBlock {
  const s = decodeSlot(slot, address);
  const command = (BLOCK_COMMANDS.has(s.command) ? s.command : 0xb2) as BlockCommand;
  if (command === 0xb4 && s.data.length >= 2) {
    const printOffset = s.data[0]! | (s.data[1]! << 8);
    return { address, command, data: s.data.subarray(2), crcOk: s.crcOk, printOffset };
  }
  return { address, command, data: s.data, crcOk: s.crcOk && (command !== 0xb4 || s.data.length >= 2) };
}
