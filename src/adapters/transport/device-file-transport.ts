import type { FileHandle } from 'node:fs/promises';
import { openCharacterDevice } from '../checked-paths.js';
import type { ByteTransport } from './byte-transport.js';

export interface DeviceFileTransportOptions {
  /** How often an idle line is read (ms, default 5): the device file has no readiness events here. */
  pollMs?: number;
  /** Limit for handing one write to the device (ms, default 5000). */
  writeTimeoutMs?: number;
  /** What the device is, for the sentence refusing anything else (default "a character device"). */
  what?: string;
}

const AGAIN = new Set(['EAGAIN', 'EWOULDBLOCK']);

/**
 * A character device opened as a file, read and written without blocking — the Linux usblp
 * printer class device (`/dev/usb/lp0`, which is bidirectional: DLE EOT answers come back on
 * it), or a pty standing in for one in tests. Reads are polled every few milliseconds; a device
 * that goes away (EIO, ENODEV, EOF on a pty) closes the line. Anything but a character device is
 * refused before a byte is written (ADR 0426): the path comes from a setting, and a regular file
 * there (the CHDÚ image) would take the printer's status probe.
 */
export class DeviceFileTransport implements ByteTransport {
  readonly description: string;
  private handle: FileHandle | undefined;
  private dataListeners: Array<(b: Uint8Array) => void> = [];
  private closeListeners: Array<(e?: Error) => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly path: string,
    private readonly options: DeviceFileTransportOptions = {},
  ) {
    this.description = `usb://${path}`;
  }

  get isOpen(): boolean {
    return this.handle !== undefined;
  }

  async open(): Promise<void> {
    const handle = await openCharacterDevice(this.path, this.options.what ?? 'a character device');
    this.handle = handle;
    this.schedule(0);
  }

  async write(bytes: Uint8Array): Promise<void> {
    const limit = Date.now() + (this.options.writeTimeoutMs ?? 5000);
    let at = 0;
    while (at < bytes.length) {
      const handle = this.handle;
      if (!handle) throw new Error(`${this.description} is not open`);
      try {
        const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
        at += bytesWritten;
      } catch (e) {
        if (!AGAIN.has((e as NodeJS.ErrnoException).code ?? '')) {
          await this.lost(e as Error);
          throw e;
        }
        if (Date.now() > limit) throw new Error(`${this.description}: the device takes no data`);
        await new Promise((r) => setTimeout(r, this.options.pollMs ?? 5));
      }
    }
  }

  onData(listener: (bytes: Uint8Array) => void): void {
    this.dataListeners.push(listener);
  }

  onClose(listener: (error?: Error) => void): void {
    this.closeListeners.push(listener);
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    if (this.timer) clearTimeout(this.timer);
    await handle?.close().catch(() => undefined);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    const buf = Buffer.alloc(4096);
    try {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (this.handle !== handle) return;
      if (bytesRead > 0) {
        const data = buf.subarray(0, bytesRead);
        for (const l of this.dataListeners) l(data);
        this.schedule(0);
        return;
      }
    } catch (e) {
      if (!AGAIN.has((e as NodeJS.ErrnoException).code ?? '')) {
        await this.lost(e as Error);
        return;
      }
    }
    this.schedule(this.options.pollMs ?? 5);
  }

  private async lost(error: Error): Promise<void> {
    if (!this.handle) return;
    await this.close();
    for (const l of this.closeListeners) l(error);
  }
}
