import { FiscalError } from '../../fiscal-error.js';
import { nopCredentials } from './nop-credentials.js';
import type { NotificationIntake } from './notification-intake.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/** NOP keeps a notification 2 hours (research §2.3): the catch-up asks for that window. */
export const NOP_RETENTION_MS = 2 * 3600_000;

/**
 * The background side of QR payments, driven by src/compose/qr-payment-jobs.ts: the expiry of
 * waiting intents and the catch-up through NOP's listing after every (re)connect (ADR 0908). None
 * of it touches the CHDÚ or the WriteLock.
 */
export class QrPaymentUpkeep {
  readonly #book: QrPaymentBook;
  #catchUp: Promise<number> | undefined;
  #again = false;

  constructor(
    private readonly deps: QrPaymentDeps,
    private readonly intake: NotificationIntake,
  ) {
    this.#book = new QrPaymentBook(deps);
  }

  /** PENDING intents past their `expiresAt` become EXPIRED; returns how many. */
  expireDue(): number {
    let n = 0;
    for (const intent of this.deps.store.inState('PENDING')) {
      if (this.#book.load(intent.id)?.state === 'EXPIRED') n++;
    }
    return n;
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
    for (const row of rows) this.intake.receive(row);
    return rows.length;
  }
}
