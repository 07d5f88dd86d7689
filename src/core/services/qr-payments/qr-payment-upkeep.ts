import { FiscalError } from '../../fiscal-error.js';
import { nopCredentials } from './nop-credentials.js';
import type { NotificationIntake } from './notification-intake.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/** NOP keeps a notification 2 hours (research §2.3): the catch-up asks for that window. */
export const NOP_RETENTION_MS = 2 * 3600_000;

/** The longest wait for the last look at the listing before an intent stops waiting (ADR 0905). */
export const LAST_LOOK_MS = 3000;

/**
 * The background side of QR payments, driven by src/compose/qr-payment-jobs.ts: the expiry of
 * waiting intents and the catch-up through NOP's listing after every (re)connect (ADR 0908). None
 * of it touches the CHDÚ or the WriteLock.
 */
export class QrPaymentUpkeep {
  readonly #book: QrPaymentBook;
  #catchUp: Promise<number> | undefined;
  #again = false;
  #stopped = false;

  constructor(
    private readonly deps: QrPaymentDeps,
    private readonly intake: NotificationIntake,
  ) {
    this.#book = new QrPaymentBook(deps);
  }

  /**
   * PENDING intents past their `expiresAt` become EXPIRED; returns how many. First one last look
   * at NOP's listing ({@link lastLook}), so money the bank credited before the deadline while the
   * broker was out of reach pays the intent instead of turning it LATE_PAID (ADR 0905).
   */
  async expireDue(): Promise<number> {
    const now = () => this.deps.clock.now().getTime();
    const due = () => this.deps.store.inState('PENDING').filter((i) => now() >= Date.parse(i.expiresAt));
    if (due().length === 0) return 0;
    await this.lastLook();
    let n = 0;
    // Synchronous from here: no notification can slip in between the look and the expiry.
    for (const intent of due()) {
      if (this.#stopped) break;
      this.#book.save({ ...intent, state: 'EXPIRED' });
      n++;
    }
    return n;
  }

  /**
   * One catch-up through NOP's listing before an intent stops waiting (expiry, cancel), bounded:
   * it waits at most `LAST_LOOK_MS`; if NOP is down or slow the caller goes on as if nothing came
   * (the catch-up may still finish later, and then money is LATE_PAID as before). Never throws.
   */
  async lastLook(): Promise<void> {
    if (this.#stopped) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LAST_LOOK_MS);
    });
    try {
      await Promise.race([
        this.catchUp().then(
          () => undefined,
          () => undefined,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Stops for good (shutdown): no new catch-up starts, and one still running no longer applies
   * its rows (the store is about to close; the next start catches up). Waits for it at most
   * `maxWaitMs` and never calls NOP itself.
   */
  async stop(maxWaitMs = 2000): Promise<void> {
    this.#stopped = true;
    const running = this.#catchUp;
    if (!running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      running.catch(() => 0),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, maxWaitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /** The earliest `expiresAt` of a PENDING intent (ms since the epoch), for the expiry timer. */
  nextExpiry(): number | undefined {
    const pending = this.deps.store.inState('PENDING');
    return pending.length === 0 ? undefined : Math.min(...pending.map((i) => Date.parse(i.expiresAt)));
  }

  /** True while some intent waits for money (the jobs poll the listing more often then). */
  hasPending(): boolean {
    return this.deps.store.inState('PENDING').length > 0;
  }

  /**
   * Reads NOP's listing of the last 2 hours and takes every row like a delivery; returns how many
   * rows were read. One run at a time: a call during a run makes the run go once more.
   */
  catchUp(): Promise<number> {
    if (this.#stopped) return Promise.resolve(0);
    if (this.#catchUp) {
      this.#again = true;
      return this.#catchUp;
    }
    const run = async (): Promise<number> => {
      let total = 0;
      do {
        this.#again = false;
        total += await this.#catchUpOnce();
      } while (this.#again);
      return total;
    };
    this.#catchUp = run().finally(() => {
      this.#catchUp = undefined;
    });
    return this.#catchUp;
  }

  async #catchUpOnce(): Promise<number> {
    const nop = this.deps.nop();
    if (!nop || this.deps.settings().nopEnvironment === 'off') return 0;
    let rows: Awaited<ReturnType<typeof nop.notifier.listNotifications>>;
    try {
      const since = new Date(this.deps.clock.now().getTime() - NOP_RETENTION_MS);
      rows = await nop.notifier.listNotifications(nopCredentials(this.deps.merchant), since);
    } catch (e) {
      const code = e instanceof FiscalError ? e.resultCode : -1;
      this.deps.log('warn', `NOP catch-up failed: ${(e as Error).message}`, { resultCode: code });
      return 0;
    }
    if (this.#stopped) return 0;
    for (const row of rows) {
      try {
        this.intake.receive(row);
      } catch (e) {
        // Nothing was recorded for it (one transaction): the next catch-up takes it again.
        this.deps.log('error', `a listed payment notification could not be taken: ${(e as Error).message}`);
      }
    }
    return rows.length;
  }
}
