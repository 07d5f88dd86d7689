import { connect, type Socket } from 'node:net';
import { refuseUnlessCharacterDevice } from '../checked-paths.js';

/**
 * A byte pipe to a device (serial port or TCP), as the CHDU Lite driver needs it: open, write,
 * and incoming bytes pushed to one listener. Closing (by either side) is reported once.
 */
export interface ByteTransport {
  readonly description: string;
  open(): Promise<void>;
  write(bytes: Uint8Array): Promise<void>;
  /** The listeners stay registered across reopen. */
  onData(listener: (bytes: Uint8Array) => void): void;
  onClose(listener: (error?: Error) => void): void;
  close(): Promise<void>;
  readonly isOpen: boolean;
}

/** Loopback/LAN TCP (`chdu-lite+tcp://HOST:PORT`), e.g. to `kasa chdu-sim` or a serial server. */
export class TcpTransport implements ByteTransport {
  readonly description: string;
  private socket: Socket | undefined;
  private dataListeners: Array<(b: Uint8Array) => void> = [];
  private closeListeners: Array<(e?: Error) => void> = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly connectTimeoutMs = 1000,
  ) {
    this.description = `tcp://${host}:${port}`;
  }

  get isOpen(): boolean {
    return this.socket !== undefined && !this.socket.destroyed;
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      socket.setNoDelay(true);
      const timer = setTimeout(
        () => socket.destroy(new Error(`connect timeout to ${this.description}`)),
        this.connectTimeoutMs,
      );
      socket.once('connect', () => {
        clearTimeout(timer);
        this.socket = socket;
        resolve();
      });
      socket.on('data', (b: Buffer) => {
        for (const l of this.dataListeners) l(b);
      });
      socket.once('error', (e) => {
        clearTimeout(timer);
        if (this.socket !== socket) reject(e);
      });
      socket.once('close', () => {
        if (this.socket !== socket) return;
        this.socket = undefined;
        for (const l of this.closeListeners) l(new Error(`${this.description} closed`));
      });
    });
  }

  write(bytes: Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error(`${this.description} is not open`));
    return new Promise((resolve, reject) => socket.write(bytes, (e) => (e ? reject(e) : resolve())));
  }

  onData(listener: (bytes: Uint8Array) => void): void {
    this.dataListeners.push(listener);
  }

  onClose(listener: (error?: Error) => void): void {
    this.closeListeners.push(listener);
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
  }
}

/** The part of serialport@13's `SerialPort` the transport uses (a seam for tests). */
export interface SerialPortLike {
  readonly isOpen: boolean;
  open(cb: (e: Error | null) => void): void;
  write(data: Buffer, cb: (e: Error | null | undefined) => void): unknown;
  drain(cb: (e: Error | null) => void): void;
  close(cb: (e: Error | null) => void): void;
  on(event: 'data', listener: (b: Buffer) => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  once(event: 'close', listener: (e?: Error) => void): unknown;
}

export interface SerialTransportOptions {
  /**
   * Limit for handing bytes to the device (write + drain), ms (default 1000, the device's 1 s
   * rule): a port whose output never drains (flow control held, a hung USB endpoint) is then a
   * dropped line (200), not a command that waits for ever.
   */
  writeTimeoutMs?: number;
  /** Test seam: builds the (not yet open) port. Default: serialport@13. */
  createPort?: (path: string, baudRate: number) => Promise<SerialPortLike>;
}

const createSerialPort = async (path: string, baudRate: number): Promise<SerialPortLike> => {
  // ADR 0426: serialport's own open already fails on anything but a tty, before it writes, with
  // "Inappropriate ioctl for device"; this says what the path is instead. A path that is not
  // there is left to serialport's own message.
  await refuseUnlessCharacterDevice(path, 'a serial device');
  const { SerialPort } = await import('serialport');
  return new SerialPort({ path, baudRate, autoOpen: false });
};

/**
 * A serial port (`chdu-lite+serial:///dev/ttyACM0`) through serialport@13. The CHDU Lite is a USB
 * CDC device, so the baud rate only matters on a real UART; 115200 by default.
 * `SerialPort.list()` is never called (it needs udev).
 */
export class SerialTransport implements ByteTransport {
  readonly description: string;
  private port: SerialPortLike | undefined;
  private dataListeners: Array<(b: Uint8Array) => void> = [];
  private closeListeners: Array<(e?: Error) => void> = [];

  constructor(
    private readonly path: string,
    private readonly baudRate = 115200,
    private readonly options: SerialTransportOptions = {},
  ) {
    this.description = `serial://${path}`;
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  async open(): Promise<void> {
    const port = await (this.options.createPort ?? createSerialPort)(this.path, this.baudRate);
    await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(e) : resolve())));
    this.port = port;
    port.on('data', (b: Buffer) => {
      for (const l of this.dataListeners) l(b);
    });
    port.once('close', (e?: Error) => {
      if (this.port !== port) return;
      this.port = undefined;
      for (const l of this.closeListeners) l(e ?? new Error(`${this.description} closed`));
    });
    port.on('error', () => {
      // Reported through 'close' or the failing write.
    });
  }

  write(bytes: Uint8Array): Promise<void> {
    const port = this.port;
    if (!port?.isOpen) return Promise.reject(new Error(`${this.description} is not open`));
    const limit = this.options.writeTimeoutMs ?? 1000;
    return new Promise((resolve, reject) => {
      let done = false;
      const finish = (e?: Error | null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (e) reject(e);
        else resolve();
      };
      const timer = setTimeout(
        () => finish(new Error(`${this.description}: output not drained within ${limit} ms`)),
        limit,
      );
      port.write(Buffer.from(bytes), (e) => {
        if (e) finish(e);
        else port.drain((d) => finish(d));
      });
    });
  }

  onData(listener: (bytes: Uint8Array) => void): void {
    this.dataListeners.push(listener);
  }

  onClose(listener: (error?: Error) => void): void {
    this.closeListeners.push(listener);
  }

  async close(): Promise<void> {
    const port = this.port;
    this.port = undefined;
    if (!port?.isOpen) return;
    // Bounded like a write: a hung port must not hold the driver's queue for ever.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.writeTimeoutMs ?? 1000);
      port.close(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
