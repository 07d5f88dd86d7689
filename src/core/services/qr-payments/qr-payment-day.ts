import { invalidInput } from '../../fiscal-error.js';
import type { StoredNotification } from '../../ports/payment-intent-store.js';
import { QR_PAYMENT_STATES, type QrPaymentState } from '../../qr-payments/payment-intent.js';
import { fromLocal, localParts } from '../../time.js';
import { QrPaymentBook } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';
import type { QrPaymentView } from './qr-payment-view.js';

/** Cents per group, for the day's close (capability 12 prints them in the daily summary). */
export interface QrTenderTotals {
  /** Money that settled receipts: USED intents. */
  usedCents: number;
  /** Paid and not (yet) on a receipt: PAID intents. */
  paidNotUsedCents: number;
  /** Money to refund or review: LATE_PAID and MISMATCH intents (received amounts). */
  lateCents: number;
  mismatchCents: number;
  /** Intents per state. */
  count: Record<QrPaymentState, number>;
}

export interface QrPaymentDayResult {
  resultCode: 0;
  /** `YYYY-MM-DD`, Europe/Bratislava. */
  date: string;
  qrPayments: QrPaymentView[];
  totals: QrTenderTotals;
  /** LATE_PAID and MISMATCH intents, and conflicting ones: what the shop must look at. */
  toReview: QrPaymentView[];
  /** Notifications for ids this register did not create, second payments, unreadable deliveries. */
  notificationsToReview: Array<Omit<StoredNotification, 'contentKey'>>;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `GET /api/qrpayment?date=YYYY-MM-DD&state=…`: the QR payments created on a Bratislava day (today
 * by default) with their totals and what needs review — the data side of the admin page's "today's
 * QR payments" and of the daily summary's QR tender (capability 12).
 */
export class QrPaymentDay {
  readonly #book: QrPaymentBook;

  constructor(private readonly deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  execute(query: { date?: string | undefined; state?: string | undefined } = {}): QrPaymentDayResult {
    const { date, from, to } = dayBounds(query.date, this.deps.clock.now());
    const state = query.state;
    if (state !== undefined && !(QR_PAYMENT_STATES as readonly string[]).includes(state)) {
      throw invalidInput('state', `must be one of ${QR_PAYMENT_STATES.join(', ')}`);
    }
    const all = this.deps.store
      .createdBetween(from, to)
      .map((stored) => this.#book.view(this.#book.load(stored.id) ?? stored));
    const count = Object.fromEntries(QR_PAYMENT_STATES.map((s) => [s, 0])) as Record<QrPaymentState, number>;
    const totals: QrTenderTotals = {
      usedCents: 0,
      paidNotUsedCents: 0,
      lateCents: 0,
      mismatchCents: 0,
      count,
    };
    for (const v of all) {
      count[v.state]++;
      const asked = Math.round(v.amount * 100);
      const received = v.received === undefined ? 0 : Math.round(v.received.amount * 100);
      if (v.state === 'USED') totals.usedCents += asked;
      if (v.state === 'PAID') totals.paidNotUsedCents += asked;
      if (v.state === 'LATE_PAID') totals.lateCents += received;
      if (v.state === 'MISMATCH') totals.mismatchCents += received;
    }
    return {
      resultCode: 0,
      date,
      qrPayments: state === undefined ? all : all.filter((v) => v.state === state),
      totals,
      toReview: all.filter(
        (v) => v.state === 'LATE_PAID' || v.state === 'MISMATCH' || (v.conflictingNotifications ?? 0) > 0,
      ),
      notificationsToReview: this.deps.store
        .notificationsToReview(from, to)
        .map(({ contentKey: _omit, ...rest }) => rest),
    };
  }
}

/** The Bratislava day `date` (or today) as `[from, to)` ISO-8601 UTC instants. */
function dayBounds(date: string | undefined, now: Date): { date: string; from: string; to: string } {
  let y: number;
  let m: number;
  let d: number;
  if (date === undefined) {
    const p = localParts(now);
    [y, m, d] = [p.year, p.month, p.day];
  } else {
    const match = DATE.exec(date);
    if (!match) throw invalidInput('date', 'must be YYYY-MM-DD');
    [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  const from = fromLocal(y, m, d, 0, 0, 0);
  const to = fromLocal(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, 0, 0);
  if (!from || !to || new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d)
    throw invalidInput('date', 'is not a calendar day');
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${y}-${pad(m)}-${pad(d)}`, from: from.toISOString(), to: to.toISOString() };
}
