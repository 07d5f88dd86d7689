import type { NewRecord, SfsAttemptRecord, SfsExchangeRecord } from '../journal/records.js';
import type { Journal } from '../ports/journal.js';
import type { WriteLock } from '../services/write-lock.js';
import { type SendSubject, subjectKey } from './send-claims.js';

/**
 * At most this many records go into one write (one hold of the write lock): a window's outcomes
 * and the next window's starts (2 × `SEND_WINDOW`), each one or two blocks — one `writeMany`.
 */
export const RECORDS_PER_WRITE = 64;

/**
 * On a CHDÚ that writes records one device write after another (a CHDU Lite device: no
 * `writeMany`), a hold takes at most this many records, as ADR 1104 bounded it: a POS request
 * that waits for the lock waits for at most these writes, not for 64.
 */
export const RECORDS_PER_HOLD_SEPARATE_WRITES = 8;

interface PendingStart {
  body: SfsAttemptRecord;
  resolve: () => void;
  reject: (e: unknown) => void;
}

interface PendingOutcome {
  subject: SendSubject;
  body: SfsExchangeRecord;
  release: () => void;
}

/**
 * Writes one batch's attempt records for the offline sender, under the write lock only (ADR 0701:
 * never while the SFS is asked), many in one write and one hold (ADR 1105, amending ADR 1104):
 *
 * - `start()` — an attempt's `sfs-attempt` record; it resolves once the record is in the CHDÚ, and
 *   the sender sends the request only then (ADR 0705: a SendingCount is never used twice). Between
 *   `gather()` and the function it returns, starts are only collected: a window's starts are then
 *   written together, in one write and one CHDÚ flush.
 * - `outcome()` — an answered attempt's `sfs-exchange` record; nobody waits for it. It is written
 *   with the next write (the next window's starts) or by `drained()`, so a window's outcomes go
 *   together too. The item stays claimed (`release` is called once the record is written or given
 *   up) so no request sends it meanwhile.
 *
 * A hold is one multi-record append (`Journal.appendMany`, one write on the image CHDÚ; at most
 * 8 records where the CHDÚ writes them one by one): a client request that waits for the lock is
 * queued on its release before the writer asks for its next hold, so it gets the lock first and
 * the cashier waits for at most one of the sender's holds. After a write failed nothing more is
 * written: waiting starts reject (their requests never leave), waiting outcomes are released
 * unwritten (those items stay unsent and are sent again later — ADR 0706).
 */
export class AttemptRecordWriter {
  readonly #starts: PendingStart[] = [];
  readonly #outcomes: PendingOutcome[] = [];
  readonly #written = new Set<string>();
  #writing: Promise<void> | undefined;
  #failure: string | undefined;
  #gathering = 0;
  /** Set by `drained()`: outcomes are written even with no start to share the write. */
  #flushOutcomes = false;

  constructor(
    private readonly deps: {
      journal: Pick<Journal, 'append' | 'appendMany' | 'manyInOneWrite'>;
      lock: WriteLock;
      log?: (level: 'info' | 'warn', message: string, data?: Record<string, unknown>) => void;
    },
  ) {}

  /**
   * Collects the starts given from now on without writing them; the returned function ends the
   * gathering and writes them (all in one write when they fit).
   */
  gather(): () => void {
    this.#gathering += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#gathering -= 1;
      this.#kick();
    };
  }

  /** Appends the start of an attempt; resolves when it is durable, rejects when it could not be. */
  start(body: SfsAttemptRecord): Promise<void> {
    if (this.#failure !== undefined) {
      return Promise.reject(new Error(`an earlier attempt record could not be written (${this.#failure})`));
    }
    const written = new Promise<void>((resolve, reject) => {
      this.#starts.push({ body, resolve, reject });
    });
    this.#kick();
    return written;
  }

  /** Hands over the outcome record of `subject`'s attempt; `release` ends its claim afterwards. */
  outcome(subject: SendSubject, body: SfsExchangeRecord, release: () => void): void {
    if (this.#failure !== undefined) {
      release();
      return;
    }
    this.#outcomes.push({ subject, body, release });
  }

  /** Writes whatever waits; resolves when every record handed over is written or given up. */
  async drained(): Promise<string | undefined> {
    this.#flushOutcomes = true;
    try {
      this.#kick();
      while (this.#writing) await this.#writing;
    } finally {
      this.#flushOutcomes = false;
    }
    return this.#failure;
  }

  /** Whether the outcome record of `subject` is in the CHDÚ. */
  written(subject: SendSubject): boolean {
    return this.#written.has(subjectKey(subject));
  }

  #due(): boolean {
    if (this.#gathering > 0) return false;
    return this.#starts.length > 0 || (this.#flushOutcomes && this.#outcomes.length > 0);
  }

  #kick(): void {
    if (this.#writing || !this.#due()) return;
    this.#writing = this.#write().finally(() => {
      this.#writing = undefined;
      // Records handed over while the last write ran.
      this.#kick();
    });
  }

  async #write(): Promise<void> {
    while (this.#due()) {
      if (this.#failure !== undefined) {
        this.#giveUp();
        return;
      }
      await this.deps.lock.runBackground('offline/resend', () => this.#writeOnce());
    }
    if (this.#failure !== undefined) this.#giveUp();
  }

  /** One hold: the waiting outcomes (oldest first), then the waiting starts, in one append. */
  async #writeOnce(): Promise<void> {
    const cap = this.deps.journal.manyInOneWrite?.() ? RECORDS_PER_WRITE : RECORDS_PER_HOLD_SEPARATE_WRITES;
    const outcomes = this.#outcomes.splice(0, cap);
    const starts = this.#starts.splice(0, cap - outcomes.length);
    const records: NewRecord[] = [
      ...outcomes.map((o): NewRecord => ({ type: 'sfs-exchange', body: o.body })),
      ...starts.map((s): NewRecord => ({ type: 'sfs-attempt', body: s.body })),
    ];
    if (records.length === 0) return;
    try {
      if (this.deps.journal.appendMany) await this.deps.journal.appendMany(records);
      else for (const record of records) await this.deps.journal.append(record);
    } catch (e) {
      this.#fail(e, records.length);
      for (const start of starts) start.reject(e);
      return;
    } finally {
      // Written or given up: either way the claim ends (an unwritten outcome leaves the item unsent).
      for (const outcome of outcomes) outcome.release();
    }
    for (const outcome of outcomes) this.#written.add(subjectKey(outcome.subject));
    for (const start of starts) start.resolve();
  }

  #fail(e: unknown, records: number): void {
    this.#failure = e instanceof Error ? e.message : String(e);
    this.deps.log?.('warn', `offline queue: attempt records could not be written: ${this.#failure}`, {
      records,
    });
  }

  #giveUp(): void {
    const cause = new Error(`an earlier attempt record could not be written (${this.#failure})`);
    for (const start of this.#starts.splice(0)) start.reject(cause);
    for (const outcome of this.#outcomes.splice(0)) outcome.release();
  }
}
