import { formatBits, writeFormat } from './qr-mask.js';
import type { QrSegment } from './qr-segments.js';

/**
 * A QR symbol built from its segments (ISO/IEC 18004:2015): the bit stream (§7.4), the
 * Reed–Solomon error correction and the interleaving of blocks (§7.5–7.6), the function patterns
 * and the data placement (§6.3, §7.7), masked with pattern 0 and its format information (§7.9) —
 * the symbol `QRCode.create(segments, { version, maskPattern: 0 })` builds, module for module and
 * with the same reserved (function) modules, without the package's bit buffer, polynomial
 * division with a new array per step and setup passes (ADR 1111). `qr-mask.ts` then picks and
 * applies the best pattern. `qr-symbol.test.ts` compares both for every version and level.
 */
export interface QrSymbolModules {
  readonly version: number;
  readonly size: number;
  /** Row-major, 1 = dark. */
  readonly modules: Uint8Array;
  /**
   * Row-major, 1 = function module (never masked). Shared by every symbol of this version (the
   * cached frame): read it, never write it — a write would change every later receipt's QR.
   */
  readonly reserved: Uint8Array;
}

export type QrEcc = 'L' | 'M' | 'Q' | 'H';

/** Error correction blocks per version 1–40 (ISO/IEC 18004:2015 Table 9). */
const BLOCKS: Record<QrEcc, readonly number[]> = {
  L: [
    1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17,
    18, 19, 19, 20, 21, 22, 24, 25,
  ],
  M: [
    1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29,
    31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
  ],
  Q: [
    1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38,
    40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
  ],
  H: [
    1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45,
    48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
  ],
};

/** Error correction codewords per block, per version 1–40 (ISO/IEC 18004:2015 Table 9). */
const EC_PER_BLOCK: Record<QrEcc, readonly number[]> = {
  L: [
    7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  M: [
    10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  ],
  Q: [
    13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  H: [
    17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
};

const MODE_BITS = { numeric: 0b0001, alphanumeric: 0b0010, byte: 0b0100 } as const;
const CC_BITS = { numeric: [10, 12, 14], alphanumeric: [9, 11, 13], byte: [8, 16, 16] } as const;
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const UTF8 = new TextEncoder();

/**
 * The symbol of `segments` at `version` and level `ecc`, masked with pattern 0; undefined when
 * they do not fit that version (the caller then lets the package pick a larger one).
 */
export function buildQrSymbol(
  segments: readonly QrSegment[],
  version: number,
  ecc: QrEcc,
): QrSymbolModules | undefined {
  if (!Number.isInteger(version) || version < 1 || version > 40 || segments.length === 0) return undefined;
  const frame = frameOf(version);
  const blocks = BLOCKS[ecc][version - 1] as number;
  const ecPerBlock = EC_PER_BLOCK[ecc][version - 1] as number;
  const dataCodewords = frame.codewords - blocks * ecPerBlock;
  const data = dataStream(segments, version, dataCodewords);
  if (data === undefined) return undefined;
  const codewords = withErrorCorrection(data, frame.codewords, blocks, ecPerBlock);
  const size = frame.size;
  const modules = frame.modules.slice();
  place(modules, frame.reserved, size, codewords);
  // Pattern 0 on the data modules, then its format information, as the package leaves a symbol.
  for (let r = 0; r < size; r++) {
    for (let c = (r & 1) === 0 ? 0 : 1; c < size; c += 2) {
      const k = r * size + c;
      if (frame.reserved[k] === 0) modules[k] = (modules[k] as number) ^ 1;
    }
  }
  writeFormat(modules, size, formatBits(ecc, 0));
  return { version, size, modules, reserved: frame.reserved };
}

/** The bit stream of the segments padded to `dataCodewords` bytes, or undefined when too long. */
function dataStream(
  segments: readonly QrSegment[],
  version: number,
  dataCodewords: number,
): Uint8Array | undefined {
  const capacity = dataCodewords * 8;
  const out = new Uint8Array(dataCodewords);
  let bits = 0;
  const put = (value: number, length: number): boolean => {
    if (bits + length > capacity) return false;
    for (let i = length - 1; i >= 0; i--) {
      if ((value >>> i) & 1) out[bits >> 3] = (out[bits >> 3] as number) | (0x80 >> (bits & 7));
      bits++;
    }
    return true;
  };
  const cc = version < 10 ? 0 : version < 27 ? 1 : 2;
  for (const segment of segments) {
    const text = segment.data;
    if (segment.mode === 'byte') {
      const bytes = UTF8.encode(text);
      if (!put(MODE_BITS.byte, 4) || !put(bytes.length, CC_BITS.byte[cc])) return undefined;
      for (const b of bytes) if (!put(b, 8)) return undefined;
    } else if (segment.mode === 'numeric') {
      if (!put(MODE_BITS.numeric, 4) || !put(text.length, CC_BITS.numeric[cc])) return undefined;
      for (let i = 0; i < text.length; i += 3) {
        const group = text.slice(i, i + 3);
        if (!put(Number(group), group.length * 3 + 1)) return undefined;
      }
    } else {
      if (!put(MODE_BITS.alphanumeric, 4) || !put(text.length, CC_BITS.alphanumeric[cc])) return undefined;
      for (let i = 0; i < text.length; i += 2) {
        const a = ALNUM.indexOf(text[i] as string);
        const ok = i + 1 < text.length ? put(a * 45 + ALNUM.indexOf(text[i + 1] as string), 11) : put(a, 6);
        if (!ok) return undefined;
      }
    }
  }
  // Terminator (up to four 0 bits), 0s to the byte, then the pad codewords 0xEC 0x11 (§7.4.9–7.4.10).
  bits = Math.min(capacity, bits + 4);
  let at = (bits + 7) >> 3;
  for (let pad = 0; at < dataCodewords; at++, pad ^= 1) out[at] = pad === 0 ? 0xec : 0x11;
  return out;
}

/** Data split into blocks, each with its Reed–Solomon codewords, interleaved (§7.5.2, §7.6). */
function withErrorCorrection(
  data: Uint8Array,
  total: number,
  blocks: number,
  ecPerBlock: number,
): Uint8Array {
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ecPerBlock;
  const generator = generatorOf(ecPerBlock);
  const dataBlocks: Uint8Array[] = [];
  const ecBlocks: Uint8Array[] = [];
  let offset = 0;
  for (let b = 0; b < blocks; b++) {
    const length = shortData + (b < shortBlocks ? 0 : 1);
    const block = data.subarray(offset, offset + length);
    offset += length;
    dataBlocks.push(block);
    ecBlocks.push(remainder(block, generator));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i <= shortData; i++) {
    for (const block of dataBlocks) if (i < block.length) out[at++] = block[i] as number;
  }
  for (let i = 0; i < ecPerBlock; i++) for (const block of ecBlocks) out[at++] = block[i] as number;
  return out;
}

/** GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1 (§7.5.2). */
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255] as number;
}

const generators = new Map<number, Uint8Array>();

/** The generator polynomial of `degree` EC codewords, ∏ (x − αⁱ), highest power first, leading 1 dropped. */
function generatorOf(degree: number): Uint8Array {
  const known = generators.get(degree);
  if (known) return known;
  let poly = Uint8Array.of(1);
  for (let i = 0; i < degree; i++) {
    const next = new Uint8Array(poly.length + 1);
    for (let j = 0; j < poly.length; j++) {
      const c = poly[j] as number;
      next[j] = (next[j] as number) ^ c;
      if (c !== 0) next[j + 1] = (next[j + 1] as number) ^ (EXP[(LOG[c] as number) + i] as number);
    }
    poly = next;
  }
  const g = poly.slice(1);
  generators.set(degree, g);
  return g;
}

/** The remainder of data·x^n divided by the generator: the block's EC codewords. */
function remainder(data: Uint8Array, generator: Uint8Array): Uint8Array {
  const n = generator.length;
  const r = new Uint8Array(n);
  for (const d of data) {
    const factor = d ^ (r[0] as number);
    r.copyWithin(0, 1);
    r[n - 1] = 0;
    if (factor === 0) continue;
    const lf = LOG[factor] as number;
    for (let i = 0; i < n; i++) {
      const g = generator[i] as number;
      if (g !== 0) r[i] = (r[i] as number) ^ (EXP[(LOG[g] as number) + lf] as number);
    }
  }
  return r;
}

/** Codewords in the zigzag order of §7.7.3: two columns at a time, up and down, skipping column 6. */
function place(modules: Uint8Array, reserved: Uint8Array, size: number, codewords: Uint8Array): void {
  let bit = 0;
  const total = codewords.length * 8;
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step;
      for (let c = 0; c < 2; c++) {
        const k = row * size + right - c;
        if (reserved[k] !== 0) continue;
        modules[k] = bit < total ? ((codewords[bit >> 3] as number) >> (7 - (bit & 7))) & 1 : 0;
        bit++;
      }
    }
    upward = !upward;
  }
}

interface Frame {
  size: number;
  /** The function patterns (data modules 0). */
  modules: Uint8Array;
  reserved: Uint8Array;
  /** Codewords the data modules hold (the rest are remainder bits). */
  codewords: number;
}

const frames = new Map<number, Frame>();

/** Finder, separator, timing and alignment patterns, format and version areas of a version. */
function frameOf(version: number): Frame {
  const known = frames.get(version);
  if (known) return known;
  const size = version * 4 + 17;
  const modules = new Uint8Array(size * size);
  const reserved = new Uint8Array(size * size);
  const set = (r: number, c: number, dark: boolean) => {
    modules[r * size + c] = dark ? 1 : 0;
    reserved[r * size + c] = 1;
  };
  // Finder patterns with their separators (§6.3.3).
  for (const [top, left] of [
    [0, 0],
    [0, size - 7],
    [size - 7, 0],
  ] as const) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        if (top + r < 0 || top + r >= size || left + c < 0 || left + c >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(top + r, left + c, ring !== 2 && ring !== 4);
      }
    }
  }
  // Timing patterns (§6.3.5).
  for (let i = 8; i < size - 8; i++) {
    set(i, 6, i % 2 === 0);
    set(6, i, i % 2 === 0);
  }
  // Alignment patterns (§6.3.6), not over the finders.
  const centres = alignmentCentres(version, size);
  for (const [i, r] of centres.entries()) {
    for (const [j, c] of centres.entries()) {
      const last = centres.length - 1;
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
      for (let dr = -2; dr <= 2; dr++) {
        for (let dc = -2; dc <= 2; dc++) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
  }
  // Format information areas and the dark module (§7.9.1): reserved now, written per pattern.
  const format = new Uint8Array(size * size).fill(2);
  writeFormat(format, size, 0);
  for (let k = 0; k < format.length; k++) if (format[k] !== 2) reserved[k] = 1;
  modules[(size - 8) * size + 8] = 1;
  // Version information (§7.10), version 7 and up: BCH(18,6).
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >> i) & 1) === 1;
      const a = Math.floor(i / 3);
      const b = (i % 3) + size - 11;
      set(a, b, dark);
      set(b, a, dark);
    }
  }
  let free = 0;
  for (const r of reserved) if (r === 0) free++;
  const frame = { size, modules, reserved, codewords: Math.floor(free / 8) };
  frames.set(version, frame);
  return frame;
}

/** Row/column centres of the alignment patterns (§6.3.6, Annex E), evenly spaced from 6 to size − 7. */
function alignmentCentres(version: number, size: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = version === 32 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const out: number[] = [];
  for (let i = 0; i < count - 1; i++) out.push(size - 7 - i * step);
  out.push(6);
  return out.reverse();
}
