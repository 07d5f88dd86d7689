/**
 * Faults the CHDU Lite emulator can be told to show (flags, control interface, tests):
 * - `hw`: EC_HW on READ, WRITE*, OPEN_DRAWER*, LOCK_ACTIVATE; STATUS drops STORAGE_OK;
 * - `printer`: PRINTER_READY off; WRITE_PRINT* and OPEN_DRAWER* answer EC_PRINTER;
 * - `busy`: every command answers EC_BUSY;
 * - `full`: STATUS reports no free block; writes answer EC_HW (the spec names no "full" error);
 * - `disconnect`: every connection is dropped and new ones are refused;
 * - `mute`: commands are received but never answered (the host's 1 s limit runs out);
 * - `lost-ack`: a WRITE* is carried out, but its answer never reaches the host (the block is
 *   stored; the host's 1 s limit runs out) — e.g. the line drops right after the write.
 * `afterWrites` arms a fault only after that many more successful writes (a failure in the middle
 * of a multi-block record); `afterPrints` likewise after that many WRITE_PRINT* (a line that drops
 * in the middle of a receipt printed through the device); `count` clears it by itself after failing that many commands — a
 * STATUS that shows `hw`, `printer` or `full` counts as one (ADR 0111).
 */
export type FaultKind = 'hw' | 'printer' | 'busy' | 'full' | 'disconnect' | 'mute' | 'lost-ack';
export const FAULT_KINDS: readonly FaultKind[] = [
  'hw',
  'printer',
  'busy',
  'full',
  'disconnect',
  'mute',
  'lost-ack',
];

export interface FaultSpec {
  kind: FaultKind;
  afterWrites?: number;
  afterPrints?: number;
  count?: number;
}

interface ActiveFault {
  kind: FaultKind;
  writesLeft: number;
  /** Counted only on WRITE_PRINT*; 0 when the fault waits for plain writes (or nothing). */
  printsOnly: boolean;
  failuresLeft: number;
}

export class FaultState {
  private faults = new Map<FaultKind, ActiveFault>();

  inject(spec: FaultSpec): void {
    if (!FAULT_KINDS.includes(spec.kind)) throw new RangeError(`unknown fault ${String(spec.kind)}`);
    this.faults.set(spec.kind, {
      kind: spec.kind,
      writesLeft: Math.max(0, spec.afterPrints ?? spec.afterWrites ?? 0),
      printsOnly: spec.afterPrints !== undefined,
      failuresLeft: spec.count === undefined ? Number.POSITIVE_INFINITY : Math.max(1, spec.count),
    });
  }

  clear(kind?: FaultKind): void {
    if (kind) this.faults.delete(kind);
    else this.faults.clear();
  }

  /** True while the fault is armed and its `afterWrites` are used up. */
  triggered(kind: FaultKind): boolean {
    const f = this.faults.get(kind);
    return f !== undefined && f.writesLeft === 0;
  }

  /** Consumes one failure of a triggered fault; true when the command must fail with it. */
  fire(kind: FaultKind): boolean {
    const f = this.faults.get(kind);
    if (!f || f.writesLeft > 0) return false;
    f.failuresLeft--;
    if (f.failuresLeft <= 0) this.faults.delete(kind);
    return true;
  }

  /** Counts a successful write (`print`: a WRITE_PRINT*); returns the faults it triggered. */
  countWrite(print = false): FaultKind[] {
    const now: FaultKind[] = [];
    for (const f of this.faults.values()) {
      if (f.printsOnly && !print) continue;
      if (f.writesLeft > 0 && --f.writesLeft === 0) now.push(f.kind);
    }
    return now;
  }

  list(): Array<{ kind: FaultKind; afterWrites: number; count: number | null }> {
    return [...this.faults.values()].map((f) => ({
      kind: f.kind,
      afterWrites: f.writesLeft,
      count: Number.isFinite(f.failuresLeft) ? f.failuresLeft : null,
    }));
  }
}

/** Parses `hw`, `hw:after=3`, `busy:count=2` (flag and control-interface syntax). */
export function parseFaultSpec(text: string): FaultSpec {
  const [kind, ...opts] = text.split(':');
  if (!FAULT_KINDS.includes(kind as FaultKind)) {
    throw new RangeError(`unknown fault "${kind}" (one of ${FAULT_KINDS.join(', ')})`);
  }
  const spec: FaultSpec = { kind: kind as FaultKind };
  for (const opt of opts.join(':').split(',').filter(Boolean)) {
    const [key, value] = opt.split('=');
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`fault option ${opt}: not a whole number`);
    if (key === 'after') spec.afterWrites = n;
    else if (key === 'afterPrints') spec.afterPrints = n;
    else if (key === 'count') spec.count = n;
    else throw new RangeError(`unknown fault option "${key}" (after, afterPrints, count)`);
  }
  return spec;
}
