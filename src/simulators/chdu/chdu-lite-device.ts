import {
  ACK,
  BEL,
  CMD,
  COMMAND_NAMES,
  EC,
  EOT,
  ERROR_NAMES,
  encodeBlockData,
  encodeFrame,
  encodeNak,
  encodeOpenFrame,
  encodeStatus,
  encodeVersion,
  FLAG,
  FRAME_TIMEOUT_MS,
  FrameParser,
  NAK,
  type ReadShape,
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

/**
 * How the emulated device speaks where the readings of the wire differ (ADR 0104 §2 and §6,
 * amended). The defaults are the strictest a device may be.
 */
export interface WireOptions {
  /** How a READ transfer is framed (default `spec-text`; see {@link ReadShape}). */
  readShape?: ReadShape;
  /**
   * Wait up to 1 s for the host's ACK after every output data frame — STATUS, VOLUME_SERIAL,
   * VERSION2, a WRITE's address, LOCK_REQUEST's magic — as after READ's (spec: "DÁTOVÝ RÁMEC").
   * Without it the exchange fails: no trailing EOT, and the byte that came instead is used up as
   * the answer, as a device waiting for it would (default true; false: such frames need no answer).
   */
  requireHostAck?: boolean;
  /**
   * Send EOT after the last frame of every data transfer, a single output frame included (the
   * spec text, "1. Formát", says an EOT follows a transfer's last frame); with `requireHostAck`
   * after the host's ACK (default true). READ's spec-text shape ends with EOT either way.
   */
  trailingEot?: boolean;
}

export interface DeviceOptions extends WireOptions {
  frameTimeoutMs?: number;
  /** Called when a `disconnect` fault triggers after a write: drop every line. */
  dropAll: () => void;
  record: (entry: HistoryEntry) => void;
}

const MAX_RETRANSMITS = 8;
const READ_CHUNK = 64;

/**
 * The CHDU Lite as the host sees it on the wire (the maker's specification P150300 v1.3), backed by the image-file CHDÚ.
 * No looser than the device: bytes before STX are ignored, a frame must be complete within 1 s
 * (else NAK EC_TIMEOUT), a LEN over the maximum is NAK EC_FRAME, argument lengths are checked
 * (EC_PARAM), unknown commands are EC_COMMAND, and a READ waits at most 1 s for each handshake —
 * by default every output data frame does ({@link WireOptions}).
 */
export class ChduLiteDevice {
  private readonly queue = new SerialQueue();
  private readonly timeoutMs: number;
  /** The wire options in force, defaults filled in. */
  readonly wire: Required<WireOptions>;

  constructor(
    private readonly image: ImageFileChdu,
    private readonly faults: FaultState,
    private readonly options: DeviceOptions,
  ) {
    this.timeoutMs = options.frameTimeoutMs ?? FRAME_TIMEOUT_MS;
    this.wire = {
      readShape: options.readShape ?? 'spec-text',
      requireHostAck: options.requireHostAck ?? true,
      trailingEot: options.trailingEot ?? true,
    };
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
          return await this.ackWithData(reader, link, name, args, await this.statusBytes());
        case CMD.VOLUME_SERIAL:
          return await this.ackWithData(reader, link, name, args, u32(await this.image.volumeSerial()));
        case CMD.VERSION2:
          return await this.ackWithData(
            reader,
            link,
            name,
            args,
            encodeVersion(await this.image.firmwareVersion()),
          );
        case CMD.READ:
          return await this.read(readU32(args, 0), readU32(args, 4), reader, link);
        case CMD.WRITE:
        case CMD.WRITE_PRINT:
        case CMD.WRITE_PRINT_OFFSET:
          return await this.write(cmd, name, args, reader, link);
        case CMD.OPEN_DRAWER:
        case CMD.OPEN_DRAWER2:
          if (this.faults.fire('hw')) return this.nak(link, name, 0, EC.HW);
          if (this.faults.fire('printer')) return this.nak(link, name, 0, EC.PRINTER);
          await this.image.openDrawer(cmd === CMD.OPEN_DRAWER ? 2 : 5);
          return this.ack(link, name, args);
        case CMD.LOCK_REQUEST:
          return await this.ackWithData(
            reader,
            link,
            name,
            args,
            u32(await this.image.lockRequest(readU32(args))),
          );
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

  private async write(
    cmd: number,
    name: string,
    args: Uint8Array,
    reader: ByteReader,
    link: DeviceLink,
  ): Promise<void> {
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
    if (this.faults.countWrite(cmd !== CMD.WRITE).includes('disconnect')) {
      // The line drops right after the answer: no host ACK is awaited, nothing more is taken in.
      link.write(Uint8Array.of(ACK));
      link.write(encodeFrame(u32(address)));
      this.options.record(entry(name, args, 'ACK, then the line dropped'));
      return this.options.dropAll();
    }
    await this.ackWithData(reader, link, name, args, u32(address));
  }

  private async read(start: number, count: number, reader: ByteReader, link: DeviceLink): Promise<void> {
    if (this.faults.fire('hw')) return this.nak(link, 'READ', 8, EC.HW);
    if (count === 0) return this.nak(link, 'READ', 8, EC.PARAM);
    const used = this.image.usedBlocks;
    if (start >= used) return this.nak(link, 'READ', 8, EC.BLOCK);
    const end = Math.min(used, start + count);
    const dotnet = this.wire.readShape === 'public-driver';
    // Public driver's reading: the command's ACK once, then per block STX LEN DATA, the host's
    // answer, and an end byte. Spec text: per block a lead, STX LEN DATA EOT, the host's answer.
    if (dotnet) link.write(Uint8Array.of(ACK));
    let sent = 0;
    let lastCrcOk = true;
    for (let first = start; first < end; first += READ_CHUNK) {
      for (const b of await this.image.read(first, Math.min(READ_CHUNK, end - first))) {
        let stored = b.data;
        if (b.command === 0xb4) {
          stored = new Uint8Array(b.data.length + 2);
          stored.set([(b.printOffset ?? 0) & 0xff, (b.printOffset ?? 0) >> 8], 0);
          stored.set(b.data, 2);
        }
        const payload = encodeBlockData(b.command, stored);
        const delivered = dotnet
          ? await this.handshake(reader, link, new Uint8Array(0), encodeOpenFrame(payload))
          : await this.handshake(reader, link, Uint8Array.of(b.crcOk ? ACK : BEL), encodeFrame(payload));
        if (!delivered) {
          return this.options.record(entry('READ', new Uint8Array(8), `${sent} blocks, cancelled`));
        }
        sent++;
        lastCrcOk = b.crcOk;
        if (dotnet) link.write(Uint8Array.of(!b.crcOk ? BEL : start + sent === end ? EOT : ACK));
      }
    }
    // Spec text: EOT ends every transfer. Public driver's reading: the last end byte was EOT,
    // unless that block's CRC failed (BEL); then an EOT says the transfer ended before the count.
    if (!dotnet || (!lastCrcOk && end < start + count)) link.write(Uint8Array.of(EOT));
    this.options.record(entry('READ', new Uint8Array(8), `${sent} blocks, EOT`));
  }

  /** Sends one data frame and waits for the host: ACK continues, NAK repeats, NUL, anything else or silence cancels. */
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

  private ack(link: DeviceLink, name: string, args: Uint8Array): void {
    link.write(Uint8Array.of(ACK));
    this.options.record(entry(name, args, 'ACK'));
  }

  /**
   * ACK and one output data frame; with `requireHostAck` the host must answer it as a READ frame
   * (ACK, or NAK to have it again) within 1 s, else the exchange fails; with `trailingEot` an EOT
   * closes the transfer.
   */
  private async ackWithData(
    reader: ByteReader,
    link: DeviceLink,
    name: string,
    args: Uint8Array,
    output: Uint8Array,
  ): Promise<void> {
    link.write(Uint8Array.of(ACK));
    let delivered = true;
    if (this.wire.requireHostAck)
      delivered = await this.handshake(reader, link, new Uint8Array(0), encodeFrame(output));
    else link.write(encodeFrame(output));
    if (delivered && this.wire.trailingEot) link.write(Uint8Array.of(EOT));
    this.options.record(
      entry(name, args, delivered ? 'ACK' : 'ACK, data frame not acknowledged by the host'),
    );
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
