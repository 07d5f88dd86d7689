import { isQrPaymentId } from './qr-payment-id.js';

/**
 * A payment notification as NOP delivers it (SBA Push Payment Notification, ADR 0901):
 * `transactionStatus` `ACCC`, `transactionAmount {amount: "12.50", currency: "EUR"}`,
 * `endToEndId` (the `QR-…` id), `dataIntegrityHash` (64 hex) and optional extras (`receivedAt` on
 * MQTT, `happened_at` on REST rows, creditor and debtor accounts), which are kept raw.
 */
export interface PaymentNotification {
  endToEndId: string;
  amountCents: number;
  /** The amount exactly as sent (the hash covers this text). */
  amountText: string;
  currency: string;
  dataIntegrityHash: string;
  /** `receivedAt` or `happened_at`, as sent. */
  bankTime?: string;
}

/** EUR amount text: dot decimal, exactly two decimals, no leading zeros, up to 9 integer digits. */
const AMOUNT_TEXT = /^(0|[1-9][0-9]{0,8})\.[0-9]{2}$/;
const HASH = /^[0-9a-f]{64}$/;

/**
 * Reads a notification, or says why it cannot be one (kept raw and logged, never applied). An MQTT
 * delivery's `topic` (`VATSK-…/POKLADNICA-…/<id>`, research §2.5) must name the same id as the
 * body's `endToEndId`: a message that says two things is not trusted with either.
 */
export function readNotification(
  value: unknown,
  topic?: string,
): { ok: PaymentNotification } | { problem: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'not a JSON object' };
  const v = value as Record<string, unknown>;
  if (v.transactionStatus !== 'ACCC') return { problem: `transactionStatus is not ACCC` };
  const amount = v.transactionAmount as Record<string, unknown> | undefined;
  if (amount === null || typeof amount !== 'object') return { problem: 'transactionAmount is missing' };
  if (typeof amount.amount !== 'string' || !AMOUNT_TEXT.test(amount.amount)) {
    return { problem: 'transactionAmount.amount is not an amount with two decimals' };
  }
  if (typeof amount.currency !== 'string' || !/^[A-Z]{3}$/.test(amount.currency)) {
    return { problem: 'transactionAmount.currency is not a currency code' };
  }
  if (typeof v.endToEndId !== 'string' || !isQrPaymentId(v.endToEndId)) {
    return { problem: 'endToEndId is not a QR payment id' };
  }
  if (topic !== undefined && topic.slice(topic.lastIndexOf('/') + 1) !== v.endToEndId) {
    return { problem: `the topic ${topic} names another payment than endToEndId ${v.endToEndId}` };
  }
  if (typeof v.dataIntegrityHash !== 'string' || !HASH.test(v.dataIntegrityHash.toLowerCase())) {
    return { problem: 'dataIntegrityHash is not 64 hex digits' };
  }
  const [euros, cents] = amount.amount.split('.') as [string, string];
  const bankTime =
    typeof v.receivedAt === 'string'
      ? v.receivedAt
      : typeof v.happened_at === 'string'
        ? v.happened_at
        : undefined;
  return {
    ok: {
      endToEndId: v.endToEndId,
      amountCents: Number(euros) * 100 + Number(cents),
      amountText: amount.amount,
      currency: amount.currency,
      dataIntegrityHash: v.dataIntegrityHash.toLowerCase(),
      ...(bankTime === undefined ? {} : { bankTime }),
    },
  };
}
