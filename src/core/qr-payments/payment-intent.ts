/**
 * A QR payment as kasa keeps it (ADR 0900): one NOP payment id, the amount the customer is asked
 * to pay and what happened to it. States (docs/qr-payments.md):
 *
 * - `PENDING`: the QR is shown; no money yet.
 * - `PAID`: a notification arrived whose integrity hash checks against the intent's IBAN and
 *   whose amount is exactly the asked one. Only a PAID id pays a receipt.
 * - `MISMATCH`: money arrived but the hash does not check or the amount differs (under- or
 *   over-payment): never settles a receipt by itself; needs review (refund or manual handling).
 * - `CANCELLED`: the POS gave up (refused once PAID). `EXPIRED`: nobody paid within the wait.
 * - `LATE_PAID`: money arrived after CANCELLED or EXPIRED: a refund is due (or a manual decision).
 * - `USED`: a receipt took the id. Derived from the CHDÚ (the index), never only from this store.
 */
export type QrPaymentState = 'PENDING' | 'PAID' | 'MISMATCH' | 'CANCELLED' | 'EXPIRED' | 'LATE_PAID' | 'USED';

export const QR_PAYMENT_STATES: readonly QrPaymentState[] = [
  'PENDING',
  'PAID',
  'MISMATCH',
  'CANCELLED',
  'EXPIRED',
  'LATE_PAID',
  'USED',
];

/** Why money that arrived does not settle the intent. */
export type MismatchReason = 'hash' | 'underpaid' | 'overpaid' | 'currency';

/** What the first notification for the id said, as checked. */
export interface ReceivedPayment {
  amountCents: number;
  currency: string;
  /** True when the hash matched the intent's IBAN, the received amount, the currency and the id. */
  hashOk: boolean;
  /** Bank's time of the notification (`receivedAt` of MQTT deliveries, `happened_at` of REST rows), as sent. */
  bankTime?: string;
  /** When kasa learned of it (ISO-8601 UTC). */
  notifiedAt: string;
  via: 'mqtt' | 'rest';
  /** Set when the payment does not settle the intent. */
  mismatch?: MismatchReason;
}

/** The stored intent. `state` never holds `USED`: that comes from the CHDÚ (see QrPaymentView). */
export interface PaymentIntent {
  /** NOP's payment id (`QR-…`). */
  id: string;
  state: Exclude<QrPaymentState, 'USED'>;
  amountCents: number;
  /** The account the QR names, as at creation (the hash is checked against it). */
  iban: string;
  creditorName: string;
  message?: string;
  paymeLink: string;
  /** NOP environment the id comes from (`int`, `prod`) or `sim` for a simulator. */
  environment: string;
  dic: string;
  cashRegisterCode: string;
  externalId?: string;
  idempotency?: { key: string; requestSha256: string };
  /** When NOP issued the id (its `created_at`, as sent). */
  nopCreatedAt: string;
  /** kasa's clock at creation, ISO-8601 UTC. */
  createdAt: string;
  /** PENDING turns EXPIRED at this instant (ISO-8601 UTC). */
  expiresAt: string;
  /** Last state change, ISO-8601 UTC. */
  updatedAt: string;
  received?: ReceivedPayment;
  /** Later notifications for the same id that said something else (a second payment?): review. */
  conflictingNotifications?: number;
}

/** States that no longer wait for money. */
export function isFinalForWaiting(state: QrPaymentState): boolean {
  return state !== 'PENDING';
}

/**
 * The state an intent moves to when the first notification for its id arrives, checked
 * (ADR 0905): a correct payment settles PENDING (PAID) and turns CANCELLED/EXPIRED into LATE_PAID;
 * a payment that does not match makes a PENDING intent MISMATCH and a cancelled/expired one
 * LATE_PAID (money is there either way: a refund is due). PAID and MISMATCH stay as they are.
 */
export function stateAfterPayment(
  current: PaymentIntent['state'],
  payment: { mismatch?: MismatchReason | undefined },
): PaymentIntent['state'] {
  switch (current) {
    case 'PENDING':
      return payment.mismatch === undefined ? 'PAID' : 'MISMATCH';
    case 'CANCELLED':
    case 'EXPIRED':
      return 'LATE_PAID';
    default:
      return current;
  }
}

/** The mismatch of a received payment against the intent, or undefined when it settles it. */
export function mismatchOf(
  intent: Pick<PaymentIntent, 'amountCents'>,
  received: { amountCents: number; currency: string; hashOk: boolean },
): MismatchReason | undefined {
  if (!received.hashOk) return 'hash';
  if (received.currency !== 'EUR') return 'currency';
  if (received.amountCents < intent.amountCents) return 'underpaid';
  if (received.amountCents > intent.amountCents) return 'overpaid';
  return undefined;
}
