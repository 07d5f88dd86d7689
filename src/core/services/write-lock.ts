import { FiscalError } from '../fiscal-error.js';

/**
 * How many requests of the background sender may be started (built, signed, sent) while the
 * client request holding the lock waits on the network (`whileAwaitingNetwork`): about a
 * millisecond of work each, in a POS receipt's wait for the SFS of a few; the receipt's answer
 * waits at most for the one being built when it comes in (ADR 1107, measured with figure 4).
 */
export const BACKGROUND_TURNS_PER_NETWORK_WAIT = 2;

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
  /** Set while the client holder waits on the network (ADR 1107). */
  #awaitingNetwork = false;
  /** Background turns left in the client holder's current network wait. */
  #turns = 0;
  /** Resolved (and replaced) on every change `clientIdle` waits for: a release, a network wait. */
  #signal: () => void = () => undefined;
  #changed: Promise<void> = new Promise<void>((resolve) => {
    this.#signal = resolve;
  });

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
   * Resolves once no client request holds the lock or waits for it — or once the client request
   * holding it waits on the network (`whileAwaitingNetwork`), for at most
   * `BACKGROUND_TURNS_PER_NETWORK_WAIT` callers per wait. Background work that is not a journal
   * append — the offline sender about to build, sign and send its next request — waits for this,
   * so a POS storing receipts goes first and the sender works in the gaps (ADR 1105), including
   * the gap while a receipt waits for the SFS with the thread idle (ADR 1107). It never lets
   * anybody write: `runBackground` still waits until nobody holds the lock.
   */
  async clientIdle(): Promise<void> {
    for (;;) {
      if (this.#clientsWaiting === 0) {
        if (this.#holder === undefined || this.#background) return;
        if (this.#awaitingNetwork && this.#turns > 0) {
          this.#turns -= 1;
          return;
        }
      }
      await this.#changed;
    }
  }

  /**
   * Runs `wait` — the lock holder's wait on the network, e.g. a store's first attempt waiting for
   * the SFS — marked on the lock, so background CPU work may take its turns meanwhile
   * (`clientIdle`, ADR 1107). Only a client holder's wait counts; the lock stays held throughout.
   * The turns are handed out after the current turn of the event loop (`setImmediate`), when the
   * caller's own synchronous work up to its first I/O (building and sending its request) is done.
   */
  async whileAwaitingNetwork<T>(wait: () => Promise<T>): Promise<T> {
    if (this.#holder === undefined || this.#background || this.#awaitingNetwork) return wait();
    const hold = this.#holds;
    this.#awaitingNetwork = true;
    this.#turns = 0;
    const grant = setImmediate(() => {
      if (!this.#awaitingNetwork || this.#holds !== hold) return;
      this.#turns = BACKGROUND_TURNS_PER_NETWORK_WAIT;
      this.#wake();
    });
    try {
      return await wait();
    } finally {
      clearImmediate(grant);
      if (this.#holds === hold) {
        this.#awaitingNetwork = false;
        this.#turns = 0;
      }
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
    this.#awaitingNetwork = false;
    this.#turns = 0;
    this.#released = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
    try {
      return await work();
    } finally {
      this.#holder = undefined;
      this.#background = false;
      this.#awaitingNetwork = false;
      this.#turns = 0;
      this.#release();
      this.#wake();
    }
  }

  #wake(): void {
    const signal = this.#signal;
    this.#changed = new Promise<void>((resolve) => {
      this.#signal = resolve;
    });
    signal();
  }
}
