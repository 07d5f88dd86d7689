import { FiscalError } from '../../fiscal-error.js';
import { isFinalForWaiting } from '../../qr-payments/payment-intent.js';
import type { QrPaymentResult } from './create-qr-payment.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/** The longest long poll, seconds: well under the server's 300 s idle limit (docs/http-api.md). */
export const MAX_WAIT_SECONDS = 60;

/**
 * `GET /api/qrpayment/<id>[?wait=N]`: the intent now; with `wait`, a long poll that answers at once
 * when the intent no longer waits for money, else at its next change, at its expiry, or after N
 * seconds — whichever comes first.
 */
export class GetQrPayment {
  readonly #book: QrPaymentBook;

  constructor(private readonly deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  async execute(id: string, waitSeconds = 0, signal?: AbortSignal): Promise<QrPaymentResult> {
    let intent = this.#book.require(id);
    // The wait is a budget of real time (a transport matter); the expiry counts on kasa's clock.
    let budgetMs = Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000;
    while (!isFinalForWaiting(intent.state) && budgetMs > 0 && !signal?.aborted) {
      // Past the deadline the upkeep expires it after its last look (ADR 0905): wait for that.
      const toExpiry = Date.parse(intent.expiresAt) - this.deps.clock.now().getTime();
      const slice = Math.max(1, Math.min(budgetMs, toExpiry > 0 ? toExpiry : 1000, 1000));
      await this.deps.watch.next(id, slice);
      budgetMs -= slice;
      intent = this.#book.require(id);
    }
    return { resultCode: 0, qrPayment: this.#book.view(intent) };
  }

  /**
   * The Payme link to draw as a QR (`qr.png`), only while the intent waits for money, like the
   * slip (ADR 0909): a QR of a cancelled, expired or paid payment would invite a payment that can
   * only end as LATE_PAID (a refund) or a second payment.
   * @throws FiscalError 803 unknown id, 804 the intent no longer waits for money.
   */
  scannable(id: string): string {
    const intent = this.#book.require(id);
    const view = this.#book.view(intent);
    if (!this.#book.isOpen(intent)) {
      throw new FiscalError(
        'QR_PAYMENT_NOT_PAID',
        `QR payment ${id} is ${view.state === 'PENDING' ? 'past its deadline' : view.state}: its QR is no longer shown, there is nothing to scan any more.`,
        { state: view.state },
      );
    }
    return view.payme;
  }
}
