import { FiscalError } from '../../fiscal-error.js';
import type { QrPaymentResult } from './create-qr-payment.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/**
 * `POST /api/qrpayment/<id>/cancel`: the POS stops waiting. A PENDING intent becomes CANCELLED (money
 * that comes later makes it LATE_PAID). A PAID or USED one is refused with 806 and its view, so the
 * POS issues the receipt instead; any other state is answered as it is (cancelling twice is fine).
 * NOP has no cancel: nothing is sent (research §2.3).
 */
export class CancelQrPayment {
  readonly #book: QrPaymentBook;

  constructor(deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  execute(id: string): QrPaymentResult {
    const intent = this.#book.require(id);
    const view = this.#book.view(intent);
    if (view.state === 'PAID' || view.state === 'USED') {
      throw new FiscalError(
        'QR_PAYMENT_ALREADY_PAID',
        `QR payment ${id} is already ${view.state === 'PAID' ? 'paid: issue the receipt with it' : 'used by a receipt'}; it cannot be cancelled.`,
        { qrPayment: view },
      );
    }
    if (intent.state !== 'PENDING') return { resultCode: 0, qrPayment: view };
    return { resultCode: 0, qrPayment: this.#book.view(this.#book.save({ ...intent, state: 'CANCELLED' })) };
  }
}
