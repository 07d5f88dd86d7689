import { randomUUID } from 'node:crypto';

/** A register as NOP knows it: from its certificate. */
export interface SimRegister {
  dic: string;
  code: string;
}

/** The notification body NOP forwards (SBA Push Payment Notification fields, research §2.6). */
export interface SimNotificationBody {
  transactionStatus: string;
  transactionAmount: { amount: string; currency: string };
  endToEndId: string;
  dataIntegrityHash: string;
  [extra: string]: unknown;
}

export interface SimTransaction {
  id: string;
  owner: SimRegister;
  createdAt: string;
  comment?: string;
  receivedAt?: string;
  publishedAt?: string;
  payment?: { amount: string; currency: string; iban?: string };
}

export interface SimNotification {
  /** Sequence, for paging (`after_id`). */
  seq: number;
  owner: SimRegister;
  body: SimNotificationBody;
  /** When NOP registered it (ms); the listing and the retained message live 2 hours from it. */
  createdAtMs: number;
}

/** What NOP holds: issued ids, their history, and notifications for 2 hours (research §2.3, §2.8). */
export class NopLedger {
  readonly #transactions = new Map<string, SimTransaction>();
  #notifications: SimNotification[] = [];
  #seq = 0;

  constructor(private readonly retentionMs: number) {}

  issue(owner: SimRegister, now: Date, comment?: string): SimTransaction {
    let id: string;
    do id = `QR-${randomUUID().replace(/-/g, '')}`;
    while (this.#transactions.has(id));
    const tx: SimTransaction = { id, owner, createdAt: now.toISOString(), ...(comment ? { comment } : {}) };
    this.#transactions.set(id, tx);
    return tx;
  }

  transaction(id: string): SimTransaction | undefined {
    return this.#transactions.get(id);
  }

  record(owner: SimRegister, body: SimNotificationBody, now: Date): SimNotification {
    const n: SimNotification = { seq: ++this.#seq, owner, body, createdAtMs: now.getTime() };
    this.#notifications.push(n);
    return n;
  }

  /** The register's notifications created at or after `since`, still retained, after `afterSeq`. */
  list(owner: SimRegister, since: Date, now: Date, afterSeq = 0): SimNotification[] {
    this.expire(now);
    return this.#notifications.filter(
      (n) =>
        n.owner.dic === owner.dic &&
        n.owner.code === owner.code &&
        n.createdAtMs >= since.getTime() &&
        n.seq > afterSeq,
    );
  }

  /** Drops notifications older than the retention; returns them (their retained messages go too). */
  expire(now: Date): SimNotification[] {
    const limit = now.getTime() - this.retentionMs;
    const gone = this.#notifications.filter((n) => n.createdAtMs < limit);
    if (gone.length > 0) this.#notifications = this.#notifications.filter((n) => n.createdAtMs >= limit);
    return gone;
  }

  clear(): void {
    this.#transactions.clear();
    this.#notifications = [];
  }
}
