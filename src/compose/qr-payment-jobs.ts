import type { NotifierCredentials, NotifierSession } from '../core/ports/payment-notifier.js';
import { nopCredentials } from '../core/services/qr-payments/nop-credentials.js';
import type { NotificationIntake } from '../core/services/qr-payments/notification-intake.js';
import type { QrPaymentDeps } from '../core/services/qr-payments/qr-payment-deps.js';
import type { QrPaymentUpkeep } from '../core/services/qr-payments/qr-payment-upkeep.js';

/** What `GET /api/qrpayment/notifier` shows about the background session. */
export interface NotifierStatus {
  environment: string;
  target: string;
  connected: boolean;
  /** Why the session is not connected (NOP refused the certificate, no merchant, …). */
  problem?: string;
  refused?: boolean;
  lastCatchUpAt?: string;
}

export interface QrPaymentJobsOptions {
  /** How often the jobs look at expiry and the session, ms (default 1000). */
  tickMs?: number;
  /** While an intent waits for money, the listing is read this often besides the MQTT push, ms. */
  pollWhilePendingMs?: number;
  describe(env: string): string;
}

/**
 * The ONE lifecycle of the QR payment background work (ADR 0908), started and stopped by
 * composeKasa: the persistent MQTT session on the register's topic (opened when QR payments are
 * on and the merchant's certificate is usable, reopened when the environment or the certificate
 * changes), a catch-up through NOP's listing after every (re)connect and, while an intent waits,
 * every few seconds, and the expiry of waiting intents. Nothing here touches the CHDÚ or takes the
 * WriteLock; every network wait is outside any lock.
 */
export class QrPaymentJobs {
  readonly #timer: { handle: NodeJS.Timeout | undefined } = { handle: undefined };
  #session: { key: string; session: NotifierSession } | undefined;
  #ticking: Promise<void> | undefined;
  #lastPoll = 0;
  #status: Omit<NotifierStatus, 'connected' | 'target' | 'environment'> = {};
  #stopped = false;

  constructor(
    private readonly deps: QrPaymentDeps,
    private readonly intake: NotificationIntake,
    private readonly upkeep: QrPaymentUpkeep,
    private readonly options: QrPaymentJobsOptions,
  ) {}

  start(): void {
    this.#stopped = false;
    void this.tick();
    this.#timer.handle = setInterval(() => void this.tick(), this.options.tickMs ?? 1000);
    this.#timer.handle.unref();
  }

  /**
   * Stops the background work without calling NOP: no catch-up starts any more, one in flight is
   * waited for at most 2 s and then ignored (the next start catches up), the session is closed.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer.handle);
    await this.upkeep.stop(2000);
    const ticking = this.#ticking;
    if (ticking) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ticking, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
    }
    await this.#closeSession();
  }

  status(): NotifierStatus {
    const env = this.deps.settings().nopEnvironment;
    return {
      environment: env,
      target: this.options.describe(env),
      connected: this.#session?.session.connected ?? false,
      ...this.#status,
    };
  }

  /** One round: expiry, session, polling while an intent waits. Never throws. */
  tick(): Promise<void> {
    if (this.#ticking) return this.#ticking;
    this.#ticking = this.#round()
      .catch((e: unknown) => this.deps.log('error', `QR payment jobs: ${(e as Error).message}`))
      .finally(() => {
        this.#ticking = undefined;
      });
    return this.#ticking;
  }

  async #round(): Promise<void> {
    if (this.#stopped) return;
    await this.upkeep.expireDue();
    await this.#ensureSession();
    const poll = this.options.pollWhilePendingMs ?? 10_000;
    if (this.#session && this.upkeep.hasPending() && Date.now() - this.#lastPoll >= poll) {
      await this.#catchUp();
    }
  }

  async #ensureSession(): Promise<void> {
    const env = this.deps.settings().nopEnvironment;
    const nop = env === 'off' ? undefined : this.deps.nop();
    let credentials: NotifierCredentials | undefined;
    if (nop) {
      try {
        credentials = nopCredentials(this.deps.merchant);
      } catch (e) {
        this.#problem((e as Error).message, false);
      }
    }
    const key =
      nop && credentials
        ? `${nop.environment}|${this.deps.merchant.currentSigner().merchant.certificateSha256}`
        : undefined;
    if (this.#session && this.#session.key !== key) await this.#closeSession();
    if (this.#session || !nop || !credentials || key === undefined || this.#stopped) return;
    const session = nop.notifier.openSession(credentials, {
      notification: (n) => {
        try {
          this.intake.receive(n);
        } catch (e) {
          this.deps.log('error', `a payment notification could not be taken: ${(e as Error).message}`);
        }
      },
      connected: () => {
        this.#status = {};
        this.deps.log('info', `NOP session connected and subscribed (${this.options.describe(env)})`);
        void this.#catchUp();
      },
      disconnected: (reason, refused) => this.#problem(reason, refused),
    });
    this.#session = { key, session };
  }

  async #catchUp(): Promise<void> {
    this.#lastPoll = Date.now();
    await this.upkeep.catchUp();
    this.#status = { ...this.#status, lastCatchUpAt: this.deps.clock.now().toISOString() };
  }

  #problem(reason: string, refused: boolean): void {
    const changed = this.#status.problem !== reason;
    this.#status = { ...this.#status, problem: reason, ...(refused ? { refused } : {}) };
    if (!changed) return;
    if (refused) {
      this.deps.log(
        'error',
        `NOP refused the register (${reason}): QR payments cannot be confirmed until this is fixed`,
      );
    } else {
      this.deps.log(
        'warn',
        `NOP session: ${reason}; reconnecting, and catching up through the listing when back`,
      );
    }
  }

  async #closeSession(): Promise<void> {
    const current = this.#session;
    this.#session = undefined;
    if (current) await current.session.close();
  }
}
