import { FiscalError } from '../../fiscal-error.js';
import { layoutQrSlip } from '../../receipt/qr-slip-layout.js';
import { localParts } from '../../time.js';
import type { QrPaymentResult } from './create-qr-payment.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/**
 * `POST /api/qrpayment/<id>/print`: prints the QR on a non-fiscal slip through the ReceiptPrinter
 * port (ADR 0909). Only while the intent waits for money; no CHDÚ record, no WriteLock.
 *
 * @throws FiscalError 803, 804 (the intent no longer waits), printer codes 100–106.
 */
export class PrintQrSlip {
  readonly #book: QrPaymentBook;

  constructor(private readonly deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  async execute(id: string): Promise<QrPaymentResult> {
    const intent = this.#book.require(id);
    if (!this.#book.isOpen(intent)) {
      throw new FiscalError(
        'QR_PAYMENT_NOT_PAID',
        `QR payment ${id} is ${intent.state === 'PENDING' ? 'past its deadline' : intent.state}: there is nothing to scan any more.`,
        {
          state: intent.state,
        },
      );
    }
    const until = localParts(new Date(intent.expiresAt));
    const pad = (n: number) => String(n).padStart(2, '0');
    const demo = this.deps.merchant.currentSigner().merchant.demo;
    const layout = layoutQrSlip(
      {
        creditorName: intent.creditorName,
        amountCents: intent.amountCents,
        paymeLink: intent.paymeLink,
        qrPaymentId: intent.id,
        validUntil: `${pad(until.hour)}:${pad(until.minute)}`,
        demo,
      },
      this.deps.printer.charsPerLine,
    );
    await this.deps.printer.print({ kind: 'text', layout, reference: intent.id });
    return { resultCode: 0, qrPayment: this.#book.view(intent) };
  }
}
