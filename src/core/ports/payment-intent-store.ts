import type { PaymentIntent } from '../qr-payments/payment-intent.js';

/** One notification kept raw (ADR 0905): every distinct content once, with how often it came. */
export interface StoredNotification {
  paymentId: string;
  /** `amount|currency|hash` as sent: what tells a QoS duplicate from another payment. */
  contentKey: string;
  payload: string;
  via: 'mqtt' | 'rest';
  topic?: string;
  /** First arrival, ISO-8601 UTC. */
  firstSeenAt: string;
  /** Arrivals of the same content (1 = no duplicate yet). */
  deliveries: number;
  /**
   * `applied` (changed an intent), `repeat` (the intent had already taken a payment: review),
   * `unmatched` (no intent of this register has the id), `unreadable` (not a notification).
   */
  outcome: 'applied' | 'repeat' | 'unmatched' | 'unreadable';
}

/**
 * Where QR payment intents and their raw notifications live (ADR 0900: a small SQLite file in the
 * data dir, not the CHDÚ — they are not fiscal documents). Durable on return. Whether an id is
 * used by a receipt is NOT kept here: the CHDÚ (through the index) is the truth for that.
 */
export interface PaymentIntentStore {
  /** Adds a new intent. @throws FiscalError -1 when the id or the idempotency key exists. */
  insert(intent: PaymentIntent): void;
  /** Replaces a stored intent (same id). */
  update(intent: PaymentIntent): void;
  get(id: string): PaymentIntent | undefined;
  byIdempotencyKey(key: string): PaymentIntent | undefined;
  /** Intents in a state, oldest first. */
  inState(state: PaymentIntent['state']): PaymentIntent[];
  /** Intents created in `[from, to)` (ISO-8601 UTC bounds), oldest first. */
  createdBetween(from: string, to: string): PaymentIntent[];
  /**
   * Keeps a notification: a new content is inserted (deliveries 1) and `true` returned; a content
   * seen before only counts another delivery and returns `false` (a QoS duplicate).
   */
  recordNotification(n: Omit<StoredNotification, 'deliveries'>): boolean;
  /**
   * Runs `work` (synchronous) as one transaction: every write it makes lands together or none
   * does (ADR 0905: a notification is recorded as applied only together with the intent it moved).
   * Nested calls join the outer transaction. Whatever `work` throws is rethrown after the rollback.
   */
  atomically<T>(work: () => T): T;
  notificationsFor(paymentId: string): StoredNotification[];
  /** Notifications whose outcome is `unmatched` or `repeat`, first seen in `[from, to)`. */
  notificationsToReview(from: string, to: string): StoredNotification[];
  close(): void;
}
