import type { PrinterProfile } from '../../config/printer-profile.js';
import { DEFAULT_PROFILE } from '../../config/printer-profile.js';
import type { QrBlock, ReceiptBlock, ReceiptLayout, TextBlock } from '../../core/receipt/receipt-blocks.js';
import { printLogo } from '../receipt-image/logo-image.js';
import type { RgbaImage } from '../receipt-image/png-rgba.js';
import { PRINTER_DPI, qrMatrix, qrModuleDots } from '../receipt-image/qr-matrix.js';
import { rasterTextLine } from '../receipt-image/text-raster.js';
import { type CodepageTable, codepageTable, encodeLine, KASA_CODEPAGES } from './escpos-codepages.js';

const ESC = 0x1b;
const GS = 0x1d;
const LF = 0x0a;

/** One printed unit of a job: a resumed print may start at any unit's `start` (ADR 0507). */
export interface PrintUnit {
  start: number;
  end: number;
  kind: 'init' | 'line' | 'image' | 'qr' | 'cut';
  /** The text of a line (also of a line printed as an image). */
  text?: string;
}

/** A job as ESC/POS bytes, with the unit boundaries the adapters pace and confirm by. */
export interface EscPosJob {
  bytes: Uint8Array;
  units: readonly PrintUnit[];
  /** What a resumed print sends before the rest: ESC @, the font and the code page. */
  prelude: Uint8Array;
  /** Lines printed as images because the code page lacks one of their characters. */
  rasterLines: number;
  /** The first unit (`init`) kicks the drawer: once it went out, this job never kicks again (ADR 0517). */
  drawerKick: boolean;
}

export interface EscPosEncodeOptions {
  /** Kick the drawer (ESC p) right after ESC @, so it opens while the receipt prints. */
  openDrawer?: boolean;
  /** Drawer pin: 2 (ESC p 0, the usual one) or 5 (ESC p 1). */
  drawerPin?: 2 | 5;
  /** Images by key (colour PNG) for `image` blocks; dithered to the paper here. */
  images?: ReadonlyMap<string, Uint8Array>;
}

/**
 * Turns a laid-out receipt into the bytes an ESC/POS printer receives (ADR 0505): ESC @, font,
 * code page; then every line with its own alignment, emphasis and size, so any line can be the
 * start of a resumed print; images and the QR as raster bit images (`GS v 0`, ≤ 255 rows a
 * command); the QR natively (`GS ( k`) when the profile says so; `GS V 66` (feed to the cutter,
 * partial cut) at every cut block. A line whose characters are not all in the profile's code page
 * is printed as an image of the text, never with `?`.
 */
export class EscPosEncoder {
  readonly profile: PrinterProfile;
  private readonly table: CodepageTable | undefined;
  /** Encoded lines of shared (frozen) layout blocks; see {@link lineBytes}. */
  private readonly lines = new WeakMap<TextBlock, Uint8Array>();

  constructor(profile: PrinterProfile = DEFAULT_PROFILE) {
    this.profile = profile;
    this.table = profile.codepage === 'raster' ? undefined : codepageTable(KASA_CODEPAGES[profile.codepage]);
  }

  encode(layout: ReceiptLayout, options: EscPosEncodeOptions = {}): EscPosJob {
    if (layout.width > this.profile.charsPerLine) {
      throw new RangeError(
        `the job is ${layout.width} characters wide, the paper ${this.profile.charsPerLine}`,
      );
    }
    const out = new ByteSink();
    const prelude = this.prelude();
    let rasterLines = 0;
    out.unit('init', () => {
      out.push(prelude.subarray(0, 2)); // ESC @
      if (options.openDrawer === true) out.push(drawerKick(options.drawerPin ?? 2));
      out.push(prelude.subarray(2));
    });
    for (const block of layout.blocks) {
      const raster = this.block(out, block, layout.width, options.images);
      if (raster) rasterLines++;
    }
    return {
      bytes: out.bytes(),
      units: out.units,
      prelude,
      rasterLines,
      drawerKick: options.openDrawer === true,
    };
  }

  /** ESC @, font (ESC M), code page (ESC t) and the default line spacing. */
  prelude(): Uint8Array {
    const bytes = [ESC, 0x40, ESC, 0x4d, this.profile.font === 'B' ? 1 : 0];
    if (this.table !== undefined) bytes.push(ESC, 0x74, this.profile.codepageNumber);
    bytes.push(ESC, 0x32);
    return Uint8Array.from(bytes);
  }

  /** Encodes one block; true when a text line went out as an image. */
  private block(
    out: ByteSink,
    block: ReceiptBlock,
    width: number,
    images?: ReadonlyMap<string, Uint8Array>,
  ): boolean {
    switch (block.kind) {
      case 'text':
        return this.text(out, block, width);
      case 'separator':
        return this.text(
          out,
          {
            kind: 'text',
            text: (block.style === 'double' ? '=' : '-').repeat(width),
            align: 'left',
            bold: false,
            size: 'normal',
          },
          width,
        );
      case 'feed':
        for (let i = 0; i < block.lines; i++) out.unit('line', () => out.push([LF]), '');
        return false;
      case 'cut':
        out.unit('cut', () => out.push([GS, 0x56, 66, 0]));
        return false;
      case 'image': {
        const png = images?.get(block.ref);
        if (png === undefined) return false;
        const bitmap = printLogo(png, this.profile.paperWidthDots);
        out.unit('image', () => {
          out.push([ESC, 0x61, 1]);
          out.push(rasterImage(bitmap));
        });
        return false;
      }
      case 'qr':
        out.unit('qr', () => this.qr(out, block));
        return false;
    }
  }

  private text(out: ByteSink, block: TextBlock, width: number): boolean {
    const line = this.lineBytes(block);
    if (line !== undefined) {
      out.unit('line', () => out.push(line), block.text);
      return false;
    }
    // Not in the code page (or a raster profile): the line as an image, exactly as the PNG shows it.
    const image = rasterTextLine(block, width, this.profile.paperWidthDots);
    out.unit('line', () => out.push([ESC, 0x61, 0, ...rasterImage(image)]), block.text);
    return this.table !== undefined;
  }

  /**
   * A text line's whole unit (alignment, emphasis, size, the text in the code page, LF), or
   * undefined when the page lacks one of its characters. Kept per block for blocks the layout
   * shares between receipts (a receipt's head, ADR 1111): a frozen block never changes, so its
   * bytes for this encoder's code page never do; other blocks are encoded each time.
   */
  private lineBytes(block: TextBlock): Uint8Array | undefined {
    if (this.table === undefined) return undefined;
    const known = this.lines.get(block);
    if (known !== undefined) return known;
    const encoded = encodeLine(block.text, this.table);
    if (encoded === undefined) return undefined;
    const line = new Uint8Array(encoded.length + 10);
    line.set([
      ESC,
      0x61,
      ALIGN[block.align],
      ESC,
      0x45,
      block.bold ? 1 : 0,
      GS,
      0x21,
      block.size === 'double' ? 0x11 : 0,
    ]);
    line.set(encoded, 9);
    line[line.length - 1] = LF;
    if (Object.isFrozen(block)) this.lines.set(block, line);
    return line;
  }

  private qr(out: ByteSink, block: QrBlock): void {
    out.push([ESC, 0x61, 1]);
    if (this.profile.qr === 'native') {
      // The printer picks the version: size modules for the smallest symbol it could choose.
      const auto = qrMatrix({ ...block, minVersion: 1 });
      const size = Math.min(8, qrModuleDots(auto.size, block.minSizeMm, PRINTER_DPI));
      const data = new TextEncoder().encode(block.text);
      const len = data.length + 3;
      out.push([GS, 0x28, 0x6b, 4, 0, 0x31, 0x41, 0x32, 0]); // model 2
      out.push([GS, 0x28, 0x6b, 3, 0, 0x31, 0x43, size]);
      out.push([GS, 0x28, 0x6b, 3, 0, 0x31, 0x45, ECC[block.ecc]]);
      out.push([GS, 0x28, 0x6b, len & 0xff, len >> 8, 0x31, 0x50, 0x30]);
      out.push(data);
      out.push([GS, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30]);
      return;
    }
    out.push(qrRaster(block));
  }
}

const ALIGN = { left: 0, center: 1, right: 2 } as const;
const ECC = { L: 48, M: 49, Q: 50, H: 51 } as const;

/** ESC p m t1 t2: m = 0 → pin 2, 1 → pin 5; 100 ms on, 500 ms off (in 2 ms units). */
export function drawerKick(pin: 2 | 5): Uint8Array {
  return Uint8Array.of(ESC, 0x70, pin === 2 ? 0 : 1, 50, 250);
}

/**
 * Epson `GS ( H` fn 48: the printer answers `37 22 <id> 00` once it has processed — for print data,
 * printed — everything before it (ADR 0507). `id` is 4 printable ASCII characters.
 */
export function processIdRequest(id: string): Uint8Array {
  return Uint8Array.from([GS, 0x28, 0x48, 6, 0, 48, 48, ...Array.from(id, (c) => c.charCodeAt(0))]);
}

/** GS v 0 commands for a black-and-white bitmap, at most 255 rows each (some firmware reads one byte). */
export function rasterImage(image: RgbaImage): Uint8Array {
  const bytesPerRow = Math.ceil(image.width / 8);
  const packed = new Uint8Array(bytesPerRow * image.height);
  const { data, width } = image;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < width; x++) {
      if ((data[(y * width + x) * 4] ?? 255) < 128) packed[y * bytesPerRow + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return rasterCommands(packed, bytesPerRow, image.height);
}

/** `rows` of `bytesPerRow` packed bits (1 = black, high bit first) as GS v 0 commands of ≤ 255 rows. */
function rasterCommands(packed: Uint8Array, bytesPerRow: number, rows: number): Uint8Array {
  const commands = Math.ceil(rows / 255);
  const out = new Uint8Array(commands * 8 + packed.length);
  let at = 0;
  for (let top = 0; top < rows; top += 255) {
    const n = Math.min(255, rows - top);
    out.set([GS, 0x76, 0x30, 0, bytesPerRow & 0xff, bytesPerRow >> 8, n & 0xff, n >> 8], at);
    at += 8;
    out.set(packed.subarray(top * bytesPerRow, (top + n) * bytesPerRow), at);
    at += n * bytesPerRow;
  }
  return out;
}

/** The QR matrix as a bitmap at printer resolution, with a 2-module quiet zone. */
export function qrBitmap(block: QrBlock): RgbaImage {
  const matrix = qrMatrix(block);
  const dot = qrModuleDots(matrix.size, block.minSizeMm, PRINTER_DPI);
  const quiet = 2;
  const side = (matrix.size + 2 * quiet) * dot;
  const width = Math.ceil(side / 8) * 8;
  const data = new Uint8Array(width * side * 4).fill(255);
  for (let r = 0; r < matrix.size; r++) {
    for (let c = 0; c < matrix.size; c++) {
      if (!matrix.dark(r, c)) continue;
      for (let dy = 0; dy < dot; dy++) {
        const row = (quiet + r) * dot + dy;
        for (let dx = 0; dx < dot; dx++) {
          const i = (row * width + (quiet + c) * dot + dx) * 4;
          data[i] = 0;
          data[i + 1] = 0;
          data[i + 2] = 0;
        }
      }
    }
  }
  return { width, height: side, data };
}

/**
 * `rasterImage(qrBitmap(block))` without the RGBA picture in between: each module row is packed
 * once and repeated for its dots (the same bytes, a fraction of the work on every receipt).
 */
export function qrRaster(block: QrBlock): Uint8Array {
  const matrix = qrMatrix(block);
  const dot = qrModuleDots(matrix.size, block.minSizeMm, PRINTER_DPI);
  const quiet = 2;
  const side = (matrix.size + 2 * quiet) * dot;
  const bytesPerRow = Math.ceil(side / 8);
  const packed = new Uint8Array(bytesPerRow * side);
  for (let r = 0; r < matrix.size; r++) {
    const top = (quiet + r) * dot;
    const row = packed.subarray(top * bytesPerRow, (top + 1) * bytesPerRow);
    for (let c = 0; c < matrix.size; c++) {
      if (!matrix.dark(r, c)) continue;
      for (let x = (quiet + c) * dot; x < (quiet + c + 1) * dot; x++) row[x >> 3]! |= 0x80 >> (x & 7);
    }
    for (let dy = 1; dy < dot; dy++)
      packed.copyWithin((top + dy) * bytesPerRow, top * bytesPerRow, (top + 1) * bytesPerRow);
  }
  return rasterCommands(packed, bytesPerRow, side);
}

/** Collects bytes and the unit boundaries, in one buffer that doubles as it fills. */
class ByteSink {
  readonly units: PrintUnit[] = [];
  private buffer = new Uint8Array(4096);
  private length = 0;

  push(bytes: ArrayLike<number>): void {
    const end = this.length + bytes.length;
    if (end > this.buffer.length) {
      const grown = new Uint8Array(Math.max(end, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.length);
    this.length = end;
  }

  unit(kind: PrintUnit['kind'], write: () => void, text?: string): void {
    const start = this.length;
    write();
    this.units.push({ start, end: this.length, kind, ...(text === undefined ? {} : { text }) });
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
