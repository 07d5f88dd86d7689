import type { QrPaymentView } from './qr-payment-view.js';

type Listener = (view: QrPaymentView) => void;

/**
 * In-memory change notices for QR payments: the long poll and the server-sent events wait here
 * for the next state of one id, whoever changes it (a notification, a cancel, the expiry). Holds
 * nothing but the listeners of requests that are waiting now.
 */
export class QrPaymentWatch {
  readonly #listeners = new Map<string, Set<Listener>>();

  /** Calls `listener` on every change of `id` until the returned function is called. */
  subscribe(id: string, listener: Listener): () => void {
    let set = this.#listeners.get(id);
    if (!set) {
      set = new Set();
      this.#listeners.set(id, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.#listeners.delete(id);
    };
  }

  /** Resolves at the next change of `id`, or after `ms` (never rejects). */
  next(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const stop = this.subscribe(id, () => done());
      const timer = setTimeout(() => done(), Math.max(0, ms));
      function done(): void {
        clearTimeout(timer);
        stop();
        resolve();
      }
    });
  }

  publish(view: QrPaymentView): void {
    const set = this.#listeners.get(view.qrPaymentId);
    if (!set) return;
    for (const listener of [...set]) listener(view);
  }

  /** Requests waiting now (for tests and status). */
  get waiting(): number {
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }
}
