/**
 * A streaming ESC/POS command parser for the printer simulator: bytes in (in any chunks), commands
 * out, in order. It knows the length of every command of the Epson ESC/POS set a receipt printer
 * takes (whoever encoded them), so unknown or unsupported commands are skipped by their length and
 * reported rather than printed as text. Written from the command reference, not from any decoder.
 */
export type EscPosCommand =
  | { op: 'text'; bytes: Uint8Array }
  | { op: 'lf' }
  | { op: 'feed-lines'; lines: number }
  | { op: 'feed-dots'; dots: number }
  | { op: 'init' }
  | { op: 'align'; align: 0 | 1 | 2 }
  | { op: 'bold'; on: boolean }
  | { op: 'size'; width: number; height: number }
  | { op: 'print-mode'; mode: number }
  | { op: 'font'; font: number }
  | { op: 'underline'; on: boolean }
  | { op: 'codepage'; n: number }
  | { op: 'raster'; widthBytes: number; height: number; data: Uint8Array }
  | { op: 'column-image'; m: number; width: number; data: Uint8Array }
  | { op: 'graphics-store'; width: number; height: number; scaleX: number; scaleY: number; data: Uint8Array }
  | { op: 'graphics-print' }
  | { op: 'process-id'; id: string }
  | { op: 'qr-store'; data: Uint8Array }
  | { op: 'qr-print' }
  | { op: 'barcode'; system: number; data: Uint8Array }
  | { op: 'cut'; mode: number }
  /** ESC p (buffered) or DLE DC4 fn 1 (`realtime`: executed on receipt, before buffered data). */
  | { op: 'drawer'; pin: 2 | 5; realtime?: boolean }
  | { op: 'status'; n: number }
  | { op: 'transmit-status'; n: number }
  | { op: 'printer-id'; n: number }
  | { op: 'ignored'; name: string }
  | { op: 'skipped'; name: string; bytes: number }
  | { op: 'unknown'; bytes: Uint8Array };

const ESC = 0x1b;
const GS = 0x1d;
const FS = 0x1c;
const DLE = 0x10;

/** A parsed command and where the next starts; `skip` data bytes follow that are not kept. */
type Parsed = { cmd: EscPosCommand; next: number; skip?: number } | 'incomplete';

/** A command and the bytes it took on the wire (what it occupies in a receive buffer). */
export interface SizedCommand {
  cmd: EscPosCommand;
  size: number;
}

/**
 * Upper bound for one command's data kept in memory (a full-width 80 mm image is 72 bytes a row,
 * 65,535 rows at most: 4.7 MB). A command declaring more is reported and its data skipped as they
 * arrive, never buffered: the work any input causes stays bounded.
 */
export const MAX_COMMAND_BYTES = 8 * 1024 * 1024;

export class EscPosDecoder {
  private buf = new Uint8Array(4096);
  private start = 0;
  private end = 0;
  /** Data bytes of an oversized command still to be dropped. */
  private skipping = 0;

  /** Bytes not yet part of a complete command (a cut-off command at the end of a dropped line). */
  get pending(): number {
    return this.end - this.start + this.skipping;
  }

  /** Drops a partial command (the line closed in the middle of it). */
  discard(): void {
    this.start = 0;
    this.end = 0;
    this.skipping = 0;
  }

  push(bytes: Uint8Array): EscPosCommand[] {
    return this.pushSized(bytes).map((c) => c.cmd);
  }

  /** Like {@link push}, with the wire size of each command. */
  pushSized(bytes: Uint8Array): SizedCommand[] {
    let input = bytes;
    if (this.skipping > 0) {
      const n = Math.min(this.skipping, input.length);
      this.skipping -= n;
      input = input.subarray(n);
    }
    this.append(input);
    const out: SizedCommand[] = [];
    const view = this.buf.subarray(0, this.end);
    let pos = this.start;
    while (pos < this.end) {
      const r = parseAt(view, pos);
      if (r === 'incomplete') break;
      const skip = r.skip ?? 0;
      out.push({ cmd: r.cmd, size: r.next - pos + skip });
      pos = r.next;
      if (skip > 0) {
        // An oversized command: drop its data as they come, keep parsing after them.
        const here = Math.min(skip, this.end - pos);
        pos += here;
        this.skipping = skip - here;
        if (this.skipping > 0) break;
      }
    }
    this.start = pos;
    if (this.start === this.end) {
      this.start = 0;
      this.end = 0;
    }
    return out;
  }

  /** Appends in amortised linear time (a big image arrives in many chunks). */
  private append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.end + bytes.length > this.buf.length) {
      const needed = this.end - this.start + bytes.length;
      // Grow so that at most half is live after a move: each byte is moved O(1) times on average.
      if (needed * 2 > this.buf.length) {
        const next = new Uint8Array(needed * 2);
        next.set(this.buf.subarray(this.start, this.end), 0);
        this.buf = next;
      } else this.buf.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    this.buf.set(bytes, this.end);
    this.end += bytes.length;
  }
}

function parseAt(b: Uint8Array, pos: number): Parsed {
  const c = b[pos]!;
  if (c >= 0x20 && c !== 0x7f) {
    let end = pos;
    while (end < b.length && b[end]! >= 0x20 && b[end] !== 0x7f) end++;
    return { cmd: { op: 'text', bytes: b.slice(pos, end) }, next: end };
  }
  switch (c) {
    case 0x0a:
      return { cmd: { op: 'lf' }, next: pos + 1 };
    case 0x0d:
      return { cmd: { op: 'ignored', name: 'CR' }, next: pos + 1 };
    case 0x09:
      return { cmd: { op: 'text', bytes: Uint8Array.of(0x20) }, next: pos + 1 };
    case 0x0c:
      return { cmd: { op: 'ignored', name: 'FF' }, next: pos + 1 };
    case 0x18:
      return { cmd: { op: 'ignored', name: 'CAN' }, next: pos + 1 };
    case ESC:
      return parseEsc(b, pos);
    case GS:
      return parseGs(b, pos);
    case FS:
      return parseFs(b, pos);
    case DLE:
      return parseDle(b, pos);
    default:
      return { cmd: { op: 'unknown', bytes: b.slice(pos, pos + 1) }, next: pos + 1 };
  }
}

/** `need` bytes from `pos` must be there, else the command is incomplete. */
function has(b: Uint8Array, pos: number, need: number): boolean {
  return pos + need <= b.length;
}

const u16 = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);

function ignored(name: string, pos: number, length: number, b: Uint8Array): Parsed {
  return has(b, pos, length) ? { cmd: { op: 'ignored', name }, next: pos + length } : 'incomplete';
}

/** ESC commands with a fixed number of argument bytes and nothing to print. */
const ESC_FIXED: Readonly<Record<number, [string, number]>> = {
  32: ['ESC SP', 1],
  36: ['ESC $', 2],
  37: ['ESC %', 1],
  50: ['ESC 2', 0],
  51: ['ESC 3', 1],
  52: ['ESC 4', 1],
  60: ['ESC <', 0],
  61: ['ESC =', 1],
  63: ['ESC ?', 1],
  71: ['ESC G', 1],
  75: ['ESC K', 1],
  76: ['ESC L', 0],
  82: ['ESC R', 1],
  83: ['ESC S', 0],
  84: ['ESC T', 1],
  85: ['ESC U', 1],
  86: ['ESC V', 1],
  87: ['ESC W', 8],
  92: ['ESC \\', 2],
  101: ['ESC e', 1],
  102: ['ESC f', 2],
  114: ['ESC r', 1],
  117: ['ESC u', 1],
  118: ['ESC v', 0],
  123: ['ESC {', 1],
};

function parseEsc(b: Uint8Array, pos: number): Parsed {
  if (!has(b, pos, 2)) return 'incomplete';
  const x = b[pos + 1]!;
  const one = (make: (n: number) => EscPosCommand): Parsed =>
    has(b, pos, 3) ? { cmd: make(b[pos + 2]!), next: pos + 3 } : 'incomplete';
  switch (x) {
    case 0x40:
      return { cmd: { op: 'init' }, next: pos + 2 };
    case 0x61:
      return one((n) => ({ op: 'align', align: (n % 48 > 2 ? 0 : n % 48) as 0 | 1 | 2 }));
    case 0x45:
      return one((n) => ({ op: 'bold', on: (n & 1) === 1 }));
    case 0x21:
      return one((n) => ({ op: 'print-mode', mode: n }));
    case 0x4d:
      return one((n) => ({ op: 'font', font: n % 48 }));
    case 0x2d:
      return one((n) => ({ op: 'underline', on: n % 48 !== 0 }));
    case 0x74:
      return one((n) => ({ op: 'codepage', n }));
    case 0x64:
      return one((n) => ({ op: 'feed-lines', lines: n }));
    case 0x4a:
      return one((n) => ({ op: 'feed-dots', dots: n }));
    case 0x69: // ESC i: full cut (one point left uncut on some models), as GS V 0
      return { cmd: { op: 'cut', mode: 0 }, next: pos + 2 };
    case 0x6d: // ESC m: partial cut, as GS V 1
      return { cmd: { op: 'cut', mode: 1 }, next: pos + 2 };
    case 0x70: // ESC p m t1 t2
      if (!has(b, pos, 5)) return 'incomplete';
      return { cmd: { op: 'drawer', pin: b[pos + 2]! % 48 === 0 ? 2 : 5 }, next: pos + 5 };
    case 0x2a: {
      // ESC * m nL nH d1…dk: 8-dot (m 0, 1) or 24-dot (m 32, 33) columns.
      if (!has(b, pos, 5)) return 'incomplete';
      const m = b[pos + 2]!;
      const width = u16(b, pos + 3);
      const k = width * (m >= 32 ? 3 : 1);
      if (!has(b, pos, 5 + k)) return 'incomplete';
      return {
        cmd: { op: 'column-image', m, width, data: b.slice(pos + 5, pos + 5 + k) },
        next: pos + 5 + k,
      };
    }
    case 0x44: {
      // ESC D n1 … nk NUL: tab positions.
      const end = b.indexOf(0, pos + 2);
      return end < 0 ? 'incomplete' : { cmd: { op: 'ignored', name: 'ESC D' }, next: end + 1 };
    }
    case 0x63: // ESC c 3|4|5 n
      return ignored('ESC c', pos, 4, b);
    case 0x26: {
      // ESC & y c1 c2 [x d1…d(y×x)]…: user-defined characters.
      if (!has(b, pos, 5)) return 'incomplete';
      const y = b[pos + 2]!;
      let at = pos + 5;
      for (let ch = b[pos + 3]!; ch <= b[pos + 4]!; ch++) {
        if (!has(b, at, 1)) return 'incomplete';
        at += 1 + y * b[at]!;
      }
      return has(b, at, 0) && at <= b.length
        ? { cmd: { op: 'ignored', name: 'ESC &' }, next: at }
        : 'incomplete';
    }
    default: {
      const fixed = ESC_FIXED[x];
      if (fixed) return ignored(fixed[0], pos, 2 + fixed[1], b);
      return { cmd: { op: 'unknown', bytes: b.slice(pos, pos + 2) }, next: pos + 2 };
    }
  }
}

const GS_FIXED: Readonly<Record<number, [string, number]>> = {
  36: ['GS $', 2],
  47: ['GS /', 1],
  58: ['GS :', 0],
  66: ['GS B', 1],
  72: ['GS H', 1],
  76: ['GS L', 2],
  80: ['GS P', 2],
  84: ['GS T', 1],
  87: ['GS W', 2],
  92: ['GS \\', 2],
  94: ['GS ^', 3],
  97: ['GS a', 1],
  98: ['GS b', 1],
  99: ['GS c', 0],
  102: ['GS f', 1],
  104: ['GS h', 1],
  106: ['GS j', 1],
  119: ['GS w', 1],
};

function parseGs(b: Uint8Array, pos: number): Parsed {
  if (!has(b, pos, 2)) return 'incomplete';
  const x = b[pos + 1]!;
  switch (x) {
    case 0x21:
      if (!has(b, pos, 3)) return 'incomplete';
      return {
        cmd: { op: 'size', width: ((b[pos + 2]! >> 4) & 7) + 1, height: (b[pos + 2]! & 7) + 1 },
        next: pos + 3,
      };
    case 0x56: {
      // GS V m, or GS V m n for m 65, 66, 97, 98, 103, 104.
      if (!has(b, pos, 3)) return 'incomplete';
      const m = b[pos + 2]!;
      const withN = [65, 66, 97, 98, 103, 104].includes(m);
      if (withN && !has(b, pos, 4)) return 'incomplete';
      return { cmd: { op: 'cut', mode: m }, next: pos + (withN ? 4 : 3) };
    }
    case 0x76: {
      // GS v 0 m xL xH yL yH d1…dk, k = (xL + xH×256) × (yL + yH×256).
      if (!has(b, pos, 8)) return 'incomplete';
      const widthBytes = u16(b, pos + 4);
      const height = u16(b, pos + 6);
      const k = widthBytes * height;
      if (k > MAX_COMMAND_BYTES) return oversized('GS v 0', pos + 8, k);
      if (!has(b, pos, 8 + k)) return 'incomplete';
      return {
        cmd: { op: 'raster', widthBytes, height, data: b.slice(pos + 8, pos + 8 + k) },
        next: pos + 8 + k,
      };
    }
    case 0x28: {
      // GS ( x pL pH p1…pn: every function of the family has its length in pL pH.
      if (!has(b, pos, 5)) return 'incomplete';
      const len = u16(b, pos + 3);
      if (!has(b, pos, 5 + len)) return 'incomplete';
      const next = pos + 5 + len;
      const fnFamily = b[pos + 2]!;
      if (fnFamily === 0x6b && len >= 3 && b[pos + 5] === 0x31) {
        const fn = b[pos + 6]!;
        if (fn === 0x50) return { cmd: { op: 'qr-store', data: b.slice(pos + 8, next) }, next };
        if (fn === 0x51) return { cmd: { op: 'qr-print' }, next };
      }
      // GS ( H fn 48: answer this process ID once everything before it is printed.
      if (fnFamily === 0x48 && len === 6 && b[pos + 5] === 48 && b[pos + 6] === 48) {
        return { cmd: { op: 'process-id', id: String.fromCharCode(...b.subarray(pos + 7, next)) }, next };
      }
      if (fnFamily === 0x4c) return { cmd: graphics('GS ( L', b.subarray(pos + 5, next)), next };
      return { cmd: { op: 'ignored', name: `GS ( ${String.fromCharCode(fnFamily)}` }, next };
    }
    case 0x38: {
      // GS 8 L p1 p2 p3 p4 m fn …: the graphics functions of GS ( L with a 4-byte length.
      if (!has(b, pos, 7)) return 'incomplete';
      const len = b[pos + 3]! + b[pos + 4]! * 256 + b[pos + 5]! * 65536 + b[pos + 6]! * 16777216;
      if (len > MAX_COMMAND_BYTES) return oversized('GS 8', pos + 7, len);
      if (!has(b, pos, 7 + len)) return 'incomplete';
      const next = pos + 7 + len;
      if (b[pos + 2] === 0x4c) return { cmd: graphics('GS 8 L', b.subarray(pos + 7, next)), next };
      return { cmd: { op: 'ignored', name: 'GS 8' }, next };
    }
    case 0x2a: {
      // GS * x y d1…d(x×y×8): downloaded bit image.
      if (!has(b, pos, 4)) return 'incomplete';
      return ignored('GS *', pos, 4 + b[pos + 2]! * b[pos + 3]! * 8, b);
    }
    case 0x6b: {
      // GS k m d1…dk NUL (m 0–6), or GS k m n d1…dn (m 65–79).
      if (!has(b, pos, 3)) return 'incomplete';
      const m = b[pos + 2]!;
      if (m <= 6) {
        const end = b.indexOf(0, pos + 3);
        return end < 0
          ? 'incomplete'
          : { cmd: { op: 'barcode', system: m, data: b.slice(pos + 3, end) }, next: end + 1 };
      }
      if (!has(b, pos, 4)) return 'incomplete';
      const n = b[pos + 3]!;
      if (!has(b, pos, 4 + n)) return 'incomplete';
      return { cmd: { op: 'barcode', system: m, data: b.slice(pos + 4, pos + 4 + n) }, next: pos + 4 + n };
    }
    case 0x72:
      return has(b, pos, 3)
        ? { cmd: { op: 'transmit-status', n: b[pos + 2]! }, next: pos + 3 }
        : 'incomplete';
    case 0x49:
      return has(b, pos, 3) ? { cmd: { op: 'printer-id', n: b[pos + 2]! }, next: pos + 3 } : 'incomplete';
    default: {
      const fixed = GS_FIXED[x];
      if (fixed) return ignored(fixed[0], pos, 2 + fixed[1], b);
      return { cmd: { op: 'unknown', bytes: b.slice(pos, pos + 2) }, next: pos + 2 };
    }
  }
}

/**
 * GS ( L / GS 8 L parameters from `m`: fn 112 stores a raster graphic in the print buffer
 * (`m fn a bx by c xL xH yL yH d…`, k = ⌈x/8⌉ × y), fn 50 (and its alias 2) prints it; other
 * functions (NV and download graphics, reference dots) print nothing by themselves.
 */
function graphics(name: string, p: Uint8Array): EscPosCommand {
  const fn = p[1];
  if (fn === 112 && p.length >= 10) {
    const width = u16(p, 6);
    const height = u16(p, 8);
    const k = ((width + 7) >> 3) * height;
    if (p.length >= 10 + k) {
      return {
        op: 'graphics-store',
        width,
        height,
        scaleX: p[3] === 2 ? 2 : 1,
        scaleY: p[4] === 2 ? 2 : 1,
        data: p.slice(10, 10 + k),
      };
    }
  }
  if (fn === 50 || fn === 2) return { op: 'graphics-print' };
  return { op: 'ignored', name: `${name} fn ${fn ?? '?'}` };
}

/** A command whose data are larger than any printer takes: noted, its data skipped, not kept. */
function oversized(name: string, dataStart: number, length: number): Parsed {
  return {
    cmd: { op: 'skipped', name, bytes: length },
    next: dataStart,
    skip: length,
  };
}

function parseFs(b: Uint8Array, pos: number): Parsed {
  if (!has(b, pos, 2)) return 'incomplete';
  const x = b[pos + 1]!;
  switch (x) {
    case 0x2e: // FS . cancel Kanji mode
    case 0x26: // FS & Kanji mode
      return { cmd: { op: 'ignored', name: `FS ${String.fromCharCode(x)}` }, next: pos + 2 };
    case 0x21:
    case 0x2d:
    case 0x43:
    case 0x57:
      return ignored(`FS ${String.fromCharCode(x)}`, pos, 3, b);
    case 0x53:
    case 0x70:
      return ignored(`FS ${String.fromCharCode(x)}`, pos, 4, b);
    case 0x28: {
      if (!has(b, pos, 5)) return 'incomplete';
      return ignored('FS (', pos, 5 + u16(b, pos + 3), b);
    }
    default:
      return { cmd: { op: 'unknown', bytes: b.slice(pos, pos + 2) }, next: pos + 2 };
  }
}

function parseDle(b: Uint8Array, pos: number): Parsed {
  if (!has(b, pos, 3)) return 'incomplete';
  const x = b[pos + 1]!;
  if (x === 0x04) return { cmd: { op: 'status', n: b[pos + 2]! }, next: pos + 3 };
  if (x === 0x05) return { cmd: { op: 'ignored', name: 'DLE ENQ' }, next: pos + 3 };
  if (x === 0x14) {
    // DLE DC4 fn a b: fn 1 = real-time drawer pulse (m: 0 pin 2, 1 pin 5).
    if (!has(b, pos, 5)) return 'incomplete';
    if (b[pos + 2] === 1) {
      return { cmd: { op: 'drawer', pin: b[pos + 3] === 0 ? 2 : 5, realtime: true }, next: pos + 5 };
    }
    return { cmd: { op: 'ignored', name: 'DLE DC4' }, next: pos + 5 };
  }
  return { cmd: { op: 'unknown', bytes: b.slice(pos, pos + 2) }, next: pos + 2 };
}
