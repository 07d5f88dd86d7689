import { FiscalError } from '../fiscal-error.js';

/**
 * One writer at a time. Every use case that writes to the CHDÚ runs inside `run()`. While another
 * client request holds it, a writer is refused at once with 300 BUSY — never queued silently, so a
 * POS that retries knows exactly which request did the work (ADR 0003). Readers do not take the lock.
 *
 * Background work (the offline sender) holds it only for the short append of an attempt record,
 * never while it waits on the network (ADR 0701): `runBackground()` waits for the lock, and a
 * client request that finds only such a short background section holding it waits for that
 * section to end instead of getting 300.
 *
 * It lives in the application layer so that every caller (HTTP, CLI, background resend) obeys it.
 */
export class WriteLock {
  #holder: string | undefined;
  #background = false;
  #released: Promise<void> = Promise.resolve();
  #release: () => void = () => undefined;
  #holds = 0;
  #clientsWaiting = 0;

  /**
   * A client request waits for a background section to end: background work should end its hold
   * as soon as it can (the cashier waits; capability 13).
   */
  get clientWaiting(): boolean {
    return this.#clientsWaiting > 0;
  }

  /** The use case now holding the lock, if any (for status and logs). */
  get holder(): string | undefined {
    return this.#holder;
  }

  /**
   * How many times the lock has been taken so far. A reader that must see no writer's half-done
   * work (the state watcher, ADR 0805) compares it before and after its read.
   */
  get holds(): number {
    return this.#holds;
  }

  /**
   * Resolves once no client request holds the lock or waits for it. Background work that is not
   * a journal append — the offline sender about to build, sign and send its next request — waits
   * for this, so a POS storing receipts goes first and the sender works in the gaps (ADR 1105).
   */
  async clientIdle(): Promise<void> {
    while ((this.#holder !== undefined && !this.#background) || this.#clientsWaiting > 0) {
      await this.#released;
    }
  }

  /** Resolves once nobody holds the lock (it may be taken again at once). */
  async idle(): Promise<void> {
    while (this.#holder !== undefined) await this.#released;
  }

  async run<T>(useCase: string, work: () => Promise<T>): Promise<T> {
    if (this.#holder !== undefined && this.#background) {
      this.#clientsWaiting += 1;
      try {
        while (this.#holder !== undefined && this.#background) await this.#released;
      } finally {
        this.#clientsWaiting -= 1;
      }
    }
    if (this.#holder !== undefined) {
      throw new FiscalError(
        'BUSY',
        `The register is busy with another writing request (${this.#holder}); try again shortly.`,
      );
    }
    return this.#hold(useCase, false, work);
  }

  /**
   * Waits until the lock is free, then runs `work` holding it. Only for background work, and
   * `work` must be short (one journal append): client requests wait for it to finish.
   */
  async runBackground<T>(useCase: string, work: () => Promise<T>): Promise<T> {
    while (this.#holder !== undefined) await this.#released;
    return this.#hold(useCase, true, work);
  }

  async #hold<T>(useCase: string, background: boolean, work: () => Promise<T>): Promise<T> {
    this.#holder = useCase;
    this.#holds += 1;
    this.#background = background;
    this.#released = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
    try {
      return await work();
    } finally {
      this.#holder = undefined;
      this.#background = false;
      this.#release();
    }
  }
}
