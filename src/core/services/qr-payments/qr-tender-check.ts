import { toScaledInteger } from '../../documents/decimal.js';
import type { StoreDocumentInput, ValidatedStoreRequest } from '../../documents/store-request.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import { isQrPaymentId } from '../../qr-payments/qr-payment-id.js';
import { formatCents } from '../../receipt/format-cents.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/** More QR payments on one receipt than this is a mistake, not a sale. */
const MAX_QR_PAYMENTS = 10;

/**
 * The one hook of the document store path (ADR 0907), run inside the WriteLock before anything is
 * numbered or written: every `qrPayments` entry must name a PAID intent of exactly that amount
 * that no document has used (the CHDÚ index answers that, so a lost intent store cannot let an id
 * pay twice), the ids must differ, and the QR tender in `payments` must be their sum. The checked
 * list goes into the document record; the SFS message does not change.
 */
export class QrTenderCheck {
  readonly #book: QrPaymentBook;

  constructor(private readonly deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  /**
   * @throws FiscalError 701 (shape, amount, tender sum, document type, a QR tender without
   *   `qrPayments` while NOP is on), 803 unknown id, 804 not PAID, 805 used by another document.
   */
  check(input: StoreDocumentInput, request: ValidatedStoreRequest): ValidatedStoreRequest {
    const list = input.qrPayments;
    if (list === undefined || list === null || list.length === 0) {
      this.#refuseUnconfirmedQrTender(request);
      return request;
    }
    if (request.type !== 'PD' && request.type !== 'UF') {
      throw invalidInput('qrPayments', 'QR payments pay a PD or a UF only');
    }
    if (list.length > MAX_QR_PAYMENTS)
      throw invalidInput('qrPayments', `at most ${MAX_QR_PAYMENTS} QR payments`);
    const checked: Array<{ id: string; amountCents: number }> = [];
    list.forEach((entry, i) => {
      const field = `qrPayments[${i}]`;
      if (!isQrPaymentId(entry.id))
        throw invalidInput(`${field}.id`, 'must be a QR payment id (QR- and 32 hex digits)');
      if (checked.some((c) => c.id === entry.id)) throw invalidInput(`${field}.id`, 'is listed twice');
      const scaled = toScaledInteger(entry.amount, 2);
      if (scaled === undefined || scaled < 1n)
        throw invalidInput(`${field}.amount`, 'must be positive with at most 2 decimals');
      const amountCents = Number(scaled);
      const used = this.#book.usedBy(entry.id);
      if (used) {
        throw new FiscalError(
          'QR_PAYMENT_USED',
          `${field}.id: QR payment ${entry.id} already paid document ${used.document.documentNumber}; one payment pays one receipt.`,
          {
            field: `${field}.id`,
            internalDocumentId: used.document.documentNo,
            documentNumber: used.document.documentNumber,
          },
        );
      }
      const intent = this.#book.load(entry.id);
      if (!intent) {
        throw new FiscalError(
          'QR_PAYMENT_NOT_FOUND',
          `${field}.id: no QR payment ${entry.id} is known to this register.`,
          {
            field: `${field}.id`,
          },
        );
      }
      if (intent.state !== 'PAID') {
        throw new FiscalError(
          'QR_PAYMENT_NOT_PAID',
          `${field}.id: QR payment ${entry.id} is ${intent.state}, not PAID; only a confirmed payment pays a receipt.`,
          { field: `${field}.id`, state: intent.state },
        );
      }
      if (intent.amountCents !== amountCents) {
        throw invalidInput(
          `${field}.amount`,
          `must be ${formatCents(intent.amountCents)}, the amount QR payment ${entry.id} was paid with`,
        );
      }
      checked.push({ id: entry.id, amountCents });
    });
    const tender = this.deps.settings().nopTenderName;
    const sum = checked.reduce((s, c) => s + c.amountCents, 0);
    const paid = request.payments.find((p) => p.name === tender)?.amountCents;
    if (paid !== sum) {
      throw invalidInput(
        'payments',
        `must carry "${tender}": ${formatCents(sum)}, the sum of qrPayments (the nopTenderName setting names the QR tender)`,
      );
    }
    return { ...request, qrPayments: checked };
  }

  /**
   * ADR 0907: while QR payments through NOP are on, money under the QR tender on a PD or UF must
   * name the NOP payment(s) that brought it; otherwise a receipt could claim a QR payment nobody
   * confirmed. With NOP off the tender name is free text like any other (a static or manually
   * checked QR is the merchant's own matter). A zero amount claims nothing and passes.
   * @throws FiscalError 701 naming `qrPayments`.
   */
  #refuseUnconfirmedQrTender(request: ValidatedStoreRequest): void {
    const settings = this.deps.settings();
    if (settings.nopEnvironment === 'off') return;
    if (request.type !== 'PD' && request.type !== 'UF') return;
    const tender = settings.nopTenderName;
    const claimed = request.payments.find((p) => p.name === tender && p.amountCents > 0);
    if (!claimed) return;
    throw invalidInput(
      'qrPayments',
      `is required: payments carries "${tender}": ${formatCents(claimed.amountCents)} (the nopTenderName setting names the QR tender), and while QR payments through NOP are on that money must name the PAID QR payment id(s) that brought it`,
    );
  }
}
