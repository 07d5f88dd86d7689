import {
  ACK,
  BEL,
  CMD,
  COMMAND_NAMES,
  EC,
  EOT,
  ERROR_NAMES,
  encodeAck,
  encodeBlockData,
  encodeFrame,
  encodeNak,
  encodeStatus,
  encodeVersion,
  FLAG,
  FRAME_TIMEOUT_MS,
  FrameParser,
  NAK,
  readU16,
  readU32,
  u32,
} from '../../adapters/chdu/chdu-lite-codec.js';
import { readFrame } from '../../adapters/chdu/frame-reader.js';
import type { ImageFileChdu } from '../../adapters/chdu/image-file-chdu.js';
import { type ByteReader, LineClosed, ReadTimeout } from '../../adapters/transport/byte-reader.js';
import { FiscalError } from '../../core/fiscal-error.js';
import { SerialQueue } from '../../core/serial-queue.js';
import type { FaultState } from './chdu-lite-faults.js';

/** One line to a host (a TCP connection, or a pty through socat). */
export interface DeviceLink {
  write(bytes: Uint8Array): void;
}

export interface HistoryEntry {
  at: string;
  command: string;
  argsLength: number;
  answer: string;
}

export interface DeviceOptions {
  frameTimeoutMs?: number;
  /** Called when a `disconnect` fault triggers after a write: drop every line. */
  dropAll: () => void;
  record: (entry: HistoryEntry) => void;
}

const MAX_RETRANSMITS = 8;
const READ_CHUNK = 64;

/**
 * The CHDU Lite as the host sees it on the wire (chdu-lite.md), backed by the image-file CHDÚ.
 * No looser than the device: bytes before STX are ignored, a frame must be complete within 1 s
 * (else NAK EC_TIMEOUT), a LEN over the maximum is NAK EC_FRAME, argument lengths are checked
 * (EC_PARAM), unknown commands are EC_COMMAND, and a READ waits at most 1 s for each handshake.
 */
export class ChduLiteDevice {
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;

  constructor(
    private readonly image: ImageFileChdu,
    private readonly faults: FaultState,
    private readonly options: DeviceOptions,
  ) {
    this.timeoutMs = options.frameTimeoutMs ?? FRAME_TIMEOUT_MS;
  }

  /** Serves one line until it closes. */
  async serve(reader: ByteReader, link: DeviceLink): Promise<void> {
    // The codec's parser skips everything before STX while idle, as the device does.
    const parser = new FrameParser();
    try {
      for (;;) {
        parser.push(await reader.readBytes(1, Number.POSITIVE_INFINITY));
        if (!parser.pending) continue;
        const frame = await this.receiveFrame(reader, parser, link);
        if (frame) await this.queue.run(() => this.execute(frame[0]!, frame.subarray(1), reader, link));
      }
    } catch (e) {
      if (!(e instanceof LineClosed)) throw e;
    }
  }

  /** The rest of a frame whose STX arrived: complete within 1 s, else NAK EC_TIMEOUT. */
  private async receiveFrame(
    reader: ByteReader,
    parser: FrameParser,
    link: DeviceLink,
  ): Promise<Uint8Array | undefined> {
    try {
      const r = await readFrame(reader, parser, this.timeoutMs, 'frame');
      return r.kind === 'frame' ? r.payload : this.refuse(link, 'frame', EC.FRAME);
    } catch (e) {
      if (!(e instanceof ReadTimeout)) throw e;
      parser.reset();
      return this.refuse(link, 'frame', EC.TIMEOUT);
    }
  }

  private refuse(link: DeviceLink, what: string, code: number): undefined {
    this.nak(link, what, 0, code);
    return undefined;
  }

  private async execute(cmd: number, args: Uint8Array, reader: ByteReader, link: DeviceLink): Promise<void> {
    const name = COMMAND_NAMES.get(cmd) ?? `0x${cmd.toString(16)}`;
    if (this.faults.triggered('mute')) return this.options.record(entry(name, args, 'none (mute)'));
    if (this.faults.fire('busy')) return this.nak(link, name, args.length, EC.BUSY);
    const fixed: Partial<Record<number, number>> = {
      [CMD.NOP]: 0,
      [CMD.STATUS]: 0,
      [CMD.VOLUME_SERIAL]: 0,
      [CMD.VERSION2]: 0,
      [CMD.READ]: 8,
      [CMD.OPEN_DRAWER]: 0,
      [CMD.OPEN_DRAWER2]: 0,
      [CMD.LOCK_REQUEST]: 4,
      [CMD.LOCK_ACTIVATE]: 4,
    };
    if (!COMMAND_NAMES.has(cmd)) return this.nak(link, name, args.length, EC.COMMAND);
    const expected = fixed[cmd];
    if (expected !== undefined && args.length !== expected)
      return this.nak(link, name, args.length, EC.PARAM);
    try {
      switch (cmd) {
        case CMD.NOP:
          return this.ack(link, name, args);
        case CMD.STATUS:
          return this.ack(link, name, args, await this.statusBytes());
        case CMD.VOLUME_SERIAL:
          return this.ack(link, name, args, u32(await this.image.volumeSerial()));
        case CMD.VERSION2:
          return this.ack(link, name, args, encodeVersion(await this.image.firmwareVersion()));
        case CMD.READ:
          return await this.read(readU32(args, 0), readU32(args, 4), reader, link);
        case CMD.WRITE:
        case CMD.WRITE_PRINT:
        case CMD.WRITE_PRINT_OFFSET:
          return await this.write(cmd, name, args, link);
        case CMD.OPEN_DRAWER:
        case CMD.OPEN_DRAWER2:
          if (this.faults.fire('hw')) return this.nak(link, name, 0, EC.HW);
          if (this.faults.fire('printer')) return this.nak(link, name, 0, EC.PRINTER);
          await this.image.openDrawer(cmd === CMD.OPEN_DRAWER ? 2 : 5);
          return this.ack(link, name, args);
        case CMD.LOCK_REQUEST:
          return this.ack(link, name, args, u32(await this.image.lockRequest(readU32(args))));
        default:
          if (this.faults.fire('hw')) return this.nak(link, name, 4, EC.HW);
          await this.image.lockActivate(readU32(args));
          return this.ack(link, name, args);
      }
    } catch (e) {
      return this.nak(link, name, args.length, await this.errorCode(e));
    }
  }

  private async statusBytes(): Promise<Uint8Array> {
    const s = await this.image.status();
    const [major, minor] = s.protocolVersion.split('.').map(Number);
    // A STATUS that shows a fault is one command answered with it, so `count=N` runs out even for
    // a host that checks STATUS before writing and then never writes (kasa does).
    const hw = this.faults.fire('hw');
    const printer = this.faults.fire('printer');
    const full = this.faults.fire('full');
    const flags =
      (s.storageOk && !hw ? FLAG.STORAGE_OK : 0) |
      (s.printerReady && !printer ? FLAG.PRINTER_READY : 0) |
      (s.deviceLocked ? FLAG.DEVICE_LOCK : 0) |
      (s.printerInvalid ? FLAG.PRINTER_INVALID : 0);
    return encodeStatus({
      version: ((major ?? 1) << 8) | (minor ?? 3),
      flags,
      serial: s.serial,
      capacity: s.capacityBlocks,
      free: full ? 0 : s.freeBlocks,
      blockDataSize: s.blockDataSize,
    });
  }

  private async write(cmd: number, name: string, args: Uint8Array, link: DeviceLink): Promise<void> {
    if (this.faults.fire('hw') || this.faults.fire('full')) return this.nak(link, name, args.length, EC.HW);
    if (cmd !== CMD.WRITE && this.faults.fire('printer'))
      return this.nak(link, name, args.length, EC.PRINTER);
    let address: number;
    if (cmd === CMD.WRITE) address = await this.image.write(args);
    else if (cmd === CMD.WRITE_PRINT) address = await this.image.writeAndPrint(args);
    else {
      if (args.length < 2) return this.nak(link, name, args.length, EC.PARAM);
      address = await this.image.writeAndPrint(args.subarray(2), readU16(args));
    }
    if (this.faults.fire('lost-ack')) {
      this.faults.countWrite(cmd !== CMD.WRITE);
      return this.options.record(entry(name, args, `none (block ${address} stored, answer lost)`));
    }
    this.ack(link, name, args, u32(address));
    if (this.faults.countWrite(cmd !== CMD.WRITE).includes('disconnect')) this.options.dropAll();
  }

  private async read(start: number, count: number, reader: ByteReader, link: DeviceLink): Promise<void> {
    if (this.faults.fire('hw')) return this.nak(link, 'READ', 8, EC.HW);
    if (count === 0) return this.nak(link, 'READ', 8, EC.PARAM);
    const used = this.image.usedBlocks;
    if (start >= used) return this.nak(link, 'READ', 8, EC.BLOCK);
    const end = Math.min(used, start + count);
    let sent = 0;
    for (let first = start; first < end; first += READ_CHUNK) {
      for (const b of await this.image.read(first, Math.min(READ_CHUNK, end - first))) {
        let stored = b.data;
        if (b.command === 0xb4) {
          stored = new Uint8Array(b.data.length + 2);
          stored.set([(b.printOffset ?? 0) & 0xff, (b.printOffset ?? 0) >> 8], 0);
          stored.set(b.data, 2);
        }
        const frame = encodeFrame(encodeBlockData(b.command, stored));
        const lead = Uint8Array.of(b.crcOk ? ACK : BEL);
        if (!(await this.handshake(reader, link, lead, frame))) {
          return this.options.record(entry('READ', new Uint8Array(8), `${sent} blocks, cancelled`));
        }
        sent++;
      }
    }
    link.write(Uint8Array.of(EOT));
    this.options.record(entry('READ', new Uint8Array(8), `${sent} blocks, EOT`));
  }

  /** Sends one block and waits for the host: ACK continues, NAK repeats, NUL or silence cancels. */
  private async handshake(
    reader: ByteReader,
    link: DeviceLink,
    lead: Uint8Array,
    frame: Uint8Array,
  ): Promise<boolean> {
    for (let attempt = 0; attempt <= MAX_RETRANSMITS; attempt++) {
      link.write(lead);
      link.write(frame);
      let reply: number;
      try {
        reply = await reader.readByte(this.timeoutMs, 'host handshake');
      } catch (e) {
        if (e instanceof ReadTimeout) return false;
        throw e;
      }
      if (reply === ACK) return true;
      if (reply !== NAK) return false;
    }
    return false;
  }

  private async errorCode(e: unknown): Promise<number> {
    if (!FiscalError.is(e)) return EC.HW;
    switch (e.resultName) {
      case 'INVALID_INPUT':
        return EC.PARAM;
      case 'PRINTER_NOT_READY':
        return EC.PRINTER;
      case 'CHDU_WRITE_LIMIT':
        return (await this.image.status()).deviceLocked ? EC.LOCKED : EC.HW;
      default:
        return EC.HW;
    }
  }

  private ack(link: DeviceLink, name: string, args: Uint8Array, output?: Uint8Array): void {
    link.write(encodeAck(output));
    this.options.record(entry(name, args, 'ACK'));
  }

  private nak(link: DeviceLink, name: string, argsLength: number, code: number): void {
    link.write(encodeNak(code));
    this.options.record({
      at: new Date().toISOString(),
      command: name,
      argsLength,
      answer: `NAK EC_${ERROR_NAMES.get(code)}`,
    });
  }
}

function entry(command: string, args: Uint8Array, answer: string): HistoryEntry {
  return { at: new Date().toISOString(), command, argsLength: args.length, answer };
}
