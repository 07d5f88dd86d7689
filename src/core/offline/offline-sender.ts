import type { SfsExchangeRecord } from '../journal/records.js';
import type { DocumentIndex } from '../ports/document-index.js';
import type { IndexedDocument, IndexedLocation, QueueEntry } from '../ports/indexed-records.js';
import type { Journal } from '../ports/journal.js';
import type { LocationIndex } from '../ports/location-index.js';
import type { Cancel, Scheduler } from '../ports/scheduler.js';
import type { SendQueueIndex } from '../ports/send-queue-index.js';
import type { SettingsIndex } from '../ports/settings-index.js';
import type { MessageSigner, SfsOutcome } from '../ports/tax-authority.js';
import { SerialQueue } from '../serial-queue.js';
import { type AttemptDeps, attemptDocument, attemptLocation } from '../services/documents/send-attempt.js';
import type { RefusalSource } from '../services/register-status.js';
import type { AttemptOrigin } from '../services/sfs-health.js';
import type { WriteLock } from '../services/write-lock.js';
import { backoffDelay } from './backoff.js';
import { readOfflineSettings } from './offline-settings.js';
import type { SendClaims, SendSubject } from './send-claims.js';
import { nextSendingCount } from './sending-count.js';

export interface OfflineSenderDeps extends AttemptDeps {
  /** Appends also update the index (IndexedJournal). */
  journal: Journal;
  index: SendQueueIndex & SettingsIndex & DocumentIndex & LocationIndex;
  lock: WriteLock;
  claims: SendClaims;
  signers: { forMerchantRecord(recordNo: number): Promise<MessageSigner> };
  scheduler: Scheduler;
  /** Why fiscal work is refused now (CHDÚ consistency, merchant): checked before every batch. */
  readiness: RefusalSource;
  log?: (level: 'info' | 'warn', message: string, data?: Record<string, unknown>) => void;
}

/** What one batch registered (the answer of `POST /api/document/send/offline`). */
export interface SentItems {
  documents: IndexedDocument[];
  locations: IndexedLocation[];
}

type AttemptResult = SfsOutcome['kind'] | 'skipped' | 'error';

interface BatchResult {
  sent: SentItems;
  attempted: number;
  /** The SFS could not be reached (or the register could not sign or write): try again later. */
  failed: boolean;
}

/**
 * The background sender (issue 10; protocol reference §1.9): registers every stored document and
 * location that is not registered yet, oldest first, without any POS call — at start-up, right
 * after the SFS answers a request again, and on a timer with backoff after a failed try.
 *
 * - One request in flight at a time: batches run one after another (`SerialQueue`), and items a
 *   request is sending itself are claimed and skipped.
 * - Each attempt: new Uuid, SendingCount + 1, new RequestDate, fresh signature (ADR 0705), with the
 *   key ADR 0703 names. The SFS call runs outside the write lock; only the append of the attempt
 *   record takes it (ADR 0701), so a POS request is never refused with 300 because of a resend.
 * - An unreachable SFS ends the batch and the run; a rejection makes that item stuck and the rest
 *   is still sent.
 */
export class OfflineSender {
  readonly #batches = new SerialQueue();
  readonly #deps: OfflineSenderDeps;
  readonly #attemptDeps: AttemptDeps;
  #timer: Cancel | undefined;
  #failures = 0;
  #running = false;
  #wakeUp = false;
  #stopped = false;
  #started = false;

  constructor(deps: OfflineSenderDeps) {
    this.#deps = deps;
    this.#attemptDeps = { ...deps, origin: 'background' };
  }

  /** Starts the sender: a first run at once (whatever waits since the last stop). */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    this.#schedule(0);
  }

  /**
   * An SFS outcome a request got (wired to SfsHealth): a success means the SFS is back, so the
   * queue is sent now; a failure makes sure a retry is scheduled.
   */
  notify(outcome: SfsOutcome['kind'], origin: AttemptOrigin): void {
    if (!this.#started || this.#stopped || origin === 'background') return;
    if (outcome === 'accepted') {
      if (this.#running) {
        this.#wakeUp = true;
        return;
      }
      this.#failures = 0;
      this.#schedule(0);
    } else if ((outcome === 'unreachable' || outcome === 'invalid-response') && !this.#running) {
      if (this.#timer === undefined) this.#schedule(this.#delay(Math.max(this.#failures, 1)));
    }
  }

  /**
   * `POST /api/document/send/offline`: one batch of at most `limit` items (default the batch
   * limit setting), sent now; resolves with what it registered. Waits for a batch already
   * running to end first (one request in flight).
   */
  async sendNow(limit?: number): Promise<SentItems> {
    const n = limit ?? this.#settings().resendBatchLimit;
    const result = await this.#batches.run(() => this.#batch(n));
    if (!this.#running && this.#started && !this.#stopped) {
      if (!result.failed && result.attempted > 0) {
        // The SFS answers: let the background sender take the rest now.
        this.#failures = 0;
        if (this.#deps.index.sendQueue(1).length > 0) this.#schedule(0);
      } else if (result.failed && this.#timer === undefined) {
        this.#schedule(this.#delay(Math.max(this.#failures, 1)));
      }
    }
    return result.sent;
  }

  /** Stops timers and waits for the batch in flight (bounded by the online limit) to end. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#timer?.();
    this.#timer = undefined;
    await this.#batches.run(async () => undefined);
  }

  /** For status and tests: failed tries in a row and whether a run is going on. */
  get state(): { failures: number; running: boolean; retryScheduled: boolean } {
    return { failures: this.#failures, running: this.#running, retryScheduled: this.#timer !== undefined };
  }

  #settings() {
    return readOfflineSettings(this.#deps.index.settings());
  }

  #delay(failures: number): number {
    const s = this.#settings();
    return backoffDelay(failures, s.resendIntervalMs, s.resendMaxIntervalMs);
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer?.();
    this.#timer = this.#deps.scheduler.after(ms, () => {
      this.#timer = undefined;
      void this.#run();
    });
  }

  /** Batch after batch until the queue is empty, the SFS fails, or the sender stops. */
  async #run(): Promise<void> {
    if (this.#stopped || this.#running) return;
    this.#running = true;
    this.#wakeUp = false;
    let failed = false;
    try {
      for (;;) {
        if (this.#stopped) return;
        const limit = this.#settings().resendBatchLimit;
        const batch = await this.#batches.run(() => this.#batch(limit));
        if (batch.failed) {
          failed = true;
          break;
        }
        if (batch.attempted === 0) break;
      }
    } finally {
      this.#running = false;
    }
    if (this.#stopped) return;
    if (failed && this.#wakeUp) {
      // A request got through while this run failed: the SFS answers again, try at once.
      this.#failures = 0;
      this.#schedule(0);
    } else if (failed) {
      this.#failures += 1;
      const delay = this.#delay(this.#failures);
      this.#deps.log?.('info', 'offline queue: the SFS is not reachable; next try later', {
        failures: this.#failures,
        retryInMs: delay,
      });
      this.#schedule(delay);
    } else {
      this.#failures = 0;
    }
  }

  async #batch(limit: number): Promise<BatchResult> {
    const sent: SentItems = { documents: [], locations: [] };
    if (this.#stopped) return { sent, attempted: 0, failed: false };
    const refusal = this.#deps.readiness.refusal();
    if (refusal) {
      this.#deps.log?.('warn', `offline queue not sent: ${refusal.message}`, {
        resultCode: refusal.resultCode,
      });
      return { sent, attempted: 0, failed: true };
    }
    const { claims } = this.#deps;
    const entries = this.#deps.index
      .sendQueue(limit + claims.size)
      .filter((e) => !claims.isClaimed(subjectOf(e)))
      .slice(0, limit);
    const records = new RecordAppender(this.#deps);
    const registered: SendSubject[] = [];
    let attempted = 0;
    let failed = false;
    for (const entry of entries) {
      if (this.#stopped) break;
      const result = await this.#attempt(entry, records);
      if (result === 'skipped') continue;
      attempted += 1;
      if (result === 'accepted') registered.push(subjectOf(entry));
      else if (result === 'unreachable' || result === 'invalid-response' || result === 'error') {
        failed = true;
        break;
      }
      // rejected, duplicate, unverified: the item is stuck now; the rest is still sent.
    }
    // Every attempt record is in the CHDÚ before the batch answers what it registered.
    if (!(await records.drained())) failed = true;
    for (const subject of registered) {
      if (!records.written(subject)) continue;
      if (subject.kind === 'document') {
        const doc = this.#deps.index.findDocument({ by: 'documentNo', documentNo: subject.documentNo });
        if (doc) sent.documents.push(doc);
      } else {
        const loc = this.#deps.index.findLocation(subject.locationNo);
        if (loc) sent.locations.push(loc);
      }
    }
    return { sent, attempted, failed };
  }

  /**
   * One attempt of one item: claim it, read it again, send it; its record goes to `records`, which
   * writes it (and releases the claim) while the next item is already on its way to the SFS.
   */
  async #attempt(entry: QueueEntry, records: RecordAppender): Promise<AttemptResult> {
    const subject = subjectOf(entry);
    const release = this.#deps.claims.claim(subject);
    if (!release) return 'skipped';
    let handedOver = false;
    try {
      // Read again under the claim: a request may have sent or repaired it meanwhile.
      const fresh =
        subject.kind === 'document'
          ? this.#deps.index.findDocument({ by: 'documentNo', documentNo: subject.documentNo })
          : this.#deps.index.findLocation(subject.locationNo);
      if (fresh?.sendState !== 'unsent') return 'skipped';
      const merchantRecordNo =
        'document' in fresh ? fresh.document.merchantRecordNo : fresh.location.merchantRecordNo;
      const signer = await this.#deps.signers.forMerchantRecord(merchantRecordNo);
      const count = nextSendingCount(fresh.sendingCount);
      const attempt =
        'document' in fresh
          ? await attemptDocument(this.#attemptDeps, fresh.document, signer, count)
          : await attemptLocation(this.#attemptDeps, fresh.location, signer, count);
      records.add(subject, attempt.exchange, release);
      handedOver = true;
      return attempt.outcome.kind;
    } catch (e) {
      this.#deps.log?.(
        'warn',
        `offline queue: attempt failed: ${e instanceof Error ? e.message : String(e)}`,
        {
          subject,
        },
      );
      return 'error';
    } finally {
      if (!handedOver) release();
    }
  }
}

/** At most this many attempt records are written in one hold of the write lock. */
const RECORDS_PER_HOLD = 8;

/**
 * Writes the sender's attempt records under the write lock (ADR 0701: only the appends hold it,
 * never the SFS call), several in one hold when several are ready: while a POS request holds the
 * lock, the sender goes on sending and its records wait together for the next short hold, instead
 * of the sender waiting with each answer (issue 13, figure 4). Records of different items, each
 * claimed until its record is written; an item's next attempt only comes after that.
 */
class RecordAppender {
  readonly #pending: Array<{ subject: SendSubject; exchange: SfsExchangeRecord; release: () => void }> = [];
  readonly #written = new Set<string>();
  #writing: Promise<void> | undefined;
  #failed = false;

  constructor(private readonly deps: Pick<OfflineSenderDeps, 'journal' | 'lock' | 'log'>) {}

  add(subject: SendSubject, exchange: SfsExchangeRecord, release: () => void): void {
    this.#pending.push({ subject, exchange, release });
    this.#writing ??= this.#write().finally(() => {
      this.#writing = undefined;
    });
  }

  /** Waits until every record given is written (or failed); false when one could not be written. */
  async drained(): Promise<boolean> {
    while (this.#writing) await this.#writing;
    return !this.#failed;
  }

  written(subject: SendSubject): boolean {
    return this.#written.has(subjectKey(subject));
  }

  async #write(): Promise<void> {
    while (this.#pending.length > 0) {
      if (this.#failed) {
        for (const item of this.#pending.splice(0)) item.release();
        return;
      }
      await this.deps.lock.runBackground('offline/resend', async () => {
        // A client request waiting for the lock ends the hold after the record being written.
        for (let n = 0; n < RECORDS_PER_HOLD && this.#pending.length > 0; n++) {
          if (n > 0 && this.deps.lock.clientWaiting) break;
          const item = this.#pending.shift()!;
          try {
            await this.deps.journal.append({ type: 'sfs-exchange', body: item.exchange });
            this.#written.add(subjectKey(item.subject));
          } catch (e) {
            this.#failed = true;
            this.deps.log?.(
              'warn',
              `offline queue: attempt failed: ${e instanceof Error ? e.message : String(e)}`,
              { subject: item.subject },
            );
            return;
          } finally {
            item.release();
          }
        }
      });
    }
  }
}

function subjectKey(subject: SendSubject): string {
  return subject.kind === 'document' ? `d${subject.documentNo}` : `l${subject.locationNo}`;
}

export function subjectOf(entry: QueueEntry): SendSubject {
  return entry.kind === 'document'
    ? { kind: 'document', documentNo: entry.item.document.documentNo }
    : { kind: 'location', locationNo: entry.item.location.locationNo };
}
