import { connect, type Socket } from 'node:net';
import type { PrintSink } from '../../adapters/chdu/print-sink.js';

export interface PrinterLinkOptions {
  /** How the line tells that the printer can print (the RS-232 handshake of a real CHDU Lite). */
  handshake?: () => boolean;
  /** Without a handshake: ask DLE EOT 1 after this long without print data (ms, default 300). */
  idlePollMs?: number;
}

/**
 * The printer port of the emulated CHDU Lite (`kasa chdu-sim --printer tcp://HOST:PORT`): print
 * data and drawer pulses go to an ESC/POS printer on TCP, e.g. `kasa printer-sim`. A real device
 * learns whether its printer is ready from the RS-232 handshake lines; here the `handshake`
 * callback stands for them, or — over plain TCP — a DLE EOT 1 asked only while no print data
 * flows, so a status request never lands inside a command the blocks carry.
 */
export class PrinterLinkSink implements PrintSink {
  readonly target: string;
  private socket: Socket | undefined;
  private online = false;
  private lastData = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly options: PrinterLinkOptions = {},
  ) {
    this.target = `tcp://${host}:${port}`;
    this.schedule(0);
  }

  ready(): boolean {
    if (this.options.handshake) return this.options.handshake() && this.socket !== undefined;
    return this.online && this.socket !== undefined;
  }

  async print(data: Uint8Array): Promise<void> {
    await this.write(data);
  }

  async openDrawer(pin: 2 | 5): Promise<void> {
    await this.write(Uint8Array.of(0x1b, 0x70, pin === 2 ? 0 : 1, 50, 250));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.destroy();
  }

  private async write(bytes: Uint8Array): Promise<void> {
    const socket = this.socket ?? (await this.open());
    this.lastData = Date.now();
    await new Promise<void>((resolve, reject) => socket.write(bytes, (e) => (e ? reject(e) : resolve())));
  }

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      socket.once('connect', () => {
        this.socket = socket;
        resolve(socket);
      });
      socket.once('error', reject);
      socket.on('data', (b: Buffer) => {
        const last = b.at(-1);
        if (last !== undefined && (last & 0x93) === 0x12) this.online = (last & 0x08) === 0;
      });
      socket.once('close', () => {
        if (this.socket === socket) this.socket = undefined;
        this.online = false;
      });
    });
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const idle = this.options.idlePollMs ?? 300;
    try {
      const socket = this.socket ?? (await this.open());
      if (!this.options.handshake && Date.now() - this.lastData >= idle)
        socket.write(Uint8Array.of(0x10, 0x04, 1));
    } catch {
      this.online = false;
    }
    this.schedule(this.options.handshake ? 500 : idle);
  }
}
