import { FiscalError } from '../../fiscal-error.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import type { PaymentIntent } from '../../qr-payments/payment-intent.js';
import { isQrPaymentId } from '../../qr-payments/qr-payment-id.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';
import { type QrPaymentView, qrPaymentView } from './qr-payment-view.js';

/** A stored intent and, when its state moved, the state before. */
export interface StoredChange {
  stored: PaymentIntent;
  from?: PaymentIntent['state'];
}

/**
 * How long past its `expiresAt` a PENDING intent may stay PENDING before any read expires it by
 * itself. Normally the upkeep expires it within a few seconds, after a last look at NOP's listing
 * (ADR 0905); this only bounds the wait if the background work is stuck or not running.
 */
export const EXPIRY_GRACE_MS = 30_000;

/**
 * Reading and changing stored intents, shared by the QR payment use cases: a PENDING intent past
 * its `expiresAt` is expired by the upkeep after one last look at the listing (ADR 0905), or by
 * whoever reads it first once {@link EXPIRY_GRACE_MS} more has passed; every change is stored
 * before it is announced, and USED always comes from the CHDÚ index, never from this store
 * (ADR 0907).
 */
export class QrPaymentBook {
  constructor(private readonly deps: QrPaymentDeps) {}

  /** The intent now (the grace expiry applied), or undefined. */
  load(id: string): PaymentIntent | undefined {
    const intent = this.deps.store.get(id);
    if (!intent) return undefined;
    if (
      intent.state === 'PENDING' &&
      this.deps.clock.now().getTime() >= Date.parse(intent.expiresAt) + EXPIRY_GRACE_MS
    ) {
      return this.save({ ...intent, state: 'EXPIRED' });
    }
    return intent;
  }

  /** True when the intent still waits for money and its deadline has not passed. */
  isOpen(intent: PaymentIntent): boolean {
    return intent.state === 'PENDING' && this.deps.clock.now().getTime() < Date.parse(intent.expiresAt);
  }

  /**
   * The intent or 803 naming the id (also for a malformed id: nothing else could have it).
   * @throws FiscalError 803 QR_PAYMENT_NOT_FOUND.
   */
  require(id: string): PaymentIntent {
    const intent = isQrPaymentId(id) ? this.load(id) : undefined;
    if (!intent) {
      throw new FiscalError('QR_PAYMENT_NOT_FOUND', `No QR payment ${id} is known to this register.`, {
        field: 'qrPaymentId',
      });
    }
    return intent;
  }

  /** Stores a change (with `updatedAt` when the state moved) and tells the waiting requests. */
  save(next: PaymentIntent): PaymentIntent {
    const change = this.persist(next);
    this.announce(change);
    return change.stored;
  }

  /**
   * Only stores a change (for a caller inside a store transaction, which announces it with
   * {@link announce} once the transaction is committed, so nobody hears of a rolled-back state).
   */
  persist(next: PaymentIntent): StoredChange {
    const before = this.deps.store.get(next.id);
    const changed = before?.state !== next.state;
    const stored = changed ? { ...next, updatedAt: this.deps.clock.now().toISOString() } : next;
    this.deps.store.update(stored);
    return { stored, ...(changed ? { from: before?.state ?? 'PENDING' } : {}) };
  }

  /** Logs a stored state change and tells the waiting requests. */
  announce(change: StoredChange): void {
    const { stored, from } = change;
    if (from !== undefined) {
      this.deps.log('info', `QR payment ${stored.id} is ${stored.state}`, {
        qrPaymentId: stored.id,
        from,
        to: stored.state,
      });
    }
    this.deps.watch.publish(this.view(stored));
  }

  /** The document that used the id, from the CHDÚ index. */
  usedBy(id: string): IndexedDocument | undefined {
    return this.deps.index.findDocument({ by: 'qrPaymentId', id });
  }

  view(intent: PaymentIntent): QrPaymentView {
    return qrPaymentView(intent, this.usedBy(intent.id));
  }
}
