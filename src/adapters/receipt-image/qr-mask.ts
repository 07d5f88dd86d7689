/**
 * The data mask of a QR symbol (ISO/IEC 18004:2015 §7.8): of the eight patterns, the one whose
 * masked symbol scores the lowest penalty (§7.8.3, features N1–N4) — the rule and the score exactly
 * as the `qrcode` package applies them, so the symbol is the one it would build, only found faster
 * (its search re-applies each pattern module by module, twice, through a `switch`; a receipt's QR
 * was most of the ESC/POS encoding time). `qr-mask.test.ts` compares both on thousands of texts.
 *
 * Works on a symbol built with pattern 0 (`modules` row-major, 1 = dark; `reserved` 1 = function
 * module, never masked) and returns the best pattern; `remask` turns the pattern-0 symbol into it.
 */

/** Error correction level → the two bits of the format information (§7.9.1, Table 12). */
const ECC_BITS: Record<'L' | 'M' | 'Q' | 'H', number> = { L: 1, M: 0, Q: 3, H: 2 };

const G15 = 0b10100110111;
const G15_MASK = 0b101010000010010;

/** The 15 format bits of level + pattern: BCH(15,5) remainder, then XOR with the fixed mask (§7.9.2). */
export function formatBits(ecc: keyof typeof ECC_BITS, pattern: number): number {
  const data = (ECC_BITS[ecc] << 3) | pattern;
  let d = data << 10;
  for (let bit = 14; bit >= 10; bit--) if ((d >> bit) & 1) d ^= G15 << (bit - 10);
  return ((data << 10) | d) ^ G15_MASK;
}

/** Whether pattern `p` darkens (flips) the module at row i, column j (§7.8.2, Table 10). */
function flips(p: number, i: number, j: number): boolean {
  switch (p) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}

/**
 * Per symbol size and reserved map, what turns the pattern-0 symbol into pattern p's data modules:
 * XOR with `pattern0 ^ pattern p` on data modules. Built once per version (a receipt's QR is one of
 * two or three versions), keyed by size; the reserved map of a version is always the same.
 */
const remaskCache = new Map<number, Uint8Array[]>();

function remaskTables(size: number, reserved: Uint8Array): Uint8Array[] {
  let tables = remaskCache.get(size);
  if (tables) return tables;
  tables = [];
  for (let p = 0; p < 8; p++) {
    const t = new Uint8Array(size * size);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        const k = i * size + j;
        if (!reserved[k]) t[k] = (flips(0, i, j) ? 1 : 0) ^ (flips(p, i, j) ? 1 : 0);
      }
    }
    tables.push(t);
  }
  remaskCache.set(size, tables);
  return tables;
}

/** Writes the format information of level + pattern into its two places, as `qrcode` does. */
export function writeFormat(m: Uint8Array, size: number, bits: number): void {
  for (let i = 0; i < 15; i++) {
    const v = (bits >> i) & 1;
    if (i < 6) m[i * size + 8] = v;
    else if (i < 8) m[(i + 1) * size + 8] = v;
    else m[(size - 15 + i) * size + 8] = v;
    if (i < 8) m[8 * size + (size - i - 1)] = v;
    else if (i < 9) m[8 * size + (15 - i)] = v;
    else m[8 * size + (15 - i - 1)] = v;
  }
  m[(size - 8) * size + 8] = 1;
}

/**
 * Per symbol size and level: the format information of all eight patterns at once (index → a byte
 * whose bit p is that module under pattern p), what `writeFormat` writes for each.
 */
const formatCache = new Map<string, Array<[index: number, bits: number]>>();

function formatOverlay(size: number, ecc: keyof typeof ECC_BITS): Array<[number, number]> {
  const key = `${size}${ecc}`;
  const known = formatCache.get(key);
  if (known) return known;
  const bits = new Map<number, number>();
  const scratch = new Uint8Array(size * size);
  for (let p = 0; p < 8; p++) {
    scratch.fill(2);
    writeFormat(scratch, size, formatBits(ecc, p));
    for (let k = 0; k < scratch.length; k++) {
      if (scratch[k] !== 2) bits.set(k, (bits.get(k) ?? 0) | ((scratch[k] as number) << p));
    }
  }
  const overlay = [...bits.entries()];
  formatCache.set(key, overlay);
  return overlay;
}

/** Per size: each module's byte of "pattern p flips it relative to pattern 0" bits. */
const sliceCache = new Map<number, Uint8Array>();

function flipSlices(size: number, reserved: Uint8Array): Uint8Array {
  let slices = sliceCache.get(size);
  if (slices) return slices;
  const tables = remaskTables(size, reserved);
  slices = new Uint8Array(size * size);
  for (let p = 0; p < 8; p++) {
    const t = tables[p] as Uint8Array;
    for (let k = 0; k < slices.length; k++) slices[k] = (slices[k] as number) | ((t[k] as number) << p);
  }
  sliceCache.set(size, slices);
  return slices;
}

/**
 * The penalties of all eight patterns in one pass (N1 + N2 + N3 + N4, each as `qrcode` computes
 * it): every module is a byte whose bit p is its colour under pattern p, so one AND/OR/XOR answers
 * a question for the eight candidates at once. Points go into a histogram of those bytes, summed
 * per pattern at the end (`qr-mask.test.ts` checks the chosen pattern against the package's own
 * search on 1,200 texts that exercise all eight).
 *
 * N1 as sums over modules: a run of L ≥ 5 scores L − 2, i.e. 1 for every module that is the 5th or
 * later of its run, plus 2 more for the 5th. N3: an 11-module window equal to one of the two
 * patterns (1:1:3:1:1 with four light modules after it or before it) scores 40. N2: a 2×2 block of one colour scores 3. N4 from the dark modules per pattern.
 */
function penalties(v: Uint8Array, size: number): number[] {
  const points = new Float64Array(256);
  const dark = new Float64Array(256);
  for (let k = 0; k < v.length; k++) add(dark, v[k] as number, 1);
  const line = new Uint8Array(size);
  const light = new Uint8Array(size);
  const core = new Uint8Array(size);
  for (let dir = 0; dir < 2; dir++) {
    for (let a = 0; a < size; a++) {
      // Row a (dir 0) or column a (dir 1) into `line`.
      if (dir === 0) for (let b = 0; b < size; b++) line[b] = v[a * size + b] as number;
      else for (let b = 0; b < size; b++) line[b] = v[b * size + a] as number;
      // e1..e4: "equal to the module before" at b, b−1, b−2, b−3 (0 before the line starts).
      let e1 = 0;
      let e2 = 0;
      let e3 = 0;
      let e4 = 0;
      for (let b = 1; b < size; b++) {
        const e = ~((line[b] as number) ^ (line[b - 1] as number)) & 0xff;
        // Before shifting: e4 is still "equal" at b − 4, i.e. whether b − 4 continued a run.
        if (b >= 4) {
          const fifthOrLater = e & e1 & e2 & e3;
          if (fifthOrLater !== 0) {
            add(points, fifthOrLater, 1);
            add(points, fifthOrLater & ~e4 & 0xff, 2);
          }
        }
        e4 = e3;
        e3 = e2;
        e2 = e1;
        e1 = e;
      }
      // N3 from two shorter windows: `core` 1011101 starting at s, `light` four light modules at s.
      for (let s0 = 0; s0 + 4 <= size; s0++) {
        light[s0] =
          ~(
            (line[s0] as number) |
            (line[s0 + 1] as number) |
            (line[s0 + 2] as number) |
            (line[s0 + 3] as number)
          ) & 0xff;
      }
      for (let s0 = 0; s0 + 7 <= size; s0++) {
        core[s0] =
          (line[s0] as number) &
          ~(line[s0 + 1] as number) &
          (line[s0 + 2] as number) &
          (line[s0 + 3] as number) &
          (line[s0 + 4] as number) &
          ~(line[s0 + 5] as number) &
          (line[s0 + 6] as number) &
          0xff;
      }
      for (let s0 = 0; s0 + 11 <= size; s0++) {
        const after = (core[s0] as number) & (light[s0 + 7] as number);
        const before = (light[s0] as number) & (core[s0 + 4] as number);
        if (after !== 0) add(points, after, 40);
        if (before !== 0) add(points, before, 40);
      }
    }
  }
  for (let i = 0; i < size - 1; i++) {
    const top = i * size;
    const bottom = top + size;
    for (let j = 0; j < size - 1; j++) {
      const a = v[top + j] as number;
      const b = v[top + j + 1] as number;
      const c = v[bottom + j] as number;
      const d = v[bottom + j + 1] as number;
      add(points, (a & b & c & d) | (~(a | b | c | d) & 0xff), 3);
    }
  }
  // A pattern's sum is over the bytes with its bit set: fold each histogram into its two nibbles
  // (bit p lives in one of them) and add up 8 of 16 entries per pattern.
  const pointsBy = nibbles(points);
  const darkBy = nibbles(dark);
  const out: number[] = [];
  for (let p = 0; p < 8; p++) {
    const half = p < 4 ? 0 : 16;
    const bit = 1 << (p & 3);
    let score = 0;
    let darkCount = 0;
    for (let n = bit; n < 16; n = (n + 1) | bit) {
      score += pointsBy[half + n] as number;
      darkCount += darkBy[half + n] as number;
    }
    score += Math.abs(Math.ceil((darkCount * 100) / (size * size) / 5) - 10) * 10;
    out.push(score);
  }
  return out;
}

/** A byte histogram as two nibble histograms: [0, 16) by the low nibble, [16, 32) by the high one. */
function nibbles(histogram: Float64Array): Float64Array {
  const out = new Float64Array(32);
  for (let x = 1; x < 256; x++) {
    const h = histogram[x] as number;
    if (h === 0) continue;
    out[x & 15] = (out[x & 15] as number) + h;
    out[16 + (x >> 4)] = (out[16 + (x >> 4)] as number) + h;
  }
  return out;
}

/** `histogram[x] += n` (x is a byte: always in range). */
function add(histogram: Float64Array, x: number, n: number): void {
  histogram[x] = (histogram[x] as number) + n;
}

/** The pattern with the lowest penalty (the first of equals), for a symbol built with pattern 0. */
export function bestMask(
  modules: Uint8Array,
  reserved: Uint8Array,
  size: number,
  ecc: keyof typeof ECC_BITS,
): number {
  const flips = flipSlices(size, reserved);
  const v = new Uint8Array(modules.length);
  for (let k = 0; k < v.length; k++) v[k] = (modules[k] ? 0xff : 0) ^ (flips[k] as number);
  for (const [k, bits] of formatOverlay(size, ecc)) v[k] = bits;
  const scores = penalties(v, size);
  let best = 0;
  for (let p = 1; p < 8; p++) if ((scores[p] as number) < (scores[best] as number)) best = p;
  return best;
}

/** Turns a pattern-0 symbol into pattern `p`'s, in place (data modules and format information). */
export function remask(
  modules: Uint8Array,
  reserved: Uint8Array,
  size: number,
  ecc: keyof typeof ECC_BITS,
  p: number,
): void {
  if (p === 0) return;
  const t = remaskTables(size, reserved)[p] as Uint8Array;
  for (let k = 0; k < modules.length; k++) modules[k] = (modules[k] as number) ^ (t[k] as number);
  writeFormat(modules, size, formatBits(ecc, p));
}
