/**
 * One adapter in use, replaceable between requests (capability 12, ADR 1003). Every call goes through
 * {@link use}, which counts it against the adapter it started on; {@link swap} makes a new adapter
 * current at once, and the old one is closed only after the calls in flight on it have ended.
 * With `exclusive` (the default: a device) calls that start after a swap wait until the old adapter
 * is closed, so the two never talk to the same device at the same time (a TCP printer often takes
 * one connection only). Without it (the SFS: two connections to servers are no conflict) they start
 * on the new adapter at once.
 */
export class Swappable<T extends { close(): Promise<void> }> {
  #slot: Slot<T>;
  /** Settles once every adapter swapped out so far is drained and closed. */
  #retired: Promise<void> = Promise.resolve();
  /** Adapters swapped out and not closed yet. */
  #retiring: Array<Slot<T>> = [];
  #closed = false;
  readonly #exclusive: boolean;

  constructor(adapter: T, options: { exclusive?: boolean } = {}) {
    this.#slot = new Slot(adapter);
    this.#exclusive = options.exclusive ?? true;
  }

  /** The adapter new calls go to. */
  get current(): T {
    return this.#slot.adapter;
  }

  /** Runs `work` on the current adapter; a swap during it does not move it. */
  async use<R>(work: (adapter: T) => Promise<R>): Promise<R> {
    const slot = this.#slot;
    const gate = this.#exclusive ? this.#retired : undefined;
    slot.enter();
    try {
      if (gate) await gate;
      return await work(slot.adapter);
    } finally {
      slot.leave();
    }
  }

  /**
   * Runs `work` at once, never behind a swap: on a swapped-out adapter that still has calls in
   * flight (it still holds the device), else as {@link use}. For answers that must not wait for
   * a job — printer status (ADR 0514) — which `retiring` lets mark as such.
   */
  async peek<R>(work: (adapter: T, retiring: boolean) => Promise<R>): Promise<R> {
    const old = this.#retiring.find((s) => s.busy);
    if (old === undefined) return this.use((adapter) => work(adapter, false));
    old.enter();
    try {
      return await work(old.adapter, true);
    } finally {
      old.leave();
    }
  }

  /** Makes `next` current; the old adapter closes once its calls in flight have ended. */
  swap(next: T): void {
    if (this.#closed) throw new Error('swap after close');
    const old = this.#slot;
    this.#slot = new Slot(next);
    this.#retiring.push(old);
    const before = this.#retired;
    this.#retired = before.then(async () => {
      await old.drained();
      this.#retiring = this.#retiring.filter((s) => s !== old);
      await old.adapter.close().catch(() => undefined);
    });
  }

  /** Waits for retired adapters, then closes the current one. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#retired;
    await this.#slot.drained();
    await this.#slot.adapter.close();
  }
}

class Slot<T> {
  #inFlight = 0;
  #waiters: Array<() => void> = [];

  constructor(readonly adapter: T) {}

  get busy(): boolean {
    return this.#inFlight > 0;
  }

  enter(): void {
    this.#inFlight++;
  }

  leave(): void {
    this.#inFlight--;
    if (this.#inFlight === 0) for (const w of this.#waiters.splice(0)) w();
  }

  drained(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
