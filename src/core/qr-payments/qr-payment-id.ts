/**
 * The NOP payment id: `QR-` and 32 lower-case hex digits (a UUID v4 without dashes), 35
 * characters, exactly the ISO 20022 EndToEndId maximum. It is the Payme `PI`, the instant
 * payment's EndToEndId and the key of every notification (ADR 0900).
 */
export const QR_PAYMENT_ID = /^QR-[0-9a-f]{32}$/;

export function isQrPaymentId(text: string): boolean {
  return QR_PAYMENT_ID.test(text);
}
