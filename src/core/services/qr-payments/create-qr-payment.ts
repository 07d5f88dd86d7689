import { createHash } from 'node:crypto';
import { toScaledInteger } from '../../documents/decimal.js';
import { canonicalJson } from '../../documents/idempotency.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import { paymeLink } from '../../qr-payments/payme-link.js';
import { foldPaymeText } from '../../qr-payments/payme-text.js';
import type { PaymentIntent } from '../../qr-payments/payment-intent.js';
import type { QrPaymentSettings } from '../../qr-payments/qr-payment-settings.js';
import { nopCredentials } from './nop-credentials.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';
import type { QrPaymentView } from './qr-payment-view.js';

/** The body of `POST /api/qrpayment/create` as the HTTP schema delivers it. */
export interface CreateQrPaymentInput {
  amount: number;
  externalId?: string | null | undefined;
  /** Payme `MSG` for this payment (default: the `nopMessage` setting). */
  message?: string | null | undefined;
  /** Seconds to wait for the money (default: the `nopExpirySeconds` setting). */
  expiresIn?: number | null | undefined;
}

export interface QrPaymentResult {
  resultCode: 0;
  qrPayment: QrPaymentView;
}

/** Payme `AM` has at most 9 characters: 999999.99 EUR. */
const MAX_AMOUNT_CENTS = 99_999_999;

/**
 * `POST /api/qrpayment/create` (ADR 0900): asks NOP for a payment id and keeps the intent. With an
 * `Idempotency-Key`, a retry (also concurrent, also after a restart) answers the same intent and
 * never asks NOP again; the same key with another body is 701 (ADR 0008 §7). When NOP cannot be
 * reached the answer is 801 and no id is invented: the POS offers another tender.
 */
export class CreateQrPayment {
  readonly #book: QrPaymentBook;
  readonly #inFlight = new Map<string, { fingerprint: string; result: Promise<QrPaymentResult> }>();

  constructor(private readonly deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  async execute(
    input: CreateQrPaymentInput,
    rawBody: unknown,
    idempotencyKey?: string,
  ): Promise<QrPaymentResult> {
    if (idempotencyKey === undefined) return this.#create(input, undefined);
    const fingerprint = createHash('sha256')
      .update(`qrpayment/create\n${canonicalJson(rawBody)}`)
      .digest('hex');
    const stored = this.deps.store.byIdempotencyKey(idempotencyKey);
    if (stored) {
      if (stored.idempotency?.requestSha256 !== fingerprint) throw keyReused();
      return { resultCode: 0, qrPayment: this.#book.view(this.#book.load(stored.id) ?? stored) };
    }
    const running = this.#inFlight.get(idempotencyKey);
    if (running) {
      if (running.fingerprint !== fingerprint) throw keyReused();
      return running.result;
    }
    const result = this.#create(input, { key: idempotencyKey, requestSha256: fingerprint });
    this.#inFlight.set(idempotencyKey, { fingerprint, result });
    try {
      return await result;
    } finally {
      this.#inFlight.delete(idempotencyKey);
    }
  }

  async #create(
    input: CreateQrPaymentInput,
    idempotency: PaymentIntent['idempotency'],
  ): Promise<QrPaymentResult> {
    const settings = this.deps.settings();
    const request = validate(input, settings);
    const nop = this.deps.nop();
    if (settings.nopEnvironment === 'off' || nop === undefined) {
      throw new FiscalError(
        'QR_PAYMENTS_OFF',
        'QR payments are off: set the nopEnvironment setting (or --nop-env) to int or prod (docs/qr-payments.md).',
        { field: 'nopEnvironment' },
      );
    }
    if (settings.nopIban === undefined) {
      throw new FiscalError(
        'QR_PAYMENTS_OFF',
        "QR payments are not set up: store the merchant's notification account in the nopIban setting.",
        { field: 'nopIban' },
      );
    }
    const credentials = nopCredentials(this.deps.merchant);
    const merchant = this.deps.merchant.currentSigner().merchant;
    const creditorName = settings.nopCreditorName ?? foldPaymeText(merchant.corporateFullName).slice(0, 70);
    if (creditorName === '') {
      throw new FiscalError(
        'QR_PAYMENTS_OFF',
        'QR payments need a creditor name: set the nopCreditorName setting.',
        {
          field: 'nopCreditorName',
        },
      );
    }
    // Nothing is stored before NOP answers: an id that never reached kasa was never shown (ADR 0900).
    const issued = await nop.notifier.newPaymentId(credentials);
    const now = this.deps.clock.now();
    const message = request.message ?? settings.nopMessage;
    const intent: PaymentIntent = {
      id: issued.id,
      state: 'PENDING',
      amountCents: request.amountCents,
      iban: settings.nopIban,
      creditorName,
      ...(message === undefined ? {} : { message }),
      paymeLink: paymeLink({
        type: settings.nopPaymeType,
        iban: settings.nopIban,
        amountCents: request.amountCents,
        paymentId: issued.id,
        creditorName,
        message,
      }),
      environment: nop.environment,
      dic: credentials.dic,
      cashRegisterCode: credentials.cashRegisterCode,
      ...(request.externalId === undefined ? {} : { externalId: request.externalId }),
      ...(idempotency === undefined ? {} : { idempotency }),
      nopCreatedAt: issued.createdAt,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + request.expiresInSeconds * 1000).toISOString(),
      updatedAt: now.toISOString(),
    };
    this.deps.store.insert(intent);
    this.deps.log('info', `QR payment ${intent.id} created`, {
      qrPaymentId: intent.id,
      amountCents: intent.amountCents,
    });
    return { resultCode: 0, qrPayment: this.#book.view(intent) };
  }
}

/** ADR 0008 §7's text word for word (invalidInput would put the field's name before it). */
function keyReused(): FiscalError {
  return new FiscalError('INVALID_INPUT', 'Idempotency-Key already used for a different request', {
    field: 'Idempotency-Key',
  });
}

interface ValidCreate {
  amountCents: number;
  externalId?: string;
  message?: string;
  expiresInSeconds: number;
}

function validate(input: CreateQrPaymentInput, settings: QrPaymentSettings): ValidCreate {
  const scaled = toScaledInteger(input.amount, 2);
  if (scaled === undefined || scaled < 1n || scaled > BigInt(MAX_AMOUNT_CENTS)) {
    throw invalidInput('amount', 'must be 0.01 to 999999.99 with at most 2 decimals');
  }
  const out: ValidCreate = {
    amountCents: Number(scaled),
    expiresInSeconds: settings.nopExpirySeconds,
  };
  if (input.externalId !== undefined && input.externalId !== null && input.externalId !== '') {
    if ([...input.externalId].length > 50) throw invalidInput('externalId', 'must be at most 50 characters');
    out.externalId = input.externalId;
  }
  if (input.message !== undefined && input.message !== null && input.message !== '') {
    const folded = foldPaymeText(input.message);
    if (folded.length > 140)
      throw invalidInput('message', 'must be at most 140 characters (after folding to ASCII)');
    if (folded !== '') out.message = folded;
  }
  if (input.expiresIn !== undefined && input.expiresIn !== null) {
    if (!Number.isInteger(input.expiresIn) || input.expiresIn < 30 || input.expiresIn > 1800) {
      throw invalidInput('expiresIn', 'must be a whole number of seconds from 30 to 1800');
    }
    out.expiresInSeconds = input.expiresIn;
  }
  return out;
}
