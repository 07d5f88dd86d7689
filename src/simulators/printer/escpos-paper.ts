import jsQRModule, { type Options as JsQrOptions, type QRCode } from 'jsqr';
import { codepageTable, decodeBytes, EPSON_CODEPAGES } from '../../adapters/printer/escpos-codepages.js';
import { hardWrap } from '../../core/receipt/line-builder.js';
import type { EscPosCommand } from './escpos-decoder.js';

export interface PaperChar {
  ch: string;
  bold: boolean;
  width: number;
  height: number;
}

/** What ends up on the paper, in order. */
export type PaperElement =
  | { kind: 'line'; align: 0 | 1 | 2; font: number; chars: PaperChar[] }
  | { kind: 'image'; align: 0 | 1 | 2; width: number; height: number; dots: Uint8Array; qr?: string }
  | { kind: 'qr'; text: string }
  | { kind: 'barcode'; text: string };

/** One job: what was printed up to a cut (or up to the line closing, when it never came). */
export interface PrintedJob {
  elements: PaperElement[];
  drawerKicks: Array<2 | 5>;
  cut: boolean;
  /** Commands that were skipped (unknown) or code pages the simulator does not have. */
  notes: string[];
}

interface Modes {
  align: 0 | 1 | 2;
  bold: boolean;
  width: number;
  height: number;
  font: number;
  codepage: number;
}

const DEFAULT_MODES: Modes = { align: 0, bold: false, width: 1, height: 1, font: 0, codepage: 0 };

/** A raster graphic stored by GS ( L fn 112, printed by fn 50. */
interface StoredGraphic {
  width: number;
  height: number;
  scaleX: number;
  scaleY: number;
  data: Uint8Array;
}

/**
 * The print mechanism of the simulated printer: applies decoded commands, keeps the line buffer
 * (a line is on paper only when LF, ESC d or a cut prints it; ESC @ drops an unprinted line, as
 * the buffer of a real printer is cleared), joins consecutive bit-image strips into one image and
 * reads QR codes back from images with jsQR. Jobs end at a cut. Pictures are clipped to the
 * paper's printable width in dots, as a printer drops what lies beyond its head.
 */
export class EscPosPaper {
  private modes: Modes = { ...DEFAULT_MODES };
  private line: PaperChar[] = [];
  private lineAlign: 0 | 1 | 2 | undefined;
  private current: PrintedJob = newJob();
  private qrData: Uint8Array | undefined;
  private graphic: StoredGraphic | undefined;
  private readonly paperDots: number;

  constructor(
    private readonly onJob: (job: PrintedJob) => void,
    private readonly onDrawer: (pin: 2 | 5) => void = () => {},
    options: { paperDots?: number } = {},
  ) {
    this.paperDots = options.paperDots ?? 576;
  }

  /** Has content that no cut has closed yet. */
  get open(): boolean {
    return this.current.elements.length > 0 || this.line.length > 0;
  }

  /** The job so far (for a line that closed before its cut). */
  peek(): PrintedJob {
    return this.current;
  }

  apply(cmd: EscPosCommand): void {
    if (cmd.op !== 'lf' && cmd.op !== 'column-image' && cmd.op !== 'ignored') this.columnBand = false;
    switch (cmd.op) {
      case 'text':
        this.text(cmd.bytes);
        return;
      case 'lf':
        // ESC * bands are each followed by LF: the feed belongs to the picture, not a blank line.
        if (this.columnBand && this.line.length === 0) {
          this.columnBand = false;
          return;
        }
        this.printLine();
        return;
      case 'feed-lines':
        this.printLine();
        for (let i = 1; i < cmd.lines; i++) this.printLine();
        return;
      case 'feed-dots':
        return;
      case 'init':
        this.line = [];
        this.lineAlign = undefined;
        this.modes = { ...DEFAULT_MODES };
        this.qrData = undefined;
        this.graphic = undefined;
        return;
      case 'align':
        this.modes.align = cmd.align;
        return;
      case 'bold':
        this.modes.bold = cmd.on;
        return;
      case 'size':
        this.modes.width = cmd.width;
        this.modes.height = cmd.height;
        return;
      case 'print-mode':
        this.modes.font = cmd.mode & 1;
        this.modes.bold = (cmd.mode & 8) !== 0;
        this.modes.height = cmd.mode & 16 ? 2 : 1;
        this.modes.width = cmd.mode & 32 ? 2 : 1;
        return;
      case 'font':
        this.modes.font = cmd.font;
        return;
      case 'codepage':
        this.modes.codepage = cmd.n;
        if (EPSON_CODEPAGES[cmd.n] === undefined)
          this.current.notes.push(`ESC t ${cmd.n}: code page not known`);
        return;
      case 'raster': {
        const width = Math.min(cmd.widthBytes * 8, this.paperDots);
        this.image(width, cmd.height, unpackRows(cmd.data, cmd.widthBytes, cmd.height, width));
        return;
      }
      case 'column-image': {
        const rows = cmd.m >= 32 ? 24 : 8;
        const width = Math.min(cmd.width, this.paperDots);
        this.image(width, rows, unpackColumns(cmd.data, width, rows));
        this.columnBand = true;
        return;
      }
      case 'graphics-store':
        this.graphic = cmd;
        return;
      case 'graphics-print': {
        // The print buffer's graphic is printed once, then the buffer is empty.
        const g = this.graphic;
        this.graphic = undefined;
        if (g === undefined) return;
        const width = Math.min(g.width * g.scaleX, this.paperDots);
        const height = g.height * g.scaleY;
        this.image(width, height, scaledRows(g, width));
        this.closeImages();
        return;
      }
      case 'skipped':
        this.current.notes.push(`${cmd.name}: ${cmd.bytes} bytes, more than any printer takes; skipped`);
        return;
      case 'qr-store':
        this.qrData = cmd.data;
        return;
      case 'qr-print':
        if (this.qrData !== undefined) {
          this.flushLine();
          this.current.elements.push({ kind: 'qr', text: new TextDecoder().decode(this.qrData) });
        }
        return;
      case 'barcode':
        this.flushLine();
        this.current.elements.push({ kind: 'barcode', text: new TextDecoder('latin1').decode(cmd.data) });
        return;
      case 'cut':
        this.flushLine();
        this.current.cut = true;
        this.finish();
        return;
      case 'drawer':
        this.current.drawerKicks.push(cmd.pin);
        this.onDrawer(cmd.pin);
        return;
      case 'unknown':
        this.current.notes.push(
          `unknown command ${Array.from(cmd.bytes, (x) => x.toString(16).padStart(2, '0')).join(' ')}`,
        );
        return;
      default:
        return; // status requests and ignored commands do not touch the paper
    }
  }

  /** The line closed: what was printed stays on the paper; an unprinted line is lost. */
  lineClosed(): void {
    this.line = [];
    this.lineAlign = undefined;
  }

  /** Ends the current job without a cut (e.g. the simulator stops). */
  finish(): void {
    this.closeImages();
    if (this.current.elements.length > 0 || this.current.drawerKicks.length > 0 || this.current.cut) {
      this.onJob(this.current);
    }
    this.current = newJob();
  }

  private text(bytes: Uint8Array): void {
    const name = EPSON_CODEPAGES[this.modes.codepage];
    const text = name === undefined ? '\ufffd'.repeat(bytes.length) : decodeBytes(bytes, codepageTable(name));
    if (this.line.length === 0) this.lineAlign = this.modes.align;
    for (const ch of text) {
      this.line.push({ ch, bold: this.modes.bold, width: this.modes.width, height: this.modes.height });
    }
  }

  private printLine(): void {
    this.closeImages();
    this.current.elements.push({
      kind: 'line',
      align: this.lineAlign ?? this.modes.align,
      font: this.modes.font,
      chars: this.line,
    });
    this.line = [];
    this.lineAlign = undefined;
  }

  /** Text not yet ended by LF before a non-text element: printed as its own line. */
  private flushLine(): void {
    if (this.line.length > 0) this.printLine();
    else this.closeImages();
  }

  private image(width: number, height: number, dots: Uint8Array): void {
    if (this.line.length > 0) this.printLine();
    const last = this.current.elements.at(-1);
    // Strips of one picture (GS v 0 in chunks of 255 rows, ESC * bands) join into one image.
    if (last?.kind === 'image' && last.width === width && last.qr === undefined && !this.imageClosed) {
      const joined = new Uint8Array(last.dots.length + dots.length);
      joined.set(last.dots, 0);
      joined.set(dots, last.dots.length);
      last.dots = joined;
      last.height += height;
      return;
    }
    this.closeImages();
    this.imageClosed = false;
    this.current.elements.push({ kind: 'image', align: this.modes.align, width, height, dots });
  }

  private imageClosed = true;
  private columnBand = false;

  /** The picture is complete: read a QR code from it, if it is one. */
  private closeImages(): void {
    if (this.imageClosed) return;
    this.imageClosed = true;
    const last = this.current.elements.at(-1);
    if (last?.kind !== 'image') return;
    const qr = readQr(last.width, last.height, last.dots);
    if (qr !== undefined) last.qr = qr;
  }
}

function newJob(): PrintedJob {
  return { elements: [], drawerKicks: [], cut: false, notes: [] };
}

/** GS v 0 rows: 8 dots a byte, most significant bit left; only the first `width` dots of a row. */
function unpackRows(data: Uint8Array, widthBytes: number, height: number, width: number): Uint8Array {
  const dots = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const byte = data[y * widthBytes + (x >> 3)] ?? 0;
      dots[y * width + x] = (byte >> (7 - (x & 7))) & 1;
    }
  }
  return dots;
}

/** A GS ( L graphic enlarged by its scale, the first `width` dots of each row. */
function scaledRows(g: StoredGraphic, width: number): Uint8Array {
  const widthBytes = (g.width + 7) >> 3;
  const height = g.height * g.scaleY;
  const dots = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / g.scaleY);
    for (let x = 0; x < width; x++) {
      const sx = Math.floor(x / g.scaleX);
      const byte = g.data[row * widthBytes + (sx >> 3)] ?? 0;
      dots[y * width + x] = (byte >> (7 - (sx & 7))) & 1;
    }
  }
  return dots;
}

/** ESC * columns: each column is 1 or 3 bytes from top to bottom. */
function unpackColumns(data: Uint8Array, width: number, height: number): Uint8Array {
  const per = height / 8;
  const dots = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const byte = data[x * per + (y >> 3)] ?? 0;
      dots[y * width + x] = (byte >> (7 - (y & 7))) & 1;
    }
  }
  return dots;
}

/** jsqr is CommonJS with a `default` export: under ESM the function sits on `.default`. */
type JsQr = (data: Uint8ClampedArray, width: number, height: number, options?: JsQrOptions) => QRCode | null;
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

/** jsQR over the bitmap, with a white border so a tight quiet zone still reads. */
function readQr(width: number, height: number, dots: Uint8Array): string | undefined {
  // A receipt's QR is about square and at most the paper wide: a tall strip or a poster is not
  // searched (jsQR's work grows with the area: bounded work per input).
  if (width < 21 || height < 21 || width * height > 1_000_000) return undefined;
  if (height > 2 * width || width > 2 * height) return undefined;
  const pad = 16;
  const w = width + 2 * pad;
  const h = height + 2 * pad;
  const rgba = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!dots[y * width + x]) continue;
      const i = ((y + pad) * w + x + pad) * 4;
      rgba[i] = 0;
      rgba[i + 1] = 0;
      rgba[i + 2] = 0;
    }
  }
  const found = jsQR(rgba, w, h, { inversionAttempts: 'dontInvert' });
  return found?.data === undefined || found.data === '' ? undefined : found.data;
}

/**
 * A job as text in the receipt text convention (the same as kasa's `.txt`): one line per printed
 * line, aligned in `width` columns by its characters, trailing spaces cut; a QR as `[QR: text]`,
 * any other image as `[image WxH]`.
 */
export function jobText(job: PrintedJob, charsFontA: number): string {
  const lines: string[] = [];
  const center = (t: string, w: number) =>
    ' '.repeat(Math.max(0, Math.floor((w - Array.from(t).length) / 2))) + t;
  // Images and codes are wrapped at the width of the font in use (the layout's width).
  let w = charsFontA;
  for (const e of job.elements) {
    if (e.kind === 'line') {
      w = e.font === 1 ? fontBChars(charsFontA) : charsFontA;
      const text = e.chars.map((c) => c.ch).join('');
      const n = Array.from(text).length;
      lines.push(
        e.align === 1 ? center(text, w) : e.align === 2 ? ' '.repeat(Math.max(0, w - n)) + text : text,
      );
    } else if (e.kind === 'image') {
      const label = e.qr !== undefined ? `[QR: ${e.qr}]` : `[image ${e.width}x${e.height}]`;
      for (const l of hardWrap(label, w)) lines.push(center(l, w));
    } else if (e.kind === 'qr') {
      for (const l of hardWrap(`[QR: ${e.text}]`, w)) lines.push(center(l, w));
    } else {
      lines.push(`[BARCODE: ${e.text}]`);
    }
  }
  return lines.length === 0 ? '' : `${lines.map((l) => l.trimEnd()).join('\n')}\n`;
}

/** Font B columns on the same paper (9-dot cells instead of 12). */
export function fontBChars(charsFontA: number): number {
  return charsFontA === 32 ? 42 : charsFontA === 42 ? 56 : 64;
}
