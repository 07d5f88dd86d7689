import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { PtyBridge } from '../chdu/pty-bridge.js';
import { type EscPosCommand, EscPosDecoder } from './escpos-decoder.js';
import { EscPosPaper, jobText, type PrintedJob } from './escpos-paper.js';
import { renderJobPng } from './paper-png.js';
import { type BufferedCommand, PrintMechanism } from './print-mechanism.js';

export interface PrinterSimOptions {
  host?: string;
  /** TCP port (0 = any free port; 9100 is the usual raw printing port). */
  port?: number;
  /** Folder for the job files; without it jobs stay in memory only. */
  outDir?: string;
  /** Font A characters per line: 32 (58 mm), 42 or 48 (80 mm). */
  charsPerLine?: 32 | 42 | 48;
  /** Model name answered to GS I 67. */
  model?: string;
  /** Receive buffer in bytes (default 4096, as most receipt printers): what a power cut loses. */
  bufferBytes?: number;
  /** Print speed in dot rows a second (default 2000: 250 mm/s); changeable in the state. */
  rowsPerSecond?: number;
}

/** The printer's condition, set through the control port or by tests. */
export interface PrinterSimState {
  paper: 'ok' | 'near-end' | 'out';
  coverOpen: boolean;
  /** False: the printer reports itself off-line (e.g. switched off-line at its panel). */
  online: boolean;
  /** Head overheated: printing stops (an auto-recoverable error). */
  overheated: boolean;
  /** False: every connection is refused or dropped (cable out, printer off). */
  reachable: boolean;
  /**
   * After this many more received bytes the printer loses power for a moment (one shot): every
   * line drops and what was received but not yet printed is lost, as on a real printer.
   */
  dropAfterBytes?: number;
  /** Print speed in dot rows a second (8 rows a millimetre). */
  rowsPerSecond: number;
}

/** One line (TCP connection) into the printer: what it sent that the buffer has not taken yet. */
interface Line {
  socket: Socket;
  decoder: EscPosDecoder;
  inbox: Uint8Array[];
}

export interface SimJob {
  no: number;
  text: string;
  drawerKicks: Array<2 | 5>;
  cut: boolean;
  notes: string[];
  /** Every byte received while the job was open, status requests included. */
  bytes: Uint8Array;
  files?: { txt: string; png: string; bin: string };
  /** Decoded QR codes, in order. */
  qrCodes: string[];
  /** Images that are not QR codes: their width and height in dots. */
  images: Array<{ width: number; height: number }>;
}

const PAPER_DOTS: Record<32 | 42 | 48, number> = { 32: 384, 42: 512, 48: 576 };

/** The default receive buffer: 4 KB, as most receipt printers have. */
export const SIM_BUFFER_BYTES = 4096;
/** The default speed: 250 mm/s at 8 dots a millimetre. */
export const SIM_ROWS_PER_SECOND = 2000;

/**
 * `kasa printer-sim`: an ESC/POS receipt printer on TCP. It decodes what it receives — from kasa
 * or any other ESC/POS encoder — into text and an image per job, answers DLE EOT status truthfully
 * from its condition, and can be put out of paper, cover open, off-line, overheated, unreachable,
 * or told to lose power after N bytes. Like a real printer it has a receive buffer (default 4 KB)
 * that a print mechanism empties at its speed: a DLE EOT answer (real time) proves arrival only,
 * a process ID (GS ( H fn 48) is answered once the data before it are printed, the line is not
 * read while the buffer is full, and a power cut loses what the buffer still holds. While not
 * ready it prints nothing: data are discarded, as by a printer whose buffer is cleared on error.
 */
export class EscPosPrinterSim {
  readonly charsPerLine: 32 | 42 | 48;
  readonly paperDots: number;
  readonly bufferBytes: number;
  private readonly lines = new Set<Line>();
  private readonly paper: EscPosPaper;
  private readonly mechanism: PrintMechanism;
  private readonly finished: SimJob[] = [];
  private readonly kicks: Array<{ pin: 2 | 5; at: string }> = [];
  private readonly bridges: PtyBridge[] = [];
  private condition: PrinterSimState;
  private received: Uint8Array[] = [];
  private nextNo: number;
  private server: Server | undefined;
  private waiters: Array<() => void> = [];

  private constructor(private readonly options: PrinterSimOptions) {
    this.charsPerLine = options.charsPerLine ?? 48;
    this.paperDots = PAPER_DOTS[this.charsPerLine];
    this.bufferBytes = options.bufferBytes ?? SIM_BUFFER_BYTES;
    this.condition = healthy(options.rowsPerSecond ?? SIM_ROWS_PER_SECOND);
    this.paper = new EscPosPaper(
      (job) => this.jobDone(job),
      (pin) => this.kicks.push({ pin, at: new Date().toISOString() }),
      { paperDots: this.paperDots },
    );
    this.mechanism = new PrintMechanism({
      rowsPerSecond: this.condition.rowsPerSecond,
      ready: () => this.ready(),
      execute: (entry) => this.execute(entry),
      drained: () => {
        for (const line of this.lines) this.pump(line);
      },
    });
    this.nextNo = 1;
    if (options.outDir !== undefined) {
      mkdirSync(options.outDir, { recursive: true });
      for (const name of readdirSync(options.outDir)) {
        const n = /^(\d+)\./.exec(name)?.[1];
        if (n !== undefined) this.nextNo = Math.max(this.nextNo, Number(n) + 1);
      }
    }
  }

  static async start(options: PrinterSimOptions = {}): Promise<EscPosPrinterSim> {
    const sim = new EscPosPrinterSim(options);
    await sim.listen(options.host ?? '127.0.0.1', options.port ?? 0);
    return sim;
  }

  get host(): string {
    return this.options.host ?? '127.0.0.1';
  }

  get port(): number {
    const a = this.server?.address();
    return typeof a === 'object' && a ? a.port : 0;
  }

  /** The `--printer` target that reaches this simulator. */
  get target(): string {
    return `tcp://${this.host}:${this.port}`;
  }

  get connections(): number {
    return this.lines.size;
  }

  /** Bytes received and not printed yet (in the receive buffer). */
  get unprinted(): number {
    return this.mechanism.buffered;
  }

  state(): PrinterSimState {
    return { ...this.condition };
  }

  /** Changes the condition; `reachable: false` drops every line at once. */
  set(change: Partial<PrinterSimState>): PrinterSimState {
    this.condition = { ...this.condition, ...change };
    if (change.dropAfterBytes === undefined && 'dropAfterBytes' in change)
      delete this.condition.dropAfterBytes;
    this.mechanism.speed = this.condition.rowsPerSecond;
    if (change.reachable === false) this.powerCut();
    return this.state();
  }

  get jobs(): readonly SimJob[] {
    return this.finished;
  }

  /** Drawer kicks seen (with a job or alone). */
  get drawerKicks(): ReadonlyArray<{ pin: 2 | 5; at: string }> {
    return this.kicks;
  }

  /** The open job: printed lines no cut has closed yet (e.g. after a dropped line). */
  openJobText(): string {
    return jobText(this.paper.peek(), this.charsPerLine);
  }

  /** Resolves once `count` jobs are finished (polling-free; bounded by `timeoutMs`). */
  async waitForJobs(count: number, timeoutMs = 10_000): Promise<readonly SimJob[]> {
    const until = Date.now() + timeoutMs;
    while (this.finished.length < count) {
      const left = until - Date.now();
      if (left <= 0)
        throw new Error(`printer-sim: ${this.finished.length} of ${count} jobs after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.finished;
  }

  /** Healthy again, history cleared (files stay, numbering goes on). */
  reset(): void {
    this.condition = healthy(this.options.rowsPerSecond ?? SIM_ROWS_PER_SECOND);
    this.mechanism.speed = this.condition.rowsPerSecond;
    this.mechanism.clear();
    this.finished.length = 0;
    this.kicks.length = 0;
    this.paper.lineClosed();
    this.paper.finish();
    this.finished.length = 0;
    this.received = [];
  }

  /** Also serves the printer on a pty at `path` (a serial printer; needs socat). */
  async bridgePty(path: string): Promise<PtyBridge> {
    const bridge = await PtyBridge.start(path, this.port, this.host);
    this.bridges.push(bridge);
    return bridge;
  }

  async close(): Promise<void> {
    await Promise.all(this.bridges.map((b) => b.close()));
    this.dropAll();
    this.mechanism.close();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** DLE EOT n: the status byte a real printer answers (Epson bit layout, fixed bits 0x12). */
  statusByte(n: number): number {
    const s = this.condition;
    const paperOut = s.paper === 'out';
    const error = s.overheated;
    switch (n) {
      case 1:
        return 0x12 | (this.ready() ? 0 : 0x08);
      case 2:
        return 0x12 | (s.coverOpen ? 0x04 : 0) | (paperOut ? 0x20 : 0) | (error ? 0x40 : 0);
      case 3:
        return 0x12 | (s.overheated ? 0x40 : 0);
      case 4:
        return 0x12 | (s.paper === 'near-end' ? 0x0c : 0) | (paperOut ? 0x60 : 0);
      default:
        return 0x12;
    }
  }

  private ready(): boolean {
    const s = this.condition;
    return s.online && !s.coverOpen && s.paper !== 'out' && !s.overheated;
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
    if (!this.condition.reachable) {
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    const line: Line = { socket, decoder: new EscPosDecoder(), inbox: [] };
    this.lines.add(line);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (!this.lines.has(line)) return;
      let bytes: Uint8Array = chunk;
      const limit = this.condition.dropAfterBytes;
      let drop = false;
      if (limit !== undefined) {
        if (bytes.length >= limit) {
          bytes = bytes.subarray(0, limit);
          drop = true;
          delete this.condition.dropAfterBytes;
        } else this.condition.dropAfterBytes = limit - bytes.length;
      }
      this.received.push(Uint8Array.from(bytes));
      line.inbox.push(Uint8Array.from(bytes));
      this.pump(line);
      if (drop) this.powerCut();
    });
    // The host closing its end is no power cut: what arrived still prints.
    socket.once('close', () => {
      if (line.inbox.length === 0) this.lines.delete(line);
    });
  }

  /**
   * Moves bytes from a line into the receive buffer while it has room (a full buffer stops
   * reading the line, as a printer holds the host off). Real-time commands (DLE EOT, DLE DC4) are
   * carried out as they are taken in; everything else waits for the mechanism.
   */
  private pump(line: Line): void {
    while (line.inbox.length > 0) {
      let room = this.bufferBytes - this.mechanism.buffered - line.decoder.pending;
      // A command larger than the buffer streams through an idle mechanism a piece at a time.
      if (room <= 0 && this.mechanism.idle) room = 512;
      if (room <= 0) break;
      const head = line.inbox[0] as Uint8Array;
      const piece = head.subarray(0, room);
      if (piece.length === head.length) line.inbox.shift();
      else line.inbox[0] = head.subarray(piece.length);
      for (const { cmd, size } of line.decoder.pushSized(piece)) this.take(line, cmd, size);
    }
    if (line.socket.destroyed) {
      if (line.inbox.length === 0) this.lines.delete(line);
      return;
    }
    if (line.inbox.length > 0) line.socket.pause();
    else line.socket.resume();
  }

  private take(line: Line, cmd: EscPosCommand, size: number): void {
    const reply = (bytes: Uint8Array): void => {
      if (!line.socket.destroyed) line.socket.write(bytes);
    };
    if (cmd.op === 'status') {
      reply(Uint8Array.of(this.statusByte(cmd.n)));
      return;
    }
    if (cmd.op === 'drawer' && cmd.realtime === true) {
      if (this.ready()) this.paper.apply(cmd);
      return;
    }
    if (!this.ready()) return; // an error clears what arrives, as it cleared the buffer
    this.mechanism.enqueue({ cmd, size, reply });
  }

  /** The mechanism reached a command: print it, or answer it now that all before it is done. */
  private execute({ cmd, reply }: BufferedCommand): void {
    if (cmd.op === 'process-id') {
      reply(Uint8Array.from([0x37, 0x22, ...Array.from(cmd.id, (c) => c.charCodeAt(0)), 0x00]));
    } else if (cmd.op === 'transmit-status') {
      const n = cmd.n % 48;
      const paper =
        (this.condition.paper === 'near-end' ? 0x03 : 0) | (this.condition.paper === 'out' ? 0x0c : 0);
      reply(Uint8Array.of(n === 1 ? paper : 0));
    } else if (cmd.op === 'printer-id') {
      reply(printerId(cmd.n, this.options.model ?? 'kasa printer-sim'));
    } else {
      this.paper.apply(cmd);
    }
  }

  /** Power off for a moment: every line drops, the receive buffer and the unprinted line are lost. */
  private powerCut(): void {
    this.dropAll();
    this.mechanism.clear();
    this.paper.lineClosed();
  }

  private jobDone(job: PrintedJob): void {
    const no = this.nextNo++;
    const text = jobText(job, this.charsPerLine);
    const bytes = concat(this.received);
    this.received = [];
    const qrCodes: string[] = [];
    const images: Array<{ width: number; height: number }> = [];
    for (const e of job.elements) {
      if (e.kind === 'qr') qrCodes.push(e.text);
      if (e.kind === 'image') {
        if (e.qr !== undefined) qrCodes.push(e.qr);
        else images.push({ width: e.width, height: e.height });
      }
    }
    const sim: SimJob = {
      no,
      text,
      drawerKicks: job.drawerKicks,
      cut: job.cut,
      notes: job.notes,
      bytes,
      qrCodes,
      images,
    };
    const dir = this.options.outDir;
    if (dir !== undefined) {
      const base = join(dir, String(no).padStart(6, '0'));
      sim.files = { txt: `${base}.txt`, png: `${base}.png`, bin: `${base}.bin` };
      // The .txt last: once it is there, the job's files are complete (a watcher can rely on it).
      writeFileSync(sim.files.png, renderJobPng(job, this.paperDots, this.charsPerLine));
      writeFileSync(sim.files.bin, bytes);
      writeFileSync(sim.files.txt, text);
    }
    this.finished.push(sim);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private dropAll(): void {
    for (const line of this.lines) {
      line.socket.destroy();
      line.decoder.discard();
      line.inbox.length = 0;
    }
    this.lines.clear();
  }
}

function healthy(rowsPerSecond: number): PrinterSimState {
  return { paper: 'ok', coverOpen: false, online: true, overheated: false, reachable: true, rowsPerSecond };
}

/** GS I n: 1 model id, 2 type id, 3 firmware, 65 firmware, 66 maker, 67 model name ("_" text NUL). */
function printerId(n: number, model: string): Uint8Array {
  if (n === 1 || n === 49) return Uint8Array.of(0x20);
  if (n === 2 || n === 50) return Uint8Array.of(0x02);
  const text = n === 66 ? 'kasa' : n === 65 || n === 3 || n === 51 ? '1.0' : model;
  return Uint8Array.from([0x5f, ...new TextEncoder().encode(text), 0]);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
