import type { IndexedDocument } from '../../ports/journal-index.js';
import type { MismatchReason, PaymentIntent, QrPaymentState } from '../../qr-payments/payment-intent.js';

/** A QR payment as the API shows it (docs/qr-payments.md). Amounts in euros as JSON numbers. */
export interface QrPaymentView {
  qrPaymentId: string;
  state: QrPaymentState;
  amount: number;
  currency: 'EUR';
  /** The Payme link the QR carries. */
  payme: string;
  externalId?: string;
  environment: string;
  createdAt: string;
  nopCreatedAt: string;
  expiresAt: string;
  updatedAt: string;
  received?: {
    amount: number;
    currency: string;
    hashOk: boolean;
    mismatch?: MismatchReason;
    bankTime?: string;
    notifiedAt: string;
    via: 'mqtt' | 'rest';
  };
  /** Notifications for this id that said something else than the first one: review them. */
  conflictingNotifications?: number;
  /** The receipt that used the id (state USED). */
  document?: { internalDocumentId: number; documentNumber: string; uuid?: string };
  links: { qrPng: string; print: string; customerDisplay: string; events: string; cancel: string };
}

const euros = (cents: number): number => cents / 100;

/** The view of a stored intent; `usedBy` (from the CHDÚ index) makes it USED. */
export function qrPaymentView(intent: PaymentIntent, usedBy: IndexedDocument | undefined): QrPaymentView {
  const id = intent.id;
  const view: QrPaymentView = {
    qrPaymentId: id,
    state: usedBy ? 'USED' : intent.state,
    amount: euros(intent.amountCents),
    currency: 'EUR',
    payme: intent.paymeLink,
    environment: intent.environment,
    createdAt: intent.createdAt,
    nopCreatedAt: intent.nopCreatedAt,
    expiresAt: intent.expiresAt,
    updatedAt: intent.updatedAt,
    links: {
      qrPng: `/api/qrpayment/${id}/qr.png`,
      print: `/api/qrpayment/${id}/print`,
      customerDisplay: `/pay/${id}`,
      events: `/api/qrpayment/${id}/events`,
      cancel: `/api/qrpayment/${id}/cancel`,
    },
  };
  if (intent.externalId !== undefined) view.externalId = intent.externalId;
  const r = intent.received;
  if (r) {
    view.received = {
      amount: euros(r.amountCents),
      currency: r.currency,
      hashOk: r.hashOk,
      ...(r.mismatch === undefined ? {} : { mismatch: r.mismatch }),
      ...(r.bankTime === undefined ? {} : { bankTime: r.bankTime }),
      notifiedAt: r.notifiedAt,
      via: r.via,
    };
  }
  if (intent.conflictingNotifications) view.conflictingNotifications = intent.conflictingNotifications;
  if (usedBy) {
    view.document = {
      internalDocumentId: usedBy.document.documentNo,
      documentNumber: usedBy.document.documentNumber,
      ...(usedBy.accepted?.id === undefined ? {} : { uuid: usedBy.accepted.id }),
    };
  }
  return view;
}
