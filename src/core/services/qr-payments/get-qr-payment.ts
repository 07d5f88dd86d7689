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
      const toExpiry = Date.parse(intent.expiresAt) - this.deps.clock.now().getTime();
      const slice = Math.max(1, Math.min(budgetMs, toExpiry, 1000));
      await this.deps.watch.next(id, slice);
      budgetMs -= slice;
      intent = this.#book.require(id);
    }
    return { resultCode: 0, qrPayment: this.#book.view(intent) };
  }
}
