/**
 * How a text is split into QR segments (ISO/IEC 18004:2015 §7.4: numeric, alphanumeric and byte
 * mode), chosen exactly as the `qrcode` package (1.5) chooses them for a given version — so the
 * symbol built from these segments is bit for bit the one the package builds from the text — but
 * without its general graph search (the package builds a graph of string-keyed objects and runs a
 * priority queue that sorts its array on every push: about a third of a receipt's QR time on the
 * store path, ADR 1111).
 *
 * The text is cut into maximal runs of digits, of the other alphanumeric characters and of
 * anything else. A digit run may be written in numeric, alphanumeric or byte mode, an
 * alphanumeric run in alphanumeric or byte mode, anything else in byte mode (Kanji mode is off: kasa
 * never gives the package a Shift JIS converter). The cheapest sequence in bits is found as the
 * package finds it, including how it prices a run that continues the previous run's mode and
 * which of two equally cheap sequences wins (first reached at the lowest cost, in the order it
 * visits them); `qr-segments.test.ts` compares both on thousands of texts.
 */

/** A segment as `QRCode.create` takes it. */
export type QrSegment =
  | { data: string; mode: 'numeric' }
  | { data: string; mode: 'alphanumeric' }
  | { data: string; mode: 'byte' };

export type QrMode = 'numeric' | 'alphanumeric' | 'byte';

const NUMERIC = 0;
const ALPHANUMERIC = 1;
const BYTE = 2;
const MODE_NAMES: readonly QrMode[] = ['numeric', 'alphanumeric', 'byte'];
/** Character count indicator bits per mode for versions 1–9, 10–26, 27–40 (§7.4.1, Table 3). */
const CC_BITS: readonly (readonly number[])[] = [
  [10, 12, 14],
  [9, 11, 13],
  [8, 16, 16],
];

/** Bits of `length` characters (bytes in byte mode) in a mode, without header (§7.4.3–7.4.5). */
function dataBits(mode: number, length: number): number {
  if (mode === NUMERIC) return 10 * Math.floor(length / 3) + (length % 3 ? (length % 3) * 3 + 1 : 0);
  if (mode === ALPHANUMERIC) return 11 * Math.floor(length / 2) + 6 * (length % 2);
  return length * 8;
}

function ccBits(mode: number, version: number): number {
  const row = CC_BITS[mode] as readonly number[];
  return (version < 10 ? row[0] : version < 27 ? row[1] : row[2]) as number;
}

/** Class of a UTF-16 code unit: digit, other alphanumeric character, anything else. */
function classOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return NUMERIC;
  if (
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x20 ||
    code === 0x24 ||
    code === 0x25 ||
    code === 0x2a ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x2f ||
    code === 0x3a
  ) {
    return ALPHANUMERIC;
  }
  return BYTE;
}

interface Node {
  readonly run: number;
  readonly mode: number;
  /** Characters, or UTF-8 bytes for a run of other characters (what the package prices). */
  readonly length: number;
}

/**
 * The segments `QRCode.create(text, { version })` would encode `text` with, or undefined when the
 * text has a lone surrogate (the package's own path is left to report it).
 */
export function qrSegments(text: string, version: number): QrSegment[] | undefined {
  // Maximal runs of one class.
  const runs: Array<{ start: number; end: number; cls: number }> = [];
  for (let i = 0; i < text.length; ) {
    const cls = classOf(text.charCodeAt(i));
    let end = i + 1;
    while (end < text.length && classOf(text.charCodeAt(end)) === cls) end++;
    runs.push({ start: i, end, cls });
    i = end;
  }
  // Node groups, in the order the package lists a run's alternatives.
  const groups: Node[][] = [];
  for (const [r, run] of runs.entries()) {
    const length = run.end - run.start;
    if (run.cls === NUMERIC) {
      groups.push([
        { run: r, mode: NUMERIC, length },
        { run: r, mode: ALPHANUMERIC, length },
        { run: r, mode: BYTE, length },
      ]);
    } else if (run.cls === ALPHANUMERIC) {
      groups.push([
        { run: r, mode: ALPHANUMERIC, length },
        { run: r, mode: BYTE, length },
      ]);
    } else {
      const bytes = utf8Length(text, run.start, run.end);
      if (bytes === undefined) return undefined;
      groups.push([{ run: r, mode: BYTE, length: bytes }]);
    }
  }
  const path = cheapestPath(groups, version);
  // Adjacent runs in one mode become one segment.
  const out: QrSegment[] = [];
  let last = -1;
  for (const node of path) {
    const run = runs[node.run] as { start: number; end: number };
    const data = text.slice(run.start, run.end);
    const prev = out[out.length - 1];
    if (prev !== undefined && last === node.mode) prev.data += data;
    else out.push({ data, mode: MODE_NAMES[node.mode] } as QrSegment);
    last = node.mode;
  }
  return out;
}

/**
 * The package's graph, priced as it prices it: an edge into a node of another mode (or from the
 * start) costs the node's bits plus a 4-bit mode indicator and the count indicator; an edge into a
 * node of the same mode costs `bits(c + L) − bits(c)`, where `c` is, as the package leaves it, 0
 * unless a node of another mode came earlier in the same group (then that node's length). Then a
 * shortest path as its Dijkstra finds it: a queue ordered by cost, ties in the order pushed; a node
 * takes the predecessor that first reached it at its lowest cost.
 */
function cheapestPath(groups: Node[][], version: number): Node[] {
  // Node ids: 0 = start, then every node of every group in order, last = end. A node's edges are
  // made one after the other (to the next group's nodes in order, or to the end), so they are kept
  // flat: edge e goes to edgeTo[e] at edgeCost[e]; node u's edges are firstEdge[u] to lastEdge[u].
  const nodes: Node[] = [];
  for (const g of groups) for (const n of g) nodes.push(n);
  const end = nodes.length + 1;
  const maxEdges = 3 + 9 * groups.length + 3;
  const edgeTo = new Int32Array(maxEdges);
  const edgeCost = new Float64Array(maxEdges);
  const firstEdge = new Int32Array(end + 1);
  const lastEdge = new Int32Array(end + 1);
  let edges = 0;
  let prevFirst = 0;
  let prevCount = 1;
  let id = 1;
  for (const group of groups) {
    for (let p = prevFirst; p < prevFirst + prevCount; p++) {
      const prev = p === 0 ? undefined : (nodes[p - 1] as Node);
      firstEdge[p] = edges;
      let lastCount = 0;
      for (const [j, node] of group.entries()) {
        let weight: number;
        if (prev !== undefined && prev.mode === node.mode) {
          weight = dataBits(node.mode, lastCount + node.length) - dataBits(node.mode, lastCount);
          lastCount += node.length;
        } else {
          lastCount = node.length;
          weight = dataBits(node.mode, node.length) + 4 + ccBits(node.mode, version);
        }
        edgeTo[edges] = id + j;
        edgeCost[edges++] = weight;
      }
      lastEdge[p] = edges;
    }
    prevFirst = id;
    prevCount = group.length;
    id += group.length;
  }
  for (let p = prevFirst; p < prevFirst + prevCount; p++) {
    firstEdge[p] = edges;
    edgeTo[edges] = end;
    edgeCost[edges++] = 0;
    lastEdge[p] = edges;
  }

  const cost = new Float64Array(end + 1).fill(-1);
  const pred = new Int32Array(end + 1);
  cost[0] = 0;
  const queue = new CostQueue(edges + 1);
  queue.push(0, 0);
  while (queue.size > 0) {
    const u = queue.popId();
    const costU = queue.poppedCost;
    for (let e = firstEdge[u] as number; e < (lastEdge[u] as number); e++) {
      const v = edgeTo[e] as number;
      const c = costU + (edgeCost[e] as number);
      const known = cost[v] as number;
      if (known < 0 || known > c) {
        cost[v] = c;
        queue.push(v, c);
        pred[v] = u;
      }
    }
  }
  const path: Node[] = [];
  for (let u = pred[end] as number; u !== 0; u = pred[u] as number) path.push(nodes[u - 1] as Node);
  return path.reverse();
}

/** A min-heap by (cost, order pushed): the order a stably sorted array pops in. */
class CostQueue {
  private readonly ids: Int32Array;
  private readonly costs: Float64Array;
  private readonly seqs: Int32Array;
  private seq = 0;
  size = 0;
  /** The cost of the entry {@link popId} returned last. */
  poppedCost = 0;

  /** At most `capacity` pushes (one per edge relaxed, plus the start). */
  constructor(capacity: number) {
    this.ids = new Int32Array(capacity);
    this.costs = new Float64Array(capacity);
    this.seqs = new Int32Array(capacity);
  }

  push(id: number, cost: number): void {
    const seq = this.seq++;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.precedes(cost, seq, parent)) break;
      this.move(parent, i);
      i = parent;
    }
    this.put(i, id, cost, seq);
  }

  popId(): number {
    const id = this.ids[0] as number;
    this.poppedCost = this.costs[0] as number;
    const last = --this.size;
    const lastId = this.ids[last] as number;
    const cost = this.costs[last] as number;
    const seq = this.seqs[last] as number;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= last) break;
      const r = l + 1;
      const child = r < last && this.precedes(this.costs[r] as number, this.seqs[r] as number, l) ? r : l;
      const childCost = this.costs[child] as number;
      const childSeq = this.seqs[child] as number;
      if (!(childCost < cost || (childCost === cost && childSeq < seq))) break;
      this.move(child, i);
      i = child;
    }
    this.put(i, lastId, cost, seq);
    return id;
  }

  /** Whether (cost, seq) comes before the entry at `at`. */
  private precedes(cost: number, seq: number, at: number): boolean {
    const c = this.costs[at] as number;
    return cost < c || (cost === c && seq < (this.seqs[at] as number));
  }

  private move(from: number, to: number): void {
    this.put(to, this.ids[from] as number, this.costs[from] as number, this.seqs[from] as number);
  }

  private put(at: number, id: number, cost: number, seq: number): void {
    this.ids[at] = id;
    this.costs[at] = cost;
    this.seqs[at] = seq;
  }
}

/** UTF-8 bytes of `text[start, end)`, or undefined for a lone surrogate. */
function utf8Length(text: string, start: number, end: number): number | undefined {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < end ? text.charCodeAt(i + 1) : 0;
      if (next < 0xdc00 || next > 0xdfff) return undefined;
      n += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return undefined;
    else n += 3;
  }
  return n;
}
