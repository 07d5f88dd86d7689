import { FiscalError } from '../../fiscal-error.js';
import type { PaymentIntent } from '../../qr-payments/payment-intent.js';
import type { QrPaymentResult } from './create-qr-payment.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/**
 * `POST /api/qrpayment/<id>/cancel`: the POS stops waiting. A PENDING intent becomes CANCELLED (money
 * that comes later makes it LATE_PAID). A PAID or USED one is refused with 806 and its view, so the
 * POS issues the receipt instead; any other state is answered as it is (cancelling twice is fine).
 * NOP has no cancel: nothing is sent (research §2.3). Before a PENDING intent is cancelled, one
 * bounded look at NOP's listing (ADR 0905): money already credited while the broker was out of reach
 * makes it PAID, and the cancel is refused with 806 like any cancel of a paid payment.
 */
export class CancelQrPayment {
  readonly #book: QrPaymentBook;

  constructor(
    deps: QrPaymentDeps,
    private readonly lastLook: () => Promise<void>,
  ) {
    this.#book = new QrPaymentBook(deps);
  }

  /** @throws FiscalError 803 unknown id, 806 already PAID or USED. */
  async execute(id: string): Promise<QrPaymentResult> {
    const before = this.#book.require(id);
    this.#refusePaid(before);
    if (before.state !== 'PENDING') return { resultCode: 0, qrPayment: this.#book.view(before) };
    await this.lastLook();
    // Synchronous from here: no notification can come between this read and the change.
    const intent = this.#book.require(id);
    this.#refusePaid(intent);
    if (intent.state !== 'PENDING') return { resultCode: 0, qrPayment: this.#book.view(intent) };
    return { resultCode: 0, qrPayment: this.#book.view(this.#book.save({ ...intent, state: 'CANCELLED' })) };
  }

  #refusePaid(intent: PaymentIntent): void {
    const view = this.#book.view(intent);
    if (view.state === 'PAID' || view.state === 'USED') {
      throw new FiscalError(
        'QR_PAYMENT_ALREADY_PAID',
        `QR payment ${intent.id} is already ${view.state === 'PAID' ? 'paid: issue the receipt with it' : 'used by a receipt'}; it cannot be cancelled.`,
        { qrPayment: view },
      );
    }
  }
}
