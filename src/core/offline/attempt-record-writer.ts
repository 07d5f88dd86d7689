import type { SfsAttemptRecord, SfsExchangeRecord } from '../journal/records.js';
import type { Journal } from '../ports/journal.js';
import type { WriteLock } from '../services/write-lock.js';
import type { SendSubject } from './send-claims.js';

/** At most this many attempt records are written in one hold of the write lock. */
export const RECORDS_PER_HOLD = 8;

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
 * never while the SFS is asked), several in one short hold when several wait (ADR 1104):
 *
 * - `start()` — an attempt's `sfs-attempt` record; it resolves once the record is in the CHDÚ, and
 *   the sender sends the request only then (ADR 0705: a SendingCount is never used twice). Starts
 *   are written first in a hold: the sender waits for them.
 * - `outcome()` — an answered attempt's `sfs-exchange` record; the sender does not wait for it but
 *   goes on with the next item, whose start then shares the hold with it. The item stays claimed
 *   (`release` is called once the record is written or given up) so no request sends it meanwhile.
 *
 * A client request waiting for the lock ends a hold after the record being written
 * (`WriteLock.clientWaiting`): the cashier waits for at most one append of the sender. After a
 * record could not be written nothing more is written: waiting starts reject, waiting outcomes are
 * released unwritten (those items stay unsent and are sent again later — ADR 0706).
 */
export class AttemptRecordWriter {
  readonly #starts: PendingStart[] = [];
  readonly #outcomes: PendingOutcome[] = [];
  readonly #written = new Set<string>();
  #writing: Promise<void> | undefined;
  #failure: string | undefined;

  constructor(
    private readonly deps: {
      journal: Pick<Journal, 'append'>;
      lock: WriteLock;
      log?: (level: 'info' | 'warn', message: string, data?: Record<string, unknown>) => void;
    },
  ) {}

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
    this.#kick();
  }

  /** Waits until every record handed over is written or given up; the cause when one failed. */
  async drained(): Promise<string | undefined> {
    while (this.#writing) await this.#writing;
    return this.#failure;
  }

  /** Whether the outcome record of `subject` is in the CHDÚ. */
  written(subject: SendSubject): boolean {
    return this.#written.has(subjectKey(subject));
  }

  #kick(): void {
    this.#writing ??= this.#write().finally(() => {
      this.#writing = undefined;
    });
  }

  async #write(): Promise<void> {
    while (this.#starts.length > 0 || this.#outcomes.length > 0) {
      if (this.#failure !== undefined) {
        this.#giveUp();
        return;
      }
      await this.deps.lock.runBackground('offline/resend', async () => {
        for (let n = 0; n < RECORDS_PER_HOLD; n++) {
          if (n > 0 && this.deps.lock.clientWaiting) return;
          const start = this.#starts.shift();
          if (start) {
            try {
              await this.deps.journal.append({ type: 'sfs-attempt', body: start.body });
              start.resolve();
            } catch (e) {
              this.#fail(e, start.body.subject);
              start.reject(e);
              return;
            }
            continue;
          }
          const outcome = this.#outcomes.shift();
          if (!outcome) return;
          try {
            await this.deps.journal.append({ type: 'sfs-exchange', body: outcome.body });
            this.#written.add(subjectKey(outcome.subject));
          } catch (e) {
            this.#fail(e, outcome.subject);
            return;
          } finally {
            outcome.release();
          }
        }
      });
    }
  }

  #fail(e: unknown, subject: SendSubject): void {
    this.#failure = e instanceof Error ? e.message : String(e);
    this.deps.log?.('warn', `offline queue: an attempt record could not be written: ${this.#failure}`, {
      subject,
    });
  }

  #giveUp(): void {
    const cause = new Error(`an earlier attempt record could not be written (${this.#failure})`);
    for (const start of this.#starts.splice(0)) start.reject(cause);
    for (const outcome of this.#outcomes.splice(0)) outcome.release();
  }
}

function subjectKey(subject: SendSubject): string {
  return subject.kind === 'document' ? `d${subject.documentNo}` : `l${subject.locationNo}`;
}
