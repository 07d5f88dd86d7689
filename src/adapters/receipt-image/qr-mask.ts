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
function writeFormat(m: Uint8Array, size: number, bits: number): void {
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

/** The penalty of a masked symbol: N1 + N2 + N3 + N4, each computed as `qrcode` computes it. */
function penalty(m: Uint8Array, size: number): number {
  let points = 0;
  let dark = 0;
  for (let a = 0; a < size; a++) {
    // Along row a and along column a at once: runs of one colour (N1) and the 1:1:3:1:1 finder-like
    // pattern with 4 light modules on one side, as an 11-bit window (N3).
    let lastR = -1;
    let runR = 0;
    let lastC = -1;
    let runC = 0;
    let bitsR = 0;
    let bitsC = 0;
    const rowBase = a * size;
    for (let b = 0; b < size; b++) {
      const r = m[rowBase + b] as number;
      const c = m[b * size + a] as number;
      dark += r;
      if (r === lastR) runR++;
      else {
        if (runR >= 5) points += 3 + (runR - 5);
        lastR = r;
        runR = 1;
      }
      if (c === lastC) runC++;
      else {
        if (runC >= 5) points += 3 + (runC - 5);
        lastC = c;
        runC = 1;
      }
      bitsR = ((bitsR << 1) & 0x7ff) | r;
      bitsC = ((bitsC << 1) & 0x7ff) | c;
      if (b >= 10) {
        if (bitsR === 0x5d0 || bitsR === 0x05d) points += 40;
        if (bitsC === 0x5d0 || bitsC === 0x05d) points += 40;
      }
    }
    if (runR >= 5) points += 3 + (runR - 5);
    if (runC >= 5) points += 3 + (runC - 5);
  }
  // N2: 2×2 blocks of one colour.
  let blocks = 0;
  for (let i = 0; i < size - 1; i++) {
    const top = i * size;
    const bottom = top + size;
    for (let j = 0; j < size - 1; j++) {
      const s =
        (m[top + j] as number) +
        (m[top + j + 1] as number) +
        (m[bottom + j] as number) +
        (m[bottom + j + 1] as number);
      if (s === 0 || s === 4) blocks++;
    }
  }
  points += blocks * 3;
  // N4: how far the share of dark modules is from 50 %, in steps of 5 %.
  points += Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10) * 10;
  return points;
}

/** The pattern with the lowest penalty (the first of equals), for a symbol built with pattern 0. */
export function bestMask(
  modules: Uint8Array,
  reserved: Uint8Array,
  size: number,
  ecc: keyof typeof ECC_BITS,
): number {
  const tables = remaskTables(size, reserved);
  const candidate = new Uint8Array(modules.length);
  let best = 0;
  let lowest = Number.POSITIVE_INFINITY;
  for (let p = 0; p < 8; p++) {
    const t = tables[p] as Uint8Array;
    for (let k = 0; k < candidate.length; k++) candidate[k] = (modules[k] as number) ^ (t[k] as number);
    writeFormat(candidate, size, formatBits(ecc, p));
    const score = penalty(candidate, size);
    if (score < lowest) {
      lowest = score;
      best = p;
    }
  }
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
