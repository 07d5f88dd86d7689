import { FiscalError } from '../fiscal-error.js';

/**
 * One writer at a time. Every use case that writes to the CHDÚ runs inside `run()`. While one
 * runs, another writer is refused at once with 300 BUSY — never queued silently, so a POS that
 * retries knows exactly which request did the work. Readers do not take the lock.
 *
 * It lives in the application layer so that every caller (HTTP, CLI, background resend) obeys it.
 */
export class WriteLock {
  #holder: string | undefined;

  /** The use case now holding the lock, if any (for status and logs). */
  get holder(): string | undefined {
    return this.#holder;
  }

  async run<T>(useCase: string, work: () => Promise<T>): Promise<T> {
    if (this.#holder !== undefined) {
      throw new FiscalError(
        'BUSY',
        `The register is busy with another writing request (${this.#holder}); try again shortly.`,
      );
    }
    this.#holder = useCase;
    try {
      return await work();
    } finally {
      this.#holder = undefined;
    }
  }

  /**
   * Like run(), but waits for the lock instead of refusing — only for background work (offline
   * resend), never for client requests. Gives up with BUSY after `timeoutMs`.
   */
  async runWhenFree<T>(useCase: string, work: () => Promise<T>, timeoutMs = 30_000, pollMs = 20): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (this.#holder !== undefined) {
      if (Date.now() > deadline) return this.run(useCase, work);
      await new Promise((r) => setTimeout(r, pollMs));
    }
    return this.run(useCase, work);
  }
}
