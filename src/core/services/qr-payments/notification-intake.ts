import { createHash } from 'node:crypto';
import type { StoredNotification } from '../../ports/payment-intent-store.js';
import type { RawNotification } from '../../ports/payment-notifier.js';
import { integrityHash } from '../../qr-payments/integrity-hash.js';
import { type PaymentNotification, readNotification } from '../../qr-payments/notification.js';
import {
  mismatchOf,
  type PaymentIntent,
  type ReceivedPayment,
  stateAfterPayment,
} from '../../qr-payments/payment-intent.js';
import { QrPaymentBook, type StoredChange } from './qr-payment-book.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';

/** What one delivery did (for logs and tests). */
export type IntakeOutcome = 'applied' | 'duplicate' | 'repeat' | 'unmatched' | 'unreadable';

/**
 * Takes every notification delivery, from the MQTT session and the REST listing alike (ADR 0905):
 * keeps it raw, de-duplicates by payment id and content (QoS 1 and the catch-up deliver the same
 * notification many times), checks the integrity hash against the intent's IBAN and the
 * *received* amount, compares the amount with the asked one, and moves the intent. Synchronous:
 * two deliveries never interleave.
 */
export class NotificationIntake {
  readonly #book: QrPaymentBook;

  constructor(private readonly deps: QrPaymentDeps) {
    this.#book = new QrPaymentBook(deps);
  }

  receive(raw: RawNotification): IntakeOutcome {
    const now = this.deps.clock.now().toISOString();
    const keep = {
      payload: raw.payload,
      via: raw.via,
      ...(raw.topic ? { topic: raw.topic } : {}),
      firstSeenAt: now,
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.payload);
    } catch {
      parsed = undefined;
    }
    const read = readNotification(parsed, raw.topic);
    if ('problem' in read) {
      const digest = createHash('sha256').update(raw.payload).digest('hex');
      if (
        this.deps.store.recordNotification({
          ...keep,
          paymentId: '',
          contentKey: digest,
          outcome: 'unreadable',
        })
      ) {
        this.deps.log('warn', `NOP delivered something that is not a payment notification: ${read.problem}`, {
          via: raw.via,
          topic: raw.topic,
        });
      }
      return 'unreadable';
    }
    const n = read.ok;
    const contentKey = `${n.amountText}|${n.currency}|${n.dataIntegrityHash}`;
    const intent = this.#book.load(n.endToEndId);
    if (!intent) {
      // §8.2 of the research: maybe another app with the same certificate made it; keep and report.
      if (
        this.deps.store.recordNotification({
          ...keep,
          paymentId: n.endToEndId,
          contentKey,
          outcome: 'unmatched',
        })
      ) {
        this.deps.log(
          'warn',
          `payment notification for ${n.endToEndId}, which this register did not create: kept for review`,
          {
            qrPaymentId: n.endToEndId,
            amount: n.amountText,
          },
        );
      }
      return 'unmatched';
    }
    // One store transaction records the notification AND moves the intent (ADR 0905): if the
    // change fails or the process dies half-way, nothing is recorded and the next delivery (QoS 1
    // redelivery, the retained message, the listing) applies it again.
    const result = this.deps.store.atomically(() => this.#take(intent, n, raw.via, { ...keep, contentKey }));
    if (result.change) this.#book.announce(result.change);
    if (result.outcome === 'repeat') {
      this.deps.log(
        'warn',
        `a second, different payment notification for ${intent.id}: review it (a second payment?)`,
        { qrPaymentId: intent.id, amount: n.amountText },
      );
    }
    if (result.outcome === 'applied' && result.change?.stored.received?.mismatch !== undefined) {
      this.deps.log(
        'warn',
        `QR payment ${intent.id}: the money does not match (${result.change.stored.received.mismatch})`,
        {
          qrPaymentId: intent.id,
          expectedCents: intent.amountCents,
          receivedCents: n.amountCents,
        },
      );
    }
    return result.outcome;
  }

  /** Inside the transaction: record the delivery and, when it is news, the intent's change. */
  #take(
    intent: PaymentIntent,
    n: PaymentNotification,
    via: RawNotification['via'],
    keep: Omit<StoredNotification, 'deliveries' | 'paymentId' | 'outcome'>,
  ): { outcome: IntakeOutcome; change?: StoredChange } {
    const first = intent.received === undefined;
    const fresh = this.deps.store.recordNotification({
      ...keep,
      paymentId: n.endToEndId,
      outcome: first ? 'applied' : 'repeat',
    });
    if (!fresh) {
      // A content seen before. Normally a duplicate; but when the intent never took a payment, the
      // earlier delivery was recorded without its change (a store written before the change and
      // the record shared one transaction): apply it now rather than lose a paid payment.
      if (!first) return { outcome: 'duplicate' };
      const earlier = this.deps.store
        .notificationsFor(n.endToEndId)
        .find((row) => row.contentKey === keep.contentKey);
      if (earlier?.outcome !== 'applied') return { outcome: 'duplicate' };
    }
    if (!first) {
      const change = this.#book.persist({
        ...intent,
        conflictingNotifications: (intent.conflictingNotifications ?? 0) + 1,
      });
      return { outcome: 'repeat', change };
    }
    const hashOk =
      integrityHash(intent.iban, n.amountCents, n.currency, n.endToEndId) === n.dataIntegrityHash;
    const check = { amountCents: n.amountCents, currency: n.currency, hashOk };
    const mismatch = mismatchOf(intent, check);
    const received: ReceivedPayment = {
      ...check,
      ...(n.bankTime === undefined ? {} : { bankTime: n.bankTime }),
      notifiedAt: keep.firstSeenAt,
      via,
      ...(mismatch === undefined ? {} : { mismatch }),
    };
    const change = this.#book.persist({
      ...intent,
      received,
      state: stateAfterPayment(intent.state, { mismatch }),
    });
    return { outcome: 'applied', change };
  }
}
