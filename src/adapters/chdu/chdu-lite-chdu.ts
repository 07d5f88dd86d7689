import { FiscalError, invalidInput } from '../../core/fiscal-error.js';
import type { Chdu, ChduBlock, ChduStatus } from '../../core/ports/chdu.js';
import type { ResultName } from '../../core/result-codes.js';
import { SerialQueue } from '../../core/serial-queue.js';
import { ByteReader, LineClosed, ReadTimeout } from '../transport/byte-reader.js';
import type { ByteTransport } from '../transport/byte-transport.js';
import {
  ACK,
  CMD,
  COMMAND_NAMES,
  decodeStatus,
  decodeVersion,
  EC,
  EOT,
  ERROR_NAMES,
  encodeCommand,
  encodeLockActivate,
  encodeLockRequest,
  encodeRead,
  encodeWrite,
  encodeWritePrint,
  encodeWritePrintOffset,
  FLAG,
  FRAME_TIMEOUT_MS,
  FrameParser,
  MAX_BLOCK_DATA,
  NAK,
  readU32,
} from './chdu-lite-codec.js';
import { DeviceError, LineNotQuiet, ProtocolError } from './chdu-lite-errors.js';
import { readFrame } from './frame-reader.js';
import { type ReadWire, readBlocks, type TransferLine, type TransferResult } from './read-transfer.js';

export interface ChduLiteOptions {
  /** Answer and handshake limit (spec: 1 s). */
  timeoutMs?: number;
  /** Blocks per READ command (the public .NET driver keeps it ≤ 127 for stability). */
  readBatch?: number;
  /** Times a damaged READ data frame is asked again (NAK) before giving up. */
  readRetries?: number;
  /**
   * After a timeout or a garbled answer, how long the line must stay quiet before the next command
   * (default: the answer limit — by then the device has given up a READ handshake or a half frame).
   */
  resyncQuietMs?: number;
}

/** Device error byte → result code (capability 3: EC_HW → 201, EC_LOCKED → 202, EC_PRINTER → 100, …). */
const ERROR_RESULT: Record<number, ResultName> = {
  [EC.UNKNOWN]: 'CHDU_WRITE_ERROR',
  [EC.TIMEOUT]: 'CHDU_WRITE_ERROR',
  [EC.FRAME]: 'CHDU_WRITE_ERROR',
  [EC.COMMAND]: 'CHDU_WRITE_ERROR',
  [EC.PARAM]: 'INVALID_INPUT',
  [EC.CRC]: 'CHDU_WRITE_ERROR',
  [EC.BLOCK]: 'CHDU_WRITE_ERROR',
  [EC.LOCKED]: 'CHDU_WRITE_LIMIT',
  [EC.HW]: 'CHDU_WRITE_ERROR',
  [EC.PRINTER]: 'PRINTER_NOT_READY',
  [EC.BUSY]: 'BUSY',
};

/**
 * The CHDU Lite driver: the `Chdu` port over the device's wire protocol on any byte transport
 * (serial port or TCP). One command at a time; the line is opened on first use and reopened after
 * it drops, so a device that comes back is used again without a restart.
 */
export class ChduLiteChdu implements Chdu {
  readonly model = 'CHDU Lite';
  private readonly reader = new ByteReader();
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;
  private readonly line: TransferLine;
  private closed = false;
  /** READ framing the device has shown since the line opened (ADR 0104 §2, amended). */
  private readonly wire: ReadWire = { shape: 'unknown' };
  /** An EOT that closes the last data transfer (spec text) may still come. */
  private eotOwed = false;
  /** The last exchange failed without a clean answer: quiet the line before the next (M1). */
  private resyncPending = false;
  /** The block the next WRITE* must get, known after one answered since the line opened. */
  private nextAddress: number | undefined;

  constructor(
    private readonly transport: ByteTransport,
    readonly target: string,
    private readonly options: ChduLiteOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? FRAME_TIMEOUT_MS;
    this.line = {
      reader: this.reader,
      timeoutMs: this.timeoutMs,
      retries: options.readRetries ?? 3,
      send: (bytes) => this.send(bytes),
    };
    transport.onData((b) => this.reader.push(b));
    transport.onClose(() => this.reader.fail(new LineClosed(`${transport.description} closed`)));
  }

  status(): Promise<ChduStatus> {
    return this.exec(async () => {
      const s = decodeStatus(await this.command(CMD.STATUS, encodeCommand(CMD.STATUS), true));
      return {
        protocolVersion: `${s.version >> 8}.${s.version & 0xff}`,
        storageOk: (s.flags & FLAG.STORAGE_OK) !== 0,
        printerReady: (s.flags & FLAG.PRINTER_READY) !== 0,
        deviceLocked: (s.flags & FLAG.DEVICE_LOCK) !== 0,
        printerInvalid: (s.flags & FLAG.PRINTER_INVALID) !== 0,
        serial: s.serial,
        capacityBlocks: s.capacity,
        freeBlocks: s.free,
        // A WRITE carries at most 505 bytes whatever dwBlockDataSize says (real units report 508).
        blockDataSize: Math.min(s.blockDataSize, MAX_BLOCK_DATA),
      };
    });
  }

  volumeSerial(): Promise<number> {
    return this.exec(async () =>
      u32Output(
        await this.command(CMD.VOLUME_SERIAL, encodeCommand(CMD.VOLUME_SERIAL), true),
        CMD.VOLUME_SERIAL,
      ),
    );
  }

  firmwareVersion(): Promise<string> {
    return this.exec(async () =>
      decodeVersion(await this.command(CMD.VERSION2, encodeCommand(CMD.VERSION2), true)),
    );
  }

  read(start: number, count: number): Promise<ChduBlock[]> {
    if (!Number.isInteger(start) || start < 0 || start > 0xffffffff) {
      return Promise.reject(invalidInput('start', 'must be a block address ≥ 0'));
    }
    if (!Number.isInteger(count) || count < 0)
      return Promise.reject(invalidInput('count', 'must be an integer ≥ 0'));
    return this.exec(async () => {
      const out: ChduBlock[] = [];
      const batch = this.options.readBatch ?? 127;
      while (out.length < count) {
        const n = Math.min(batch, count - out.length);
        const got = await this.readTransfer(start + out.length, n);
        out.push(...got.blocks);
        if (got.endUncertain) {
          // Late frames of a slow device must not become the next READ's answer: quiet the line,
          // then ask from the next address (the device answers an unwritten one NAK EC_BLOCK).
          await this.resynchronise();
          continue;
        }
        if (got.blocks.length < n) break;
      }
      return out;
    });
  }

  write(data: Uint8Array): Promise<number> {
    if (data.length > MAX_BLOCK_DATA)
      return Promise.reject(invalidInput('data', `at most ${MAX_BLOCK_DATA} bytes per block`));
    return this.exec(() => this.writeCommand(CMD.WRITE, encodeWrite(data)));
  }

  writeAndPrint(data: Uint8Array, printOffset?: number): Promise<number> {
    if (printOffset === undefined) {
      if (data.length > MAX_BLOCK_DATA)
        return Promise.reject(invalidInput('data', `at most ${MAX_BLOCK_DATA} bytes per block`));
      return this.exec(() => this.writeCommand(CMD.WRITE_PRINT, encodeWritePrint(data)));
    }
    if (data.length > MAX_BLOCK_DATA - 2) {
      return Promise.reject(invalidInput('data', `at most ${MAX_BLOCK_DATA - 2} bytes with a print offset`));
    }
    if (!Number.isInteger(printOffset) || printOffset < 0 || printOffset > data.length) {
      return Promise.reject(invalidInput('printOffset', 'must lie within the data'));
    }
    const frame = encodeWritePrintOffset(printOffset, data);
    return this.exec(() => this.writeCommand(CMD.WRITE_PRINT_OFFSET, frame));
  }

  openDrawer(pin: 2 | 5): Promise<void> {
    return this.exec(async () => {
      const cmd = pin === 2 ? CMD.OPEN_DRAWER : CMD.OPEN_DRAWER2;
      await this.command(cmd, encodeCommand(cmd));
    });
  }

  lockRequest(seed: number): Promise<number> {
    return this.exec(async () =>
      u32Output(await this.command(CMD.LOCK_REQUEST, encodeLockRequest(seed), true), CMD.LOCK_REQUEST),
    );
  }

  lockActivate(key: number): Promise<void> {
    return this.exec(async () => {
      await this.command(CMD.LOCK_ACTIVATE, encodeLockActivate(key));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue.run(() => this.transport.close());
  }

  private async writeCommand(cmd: number, frame: Uint8Array): Promise<number> {
    let address: number;
    try {
      address = u32Output(await this.command(cmd, frame, true), cmd);
    } catch (e) {
      // The spec names no "full" error: a refused write on a device with no free block is 202.
      if (e instanceof DeviceError && (e.code === EC.HW || e.code === EC.UNKNOWN)) {
        const s = decodeStatus(await this.command(CMD.STATUS, encodeCommand(CMD.STATUS), true)).free;
        if (s === 0) throw new FiscalError('CHDU_WRITE_LIMIT', 'The CHDÚ is full.', { deviceError: 'EC_HW' });
      }
      throw e;
    }
    // Blocks are written one after the other, so after one answered address the next is known: any
    // other is a late answer to an earlier command, or another writer — never this block (M1). The
    // journal checks only the blocks inside one record; a record's first block and print blocks
    // rely on this.
    const expected = this.nextAddress;
    if (expected !== undefined && address !== expected) {
      throw new ProtocolError(
        `${COMMAND_NAMES.get(cmd)} answered block ${address} where the next free block is ${expected}`,
      );
    }
    this.nextAddress = address + 1;
    return address;
  }

  /**
   * Sends a command frame built by the codec; resolves with its output frame's data (or empty
   * for ACK-only commands). `cmd` names the command in errors.
   */
  private async command(cmd: number, frame: Uint8Array, output = false): Promise<Uint8Array> {
    await this.sendCommand(frame);
    const answer = await this.firstAnswer(cmd);
    if (answer === NAK) throw new DeviceError(await this.reader.readByte(this.timeoutMs, 'error byte'), cmd);
    if (answer !== ACK)
      throw new ProtocolError(`unexpected answer 0x${answer.toString(16)} to ${COMMAND_NAMES.get(cmd)}`);
    if (!output) return new Uint8Array(0);
    const data = await this.readFrame();
    // Spec "DÁTOVÝ RÁMEC": the host answers a data frame with ACK. The public .NET driver answers
    // only READ's; a device that does not wait for it ignores the byte (idle, it takes only STX),
    // one that does would stall without it — so every data frame is acknowledged (ADR 0104 §6).
    // The answer is in whole by now: a line that drops before the ACK goes out does not undo it
    // (a WRITE's block is stored), it is only reopened and quieted before the next command.
    await this.send(Uint8Array.of(ACK)).catch(async () => {
      this.resyncPending = true;
      await this.transport.close().catch(() => undefined);
    });
    // Spec text: an EOT follows the last frame of a data transfer; the public driver's reading has
    // none. It is not waited for: the next command drops it or skips it as its first answer.
    this.eotOwed = true;
    return data;
  }

  /** Drops unread bytes (stray ones, the EOT that closed the last transfer) and sends a command. */
  private async sendCommand(frame: Uint8Array): Promise<void> {
    const stale = this.reader.buffered;
    if (stale > 0 && (await this.reader.readBytes(stale, 0)).includes(EOT)) this.eotOwed = false;
    await this.send(frame);
  }

  /**
   * A command's first answer byte, within 1 s. EOT is never one — only READ's "end of transfer",
   * and kasa's reading answers an unwritten start with EC_BLOCK instead (§2) — so an EOT that closed
   * the previous data transfer and came after the discard is skipped: always for other commands,
   * for READ only while one is owed.
   */
  private async firstAnswer(cmd: number): Promise<number> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new ReadTimeout('answer', this.timeoutMs);
      const b = await this.reader.readByte(left, 'answer').catch((e: unknown) => {
        throw e instanceof ReadTimeout ? new ReadTimeout('answer', this.timeoutMs) : e;
      });
      const skip = b === EOT && (cmd !== CMD.READ || this.eotOwed);
      this.eotOwed = false;
      if (!skip) return b;
    }
  }

  /** An output data frame, right after the ACK: through the codec's parser, within 1 s. */
  private async readFrame(): Promise<Uint8Array> {
    const parser = new FrameParser({ skipNoise: false });
    const r = await readFrame(this.reader, parser, this.timeoutMs, 'data frame');
    if (r.kind === 'error') throw new ProtocolError(`data frame: ${r.reason}`);
    return r.payload;
  }

  /** One READ command and its transfer, in either reading of the wire (read-transfer.ts). */
  private async readTransfer(start: number, count: number): Promise<TransferResult> {
    await this.sendCommand(encodeRead(start, count));
    const first = await this.firstAnswer(CMD.READ);
    const r = await readBlocks(this.line, start, count, first, this.wire);
    this.eotOwed = r.eotOwed;
    return r;
  }

  private async send(bytes: Uint8Array): Promise<void> {
    try {
      await this.transport.write(bytes);
    } catch (e) {
      throw new LineClosed(e instanceof Error ? e.message : String(e));
    }
  }

  /** Runs one exchange with the line open, mapping every failure to its result code. */
  private exec<T>(fn: () => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      if (this.closed) throw this.notConnected('the driver is closed');
      if (!this.transport.isOpen) {
        this.reader.reset();
        // Maybe another device now: learn its READ framing and its next block again.
        this.wire.shape = 'unknown';
        this.nextAddress = undefined;
        this.eotOwed = false;
        try {
          await this.transport.open();
        } catch (e) {
          throw this.notConnected(e instanceof Error ? e.message : String(e), e);
        }
      }
      try {
        if (this.resyncPending) {
          await this.resynchronise();
          this.resyncPending = false;
        }
        return await fn();
      } catch (e) {
        // After any failure the next WRITE's block is not known for sure (a lost answer, a NAK).
        this.nextAddress = undefined;
        if (e instanceof DeviceError) {
          const name = ERROR_RESULT[e.code] ?? 'CHDU_WRITE_ERROR';
          const deviceError = ERROR_NAMES.get(e.code) ?? `0x${e.code.toString(16)}`;
          throw new FiscalError(name, `CHDÚ: ${e.message}.`, { deviceError: `EC_${deviceError}` });
        }
        if (e instanceof FiscalError) throw e;
        // Timeouts, a dropped line and garbled answers: reopen, and quiet the line, next time.
        this.resyncPending = true;
        await this.transport.close().catch(() => undefined);
        if (e instanceof ReadTimeout || e instanceof LineClosed || e instanceof LineNotQuiet) {
          throw this.notConnected(e.message, e);
        }
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `CHDÚ protocol error: ${(e as Error).message}.`,
          undefined,
          { cause: e },
        );
      }
    });
  }

  /**
   * M1: a device that keeps its state across a reopen (USB CDC) may still send the late answer to
   * the command that failed — e.g. ACK and a WRITE's address — and it would be taken as the next
   * command's. So before trusting the line again the driver waits until it has been quiet for
   * `resyncQuietMs`, dropping what arrives; by then the device has also given up a READ handshake
   * or a half-received frame (1 s). A line that does not fall quiet within 3 × that is not usable.
   */
  private async resynchronise(): Promise<void> {
    const quiet = this.options.resyncQuietMs ?? this.timeoutMs;
    const deadline = Date.now() + 3 * quiet;
    for (;;) {
      this.reader.discard();
      if (deadline - Date.now() < quiet) {
        throw new LineNotQuiet(`the line did not fall quiet for ${quiet} ms after a failed exchange`);
      }
      try {
        await this.reader.readBytes(1, quiet, 'quiet');
      } catch (e) {
        if (e instanceof ReadTimeout) return;
        throw e;
      }
    }
  }

  private notConnected(reason: string, cause?: unknown): FiscalError {
    return new FiscalError(
      'CHDU_NOT_CONNECTED',
      `The CHDÚ at ${this.target} is not connected (${reason}).`,
      {
        target: this.target,
      },
      cause === undefined ? undefined : { cause },
    );
  }
}

/** A uint32 output (a WRITE's address): exactly 4 bytes, else it is not this command's answer. */
function u32Output(data: Uint8Array, cmd: number): number {
  if (data.length !== 4) {
    throw new ProtocolError(`${COMMAND_NAMES.get(cmd)} output is ${data.length} bytes, expected 4`);
  }
  return readU32(data);
}
