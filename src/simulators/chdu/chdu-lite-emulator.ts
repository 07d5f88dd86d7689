import { createServer, type Server, type Socket } from 'node:net';
import { ImageFileChdu } from '../../adapters/chdu/image-file-chdu.js';
import type { PrintSink } from '../../adapters/chdu/print-sink.js';
import { ByteReader, LineClosed } from '../../adapters/transport/byte-reader.js';
import type { Clock } from '../../core/ports/clock.js';
import { ChduLiteDevice, type HistoryEntry, type WireOptions } from './chdu-lite-device.js';
import { type FaultKind, type FaultSpec, FaultState } from './chdu-lite-faults.js';
import { PtyBridge } from './pty-bridge.js';

export interface ChduLiteEmulatorOptions extends WireOptions {
  /**
   * The image file behind the emulated device (created when missing). The emulator is its one
   * writer: an image another process writes is refused (200, ADR 0106).
   */
  imagePath: string;
  /** Capacity of a new image; an existing image with another one is refused (701). */
  capacityBlocks?: number;
  serial?: number;
  /** Where WRITE_PRINT data go; without one the device has no printer (EC_PRINTER). */
  printer?: PrintSink;
  faults?: FaultSpec[];
  host?: string;
  /** TCP port (0 = any free port). */
  port?: number;
  frameTimeoutMs?: number;
  clock?: Clock;
}

const HISTORY_LIMIT = 1000;

/**
 * `kasa chdu-sim`: a CHDU Lite on TCP (and on a pty through socat), backed by the image-file
 * CHDÚ. Faults are injected with {@link inject}; what it received is kept in {@link history}.
 */
export class ChduLiteEmulator {
  readonly faults = new FaultState();
  private readonly sockets = new Set<Socket>();
  private readonly entries: HistoryEntry[] = [];
  private readonly bridges: PtyBridge[] = [];
  private readonly device: ChduLiteDevice;
  private server: Server | undefined;

  private constructor(
    readonly image: ImageFileChdu,
    private readonly options: ChduLiteEmulatorOptions,
  ) {
    this.device = new ChduLiteDevice(image, this.faults, {
      ...(options.frameTimeoutMs === undefined ? {} : { frameTimeoutMs: options.frameTimeoutMs }),
      ...(options.readShape === undefined ? {} : { readShape: options.readShape }),
      ...(options.requireHostAck === undefined ? {} : { requireHostAck: options.requireHostAck }),
      ...(options.trailingEot === undefined ? {} : { trailingEot: options.trailingEot }),
      dropAll: () => this.dropAll(),
      record: (e) => {
        this.entries.push(e);
        if (this.entries.length > HISTORY_LIMIT) this.entries.shift();
      },
    });
    for (const f of options.faults ?? []) this.faults.inject(f);
  }

  static async start(options: ChduLiteEmulatorOptions): Promise<ChduLiteEmulator> {
    const image = await ImageFileChdu.open(options.imagePath, {
      create: true,
      holder: 'chdu-sim',
      ...(options.capacityBlocks === undefined ? {} : { capacityBlocks: options.capacityBlocks }),
      ...(options.serial === undefined ? {} : { serial: options.serial }),
      ...(options.printer ? { printer: options.printer } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const emulator = new ChduLiteEmulator(image, options);
    try {
      await emulator.listen(options.host ?? '127.0.0.1', options.port ?? 0);
    } catch (e) {
      await image.close();
      throw e;
    }
    return emulator;
  }

  get host(): string {
    return this.options.host ?? '127.0.0.1';
  }

  get port(): number {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  get url(): string {
    return `chdu-lite+tcp://${this.host}:${this.port}`;
  }

  /** How the device speaks where the readings of the wire differ (ADR 0104, amended). */
  get wire(): Required<WireOptions> {
    return this.device.wire;
  }

  get connections(): number {
    return this.sockets.size;
  }

  history(): readonly HistoryEntry[] {
    return this.entries;
  }

  inject(spec: FaultSpec): void {
    this.faults.inject(spec);
    if (spec.kind === 'disconnect' && !spec.afterWrites && !spec.afterPrints) this.dropAll();
  }

  clear(kind?: FaultKind): void {
    this.faults.clear(kind);
  }

  /** Clears faults and history (between tests). */
  reset(): void {
    this.faults.clear();
    this.entries.length = 0;
  }

  /** Also serves the device on a pty at `path` (needs `socat`). */
  async bridgePty(path: string): Promise<PtyBridge> {
    const bridge = await PtyBridge.start(path, this.port, this.host);
    this.bridges.push(bridge);
    return bridge;
  }

  async close(): Promise<void> {
    await Promise.all(this.bridges.map((b) => b.close()));
    this.dropAll();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.image.close();
  }

  private listen(host: string, port: number): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  private accept(socket: Socket): void {
    if (this.faults.triggered('disconnect')) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    this.sockets.add(socket);
    const reader = new ByteReader();
    socket.on('data', (b: Buffer) => reader.push(b));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      this.sockets.delete(socket);
      reader.fail(new LineClosed());
    });
    void this.device
      .serve(reader, { write: (bytes) => (socket.destroyed ? undefined : socket.write(bytes)) })
      .catch(() => socket.destroy());
  }

  private dropAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }
}
