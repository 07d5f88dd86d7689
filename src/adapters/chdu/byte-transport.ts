import { connect, type Socket } from 'node:net';

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

/**
 * A serial port (`chdu-lite+serial:///dev/ttyACM0`) through serialport@13. The CHDU Lite is a USB
 * CDC device, so the baud rate only matters on a real UART; 115200 by default.
 * `SerialPort.list()` is never called (it needs udev).
 */
export class SerialTransport implements ByteTransport {
  readonly description: string;
  private port: import('serialport').SerialPort | undefined;
  private dataListeners: Array<(b: Uint8Array) => void> = [];
  private closeListeners: Array<(e?: Error) => void> = [];

  constructor(
    private readonly path: string,
    private readonly baudRate = 115200,
  ) {
    this.description = `serial://${path}`;
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  async open(): Promise<void> {
    const { SerialPort } = await import('serialport');
    const port = new SerialPort({ path: this.path, baudRate: this.baudRate, autoOpen: false });
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
    return new Promise((resolve, reject) => {
      port.write(Buffer.from(bytes), (e) => {
        if (e) reject(e);
        else port.drain((d) => (d ? reject(d) : resolve()));
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
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }
}
