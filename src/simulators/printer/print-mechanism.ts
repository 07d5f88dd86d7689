import type { EscPosCommand } from './escpos-decoder.js';

/** A command waiting in the receive buffer, with its wire size and where an answer goes. */
export interface BufferedCommand {
  cmd: EscPosCommand;
  size: number;
  /** Sends bytes back on the line the command came on (a process ID, GS r, GS I). */
  reply: (bytes: Uint8Array) => void;
}

export interface PrintMechanismOptions {
  /** Dot rows printed per second (8 rows a millimetre: 2000 is a 250 mm/s thermal printer). */
  rowsPerSecond: number;
  /** False while the printer cannot print (paper out, cover open, …): the buffer is cleared. */
  ready: () => boolean;
  /** Carries out one command when the mechanism reaches it. */
  execute: (entry: BufferedCommand) => void;
  /** The buffer has room again (the lines may read more). */
  drained: () => void;
}

/** Rows a line feed advances: the default line spacing of 1/6 inch at 203 dpi. */
const LINE_ROWS = 34;

/**
 * The receive buffer and the print mechanism of the simulated printer. What arrives waits here
 * until the mechanism, moving at `rowsPerSecond`, reaches it; only then is it on paper, and only
 * then does a process ID (GS ( H fn 48) answer. So, as on a real printer, a DLE EOT answer proves
 * that bytes arrived, not that they printed — and a power cut loses what is still here ({@link
 * clear}). A printer that stops on an error clears its buffer as well.
 */
export class PrintMechanism {
  private readonly queue: BufferedCommand[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private budget = 0;
  private rowsPerSecond: number;

  constructor(private readonly options: PrintMechanismOptions) {
    this.rowsPerSecond = options.rowsPerSecond;
  }

  /** Bytes received and not yet printed. */
  get buffered(): number {
    return this.bytes;
  }

  get idle(): boolean {
    return this.queue.length === 0;
  }

  get speed(): number {
    return this.rowsPerSecond;
  }

  /** A new speed applies from now: what was printed at the old speed until now is kept. */
  set speed(rowsPerSecond: number) {
    if (rowsPerSecond === this.rowsPerSecond) return;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
      const now = Date.now();
      this.budget += ((now - this.last) * this.rowsPerSecond) / 1000;
      this.last = now;
    }
    this.rowsPerSecond = rowsPerSecond;
    this.schedule(0);
  }

  enqueue(entry: BufferedCommand): void {
    this.queue.push(entry);
    this.bytes += entry.size;
    this.schedule(0);
  }

  /** Power cut or error: everything received and not printed is gone. */
  clear(): void {
    this.queue.length = 0;
    this.bytes = 0;
    this.budget = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.clear();
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) return;
    if (this.queue.length === 0) return;
    if (this.budget === 0) this.last = Date.now();
    this.timer = setTimeout(() => this.step(), ms);
  }

  private step(): void {
    this.timer = undefined;
    if (!this.options.ready()) {
      const had = this.queue.length > 0;
      this.clear();
      if (had) this.options.drained();
      return;
    }
    const now = Date.now();
    // The mechanism moves at its speed; the budget is what it could have printed since it last
    // had work (it is reset when the buffer empties, so an idle printer saves up nothing).
    this.budget += ((now - this.last) * this.rowsPerSecond) / 1000;
    this.last = now;
    let printed = false;
    while (this.queue.length > 0) {
      const head = this.queue[0] as BufferedCommand;
      const rows = rowsOf(head.cmd);
      if (rows > this.budget && rows > 0) break;
      this.budget -= rows;
      this.queue.shift();
      this.bytes -= head.size;
      printed = true;
      this.options.execute(head);
    }
    if (this.queue.length === 0) this.budget = 0;
    if (printed) this.options.drained();
    const head = this.queue[0];
    if (head !== undefined) {
      const wait = ((rowsOf(head.cmd) - this.budget) * 1000) / Math.max(1, this.rowsPerSecond);
      this.schedule(Math.max(1, Math.ceil(wait)));
    }
  }
}

/** How far the paper moves for a command, in dot rows (what takes the mechanism time). */
function rowsOf(cmd: EscPosCommand): number {
  switch (cmd.op) {
    case 'lf':
      return LINE_ROWS;
    case 'feed-lines':
      return LINE_ROWS * Math.max(1, cmd.lines);
    case 'feed-dots':
      return cmd.dots;
    case 'raster':
      return cmd.height;
    case 'column-image':
      return cmd.m >= 32 ? 24 : 8;
    case 'graphics-store':
      return cmd.height * cmd.scaleY;
    case 'qr-print':
      return 200;
    case 'barcode':
      return 100;
    default:
      return 0;
  }
}
