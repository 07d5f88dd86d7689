import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { FiscalError } from '../../core/fiscal-error.js';
import type { PaymentIntentStore, StoredNotification } from '../../core/ports/payment-intent-store.js';
import type { PaymentIntent } from '../../core/qr-payments/payment-intent.js';
import { boundPageCache, PAGE_CACHE_KIB } from '../sqlite-page-cache.js';

const SCHEMA_VERSION = 1;

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS intents (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  idempotency_key TEXT UNIQUE,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS intents_state ON intents (state, created_at);
CREATE INDEX IF NOT EXISTS intents_created ON intents (created_at);
CREATE TABLE IF NOT EXISTS notifications (
  payment_id TEXT NOT NULL,
  content_key TEXT NOT NULL,
  payload TEXT NOT NULL,
  via TEXT NOT NULL,
  topic TEXT,
  first_seen_at TEXT NOT NULL,
  deliveries INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  PRIMARY KEY (payment_id, content_key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS notifications_seen ON notifications (first_seen_at);
`;

interface NotificationRow {
  payment_id: string;
  content_key: string;
  payload: string;
  via: 'mqtt' | 'rest';
  topic: string | null;
  first_seen_at: string;
  deliveries: number;
  outcome: StoredNotification['outcome'];
}

/**
 * {@link PaymentIntentStore} in `<data-dir>/qr-payments.sqlite` (better-sqlite3, WAL,
 * synchronous=FULL: a state change is on disk when the call returns). Not derived from the CHDÚ
 * and not rebuildable: losing it loses the review history of QR payments, never the rule that an
 * id pays one receipt only, which the CHDÚ keeps (ADR 0900).
 */
export class SqlitePaymentIntentStore implements PaymentIntentStore {
  readonly #db: Database.Database;
  readonly #q;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    boundPageCache(this.#db, PAGE_CACHE_KIB.paymentIntents);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.exec(DDL);
    const version = this.#db.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get() as
      | string
      | undefined;
    if (version === undefined) {
      this.#db.prepare("INSERT INTO meta (key, value) VALUES ('schema', ?)").run(String(SCHEMA_VERSION));
    } else if (version !== String(SCHEMA_VERSION)) {
      this.#db.close();
      throw new FiscalError(
        'UNKNOWN',
        `${path} has QR payment schema ${version}; this kasa reads ${SCHEMA_VERSION}.`,
      );
    }
    const db = this.#db;
    this.#q = {
      insert: db.prepare(
        'INSERT INTO intents (id, state, idempotency_key, created_at, body) VALUES (?, ?, ?, ?, ?)',
      ),
      update: db.prepare('UPDATE intents SET state = ?, body = ? WHERE id = ?'),
      get: db.prepare('SELECT body FROM intents WHERE id = ?').pluck(),
      byKey: db.prepare('SELECT body FROM intents WHERE idempotency_key = ?').pluck(),
      inState: db.prepare('SELECT body FROM intents WHERE state = ? ORDER BY created_at, id').pluck(),
      between: db
        .prepare('SELECT body FROM intents WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id')
        .pluck(),
      insertNotification: db.prepare(
        `INSERT INTO notifications (payment_id, content_key, payload, via, topic, first_seen_at, deliveries, outcome)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (payment_id, content_key) DO NOTHING`,
      ),
      countDelivery: db.prepare(
        'UPDATE notifications SET deliveries = deliveries + 1 WHERE payment_id = ? AND content_key = ?',
      ),
      notificationsFor: db.prepare('SELECT * FROM notifications WHERE payment_id = ? ORDER BY first_seen_at'),
      toReview: db.prepare(
        `SELECT * FROM notifications WHERE outcome IN ('unmatched', 'repeat', 'unreadable')
         AND first_seen_at >= ? AND first_seen_at < ? ORDER BY first_seen_at`,
      ),
    };
  }

  insert(intent: PaymentIntent): void {
    try {
      this.#q.insert.run(
        intent.id,
        intent.state,
        intent.idempotency?.key ?? null,
        intent.createdAt,
        JSON.stringify(intent),
      );
    } catch (e) {
      throw new FiscalError(
        'UNKNOWN',
        `QR payment ${intent.id} cannot be stored: ${(e as Error).message}`,
        undefined,
        {
          cause: e,
        },
      );
    }
  }

  update(intent: PaymentIntent): void {
    const changed = this.#q.update.run(intent.state, JSON.stringify(intent), intent.id).changes;
    if (changed !== 1) throw new FiscalError('UNKNOWN', `QR payment ${intent.id} is not stored.`);
  }

  get(id: string): PaymentIntent | undefined {
    return parse(this.#q.get.get(id));
  }

  byIdempotencyKey(key: string): PaymentIntent | undefined {
    return parse(this.#q.byKey.get(key));
  }

  inState(state: PaymentIntent['state']): PaymentIntent[] {
    return (this.#q.inState.all(state) as string[]).map((b) => JSON.parse(b) as PaymentIntent);
  }

  createdBetween(from: string, to: string): PaymentIntent[] {
    return (this.#q.between.all(from, to) as string[]).map((b) => JSON.parse(b) as PaymentIntent);
  }

  recordNotification(n: Omit<StoredNotification, 'deliveries'>): boolean {
    return this.#db.transaction(() => {
      const inserted = this.#q.insertNotification.run(
        n.paymentId,
        n.contentKey,
        n.payload,
        n.via,
        n.topic ?? null,
        n.firstSeenAt,
        n.outcome,
      ).changes;
      if (inserted === 1) return true;
      this.#q.countDelivery.run(n.paymentId, n.contentKey);
      return false;
    })();
  }

  atomically<T>(work: () => T): T {
    // better-sqlite3: a transaction function called inside another becomes a savepoint.
    return this.#db.transaction(work)();
  }

  notificationsFor(paymentId: string): StoredNotification[] {
    return (this.#q.notificationsFor.all(paymentId) as NotificationRow[]).map(toNotification);
  }

  notificationsToReview(from: string, to: string): StoredNotification[] {
    return (this.#q.toReview.all(from, to) as NotificationRow[]).map(toNotification);
  }

  /** The page cache SQLite may keep for this store, in KiB (ADR 1112). */
  pageCacheKib(): number {
    return -Number(this.#db.pragma('cache_size', { simple: true }));
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

function parse(body: unknown): PaymentIntent | undefined {
  return typeof body === 'string' ? (JSON.parse(body) as PaymentIntent) : undefined;
}

function toNotification(row: NotificationRow): StoredNotification {
  return {
    paymentId: row.payment_id,
    contentKey: row.content_key,
    payload: row.payload,
    via: row.via,
    ...(row.topic === null ? {} : { topic: row.topic }),
    firstSeenAt: row.first_seen_at,
    deliveries: row.deliveries,
    outcome: row.outcome,
  };
}
