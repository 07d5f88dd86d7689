import { createHash } from 'node:crypto';
import type { RawNotification } from '../../ports/payment-notifier.js';
import { integrityHash } from '../../qr-payments/integrity-hash.js';
import { readNotification } from '../../qr-payments/notification.js';
import { mismatchOf, type ReceivedPayment, stateAfterPayment } from '../../qr-payments/payment-intent.js';
import { QrPaymentBook } from './qr-payment-book.js';
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
    const read = readNotification(parsed);
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
    const first = intent.received === undefined;
    const fresh = this.deps.store.recordNotification({
      ...keep,
      paymentId: n.endToEndId,
      contentKey,
      outcome: first ? 'applied' : 'repeat',
    });
    if (!fresh) return 'duplicate';
    if (!first) {
      this.#book.save({ ...intent, conflictingNotifications: (intent.conflictingNotifications ?? 0) + 1 });
      this.deps.log(
        'warn',
        `a second, different payment notification for ${intent.id}: review it (a second payment?)`,
        {
          qrPaymentId: intent.id,
          amount: n.amountText,
        },
      );
      return 'repeat';
    }
    const hashOk =
      integrityHash(intent.iban, n.amountCents, n.currency, n.endToEndId) === n.dataIntegrityHash;
    const check = { amountCents: n.amountCents, currency: n.currency, hashOk };
    const mismatch = mismatchOf(intent, check);
    const received: ReceivedPayment = {
      ...check,
      ...(n.bankTime === undefined ? {} : { bankTime: n.bankTime }),
      notifiedAt: now,
      via: raw.via,
      ...(mismatch === undefined ? {} : { mismatch }),
    };
    if (mismatch !== undefined) {
      this.deps.log('warn', `QR payment ${intent.id}: the money does not match (${mismatch})`, {
        qrPaymentId: intent.id,
        expectedCents: intent.amountCents,
        receivedCents: n.amountCents,
      });
    }
    this.#book.save({ ...intent, received, state: stateAfterPayment(intent.state, { mismatch }) });
    return 'applied';
  }
}
