/**
 * How the background sender paces its requests (ADR 1105). Constants, not settings: they bound
 * the sender's own work and the SFS's load from one register, and no shop has a reason to tune them.
 *
 * - `SEND_WINDOW`: items whose `sfs-attempt` starts are written together, in one hold of the write
 *   lock and one CHDÚ flush, before any of their requests leaves.
 * - `REQUESTS_IN_FLIGHT`: requests of one batch waiting for the SFS at the same time, so kasa's
 *   work on one (signing, parsing) overlaps the SFS's work on another. They leave oldest first.
 *   6 (ADR 1107; 4 in ADR 1105): with the cashier first, the sender sends in the gaps between a
 *   POS's receipts, and this bounds how much it sends in one gap — the POS's next receipt waits
 *   for that work, and a POS request may find these ahead of it at the SFS.
 */
export const SEND_WINDOW = 32;
export const REQUESTS_IN_FLIGHT = 6;

/**
 * A counting semaphore that hands its slots out in the order they were asked for, so the
 * requests of a window leave oldest first (capability 10).
 */
export class InFlightSlots {
  readonly #waiting: Array<() => void> = [];
  #free: number;

  constructor(slots: number) {
    this.#free = slots;
  }

  /** Resolves when a slot is this caller's; callers are served first come, first served. */
  acquire(): Promise<void> {
    if (this.#free > 0 && this.#waiting.length === 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a slot back: to the longest waiting caller if there is one. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  }
}
