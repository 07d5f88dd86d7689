import { appendFile } from 'node:fs/promises';

/**
 * The printer behind a CHDÚ: where WRITE_PRINT data and drawer pulses go. The real device drives
 * an RS-232 printer; the image file and the emulator use one of these small seams until the
 * printer adapters exist (a later issue).
 */
export interface PrintSink {
  readonly target: string;
  /** False while the printer cannot print (the device reports PRINTER_READY off, EC_PRINTER). */
  ready(): boolean;
  print(data: Uint8Array): Promise<void>;
  openDrawer(pin: 2 | 5): Promise<void>;
}

/** Appends the raw printer bytes to a file (drawer pulses as ESC p m t1 t2, as a printer gets them). */
export class FilePrintSink implements PrintSink {
  readonly target: string;

  constructor(private readonly path: string) {
    this.target = `file:${path}`;
  }

  ready(): boolean {
    return true;
  }

  async print(data: Uint8Array): Promise<void> {
    await appendFile(this.path, data);
  }

  async openDrawer(pin: 2 | 5): Promise<void> {
    // ESC p m t1 t2: m = 0 → pin 2, m = 1 → pin 5 (ESC/POS "generate pulse").
    await appendFile(this.path, Uint8Array.of(0x1b, 0x70, pin === 2 ? 0 : 1, 25, 250));
  }
}

/** Hands every print and drawer pulse to a callback (tests, in-process composition). */
export class CallbackPrintSink implements PrintSink {
  readonly target = 'callback';
  private isReady = true;

  constructor(
    private readonly onPrint: (data: Uint8Array) => void | Promise<void>,
    private readonly onDrawer: (pin: 2 | 5) => void | Promise<void> = () => {},
  ) {}

  setReady(ready: boolean): void {
    this.isReady = ready;
  }

  ready(): boolean {
    return this.isReady;
  }

  async print(data: Uint8Array): Promise<void> {
    await this.onPrint(data);
  }

  async openDrawer(pin: 2 | 5): Promise<void> {
    await this.onDrawer(pin);
  }
}
