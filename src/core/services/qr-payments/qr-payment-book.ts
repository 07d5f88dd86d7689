import { FiscalError } from '../../fiscal-error.js';
import type { IndexedDocument } from '../../ports/journal-index.js';
import type { PaymentIntent } from '../../qr-payments/payment-intent.js';
import { isQrPaymentId } from '../../qr-payments/qr-payment-id.js';
import type { QrPaymentDeps } from './qr-payment-deps.js';
import { type QrPaymentView, qrPaymentView } from './qr-payment-view.js';

/**
 * Reading and changing stored intents, shared by the QR payment use cases: an intent past its
 * `expiresAt` that is still PENDING is EXPIRED from that instant whoever looks first (the sweep
 * or a request), every change is stored before it is announced, and USED always comes from the
 * CHDÚ index, never from this store (ADR 0907).
 */
export class QrPaymentBook {
  constructor(private readonly deps: QrPaymentDeps) {}

  /** The intent now (expiry applied), or undefined. */
  load(id: string): PaymentIntent | undefined {
    const intent = this.deps.store.get(id);
    if (!intent) return undefined;
    if (intent.state === 'PENDING' && this.deps.clock.now().getTime() >= Date.parse(intent.expiresAt)) {
      return this.save({ ...intent, state: 'EXPIRED' });
    }
    return intent;
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
    const before = this.deps.store.get(next.id);
    const changed = before?.state !== next.state;
    const stored = changed ? { ...next, updatedAt: this.deps.clock.now().toISOString() } : next;
    this.deps.store.update(stored);
    if (changed) {
      this.deps.log('info', `QR payment ${stored.id} is ${stored.state}`, {
        qrPaymentId: stored.id,
        from: before?.state,
        to: stored.state,
      });
    }
    this.deps.watch.publish(this.view(stored));
    return stored;
  }

  /** The document that used the id, from the CHDÚ index. */
  usedBy(id: string): IndexedDocument | undefined {
    return this.deps.index.findDocument({ by: 'qrPaymentId', id });
  }

  view(intent: PaymentIntent): QrPaymentView {
    return qrPaymentView(intent, this.usedBy(intent.id));
  }
}
