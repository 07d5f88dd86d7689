import type { DocumentIndex } from '../ports/document-index.js';
import type { IndexedDocument, IndexedLocation, QueueEntry } from '../ports/indexed-records.js';
import type { Journal } from '../ports/journal.js';
import type { LocationIndex } from '../ports/location-index.js';
import type { Cancel, Scheduler } from '../ports/scheduler.js';
import type { SendQueueIndex } from '../ports/send-queue-index.js';
import type { SettingsIndex } from '../ports/settings-index.js';
import type { MessageSigner, SfsOutcome } from '../ports/tax-authority.js';
import { SerialQueue } from '../serial-queue.js';
import {
  type AttemptDeps,
  type AttemptOptions,
  attemptDocument,
  attemptLocation,
} from '../services/documents/send-attempt.js';
import type { RefusalSource } from '../services/register-status.js';
import type { AttemptOrigin } from '../services/sfs-health.js';
import type { WriteLock } from '../services/write-lock.js';
import { AttemptRecordWriter } from './attempt-record-writer.js';
import { backoffDelay } from './backoff.js';
import { readOfflineSettings } from './offline-settings.js';
import { registerRefusalKind } from './register-refusal.js';
import type { SendClaims, SendSubject } from './send-claims.js';
import { InFlightSlots, REQUESTS_IN_FLIGHT, SEND_WINDOW } from './send-window.js';
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

/** What one attempt came to; `detail` on the kinds that end the batch. */
type AttemptResult =
  | { kind: 'accepted' | 'rejected' | 'duplicate' | 'unverified' | 'skipped' }
  | { kind: 'register-refused' | 'unreachable' | 'invalid-response' | 'error'; detail: string };

/** Why a batch ended before the queue did: the next try comes later (logged by its cause). */
interface SendFailure {
  kind: 'unreachable' | 'not-ready' | 'register-refused' | 'error';
  detail: string;
}

interface BatchResult {
  sent: SentItems;
  attempted: number;
  /** Set when the batch could not go on: try again later (or when the cause is cleared). */
  failure?: SendFailure;
}

/**
 * The background sender (capability 10; protocol reference §1.9): registers every stored document and
 * location that is not registered yet, oldest first, without any POS call — at start-up, right
 * after the SFS answers a request again, and on a timer with backoff after a failed try.
 *
 * - One batch at a time (`SerialQueue`); items a request is sending itself are claimed and skipped.
 * - Each attempt: new Uuid, SendingCount + 1, new RequestDate, fresh signature (ADR 0705), with the
 *   key ADR 0703 names. A batch goes in windows of `SEND_WINDOW` items (ADR 1105): the window's
 *   `sfs-attempt` starts are written first, in one short hold of the write lock and one CHDÚ
 *   flush; then its requests leave oldest first, at most `REQUESTS_IN_FLIGHT` waiting for the SFS
 *   at once, outside the lock (ADR 0701), so a POS request is never refused with 300 because of a
 *   resend. The window's outcomes are written together, in the hold of the next window's starts.
 * - An unreachable SFS ends the batch and the run (requests already out finish and are recorded;
 *   the window's others never leave, a gap in their SendingCounts); a rejection makes that item
 *   stuck and the rest is still sent. A rejection that concerns the whole register (certificate, identity, interface
 *   version — ADR 0711) leaves the item queued, ends the run and holds the sender until the cause
 *   is cleared: `wake()` (merchant/store) or an online success, or the next timed try.
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
   * Something that may clear why sending stopped happened — a merchant (a renewed certificate) was
   * stored: try the queue now, from a fresh backoff.
   */
  wake(): void {
    if (!this.#started || this.#stopped) return;
    this.#failures = 0;
    if (this.#running) {
      this.#wakeUp = true;
      return;
    }
    this.#schedule(0);
  }

  /**
   * `POST /api/document/send/offline`: one batch of at most `limit` items (default the batch
   * limit setting), sent now; resolves with what it registered. Waits for a batch already
   * running to end first (one request in flight).
   */
  async sendNow(limit?: number): Promise<SentItems> {
    const n = limit ?? this.#settings().resendBatchLimit;
    const result = await this.#batches.run(() => this.#batch(n, { report: true, probe: true }));
    if (!this.#running && this.#started && !this.#stopped) {
      if (!result.failure && result.attempted > 0) {
        // The SFS answers: let the background sender take the rest now.
        this.#failures = 0;
        if (this.#deps.index.hasUnsent()) this.#schedule(0);
      } else if (result.failure && this.#timer === undefined) {
        this.#schedule(this.#delay(Math.max(this.#failures, 1)));
      }
    }
    return result.sent;
  }

  /**
   * Stops timers and waits for the batch in flight to end: its requests out are bounded by the
   * online limit; a request not out yet waits for a client request holding the write lock first
   * (the cashier first, ADR 1105), so stop() after the HTTP server has closed.
   */
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
    let failure: SendFailure | undefined;
    try {
      const limit = this.#settings().resendBatchLimit;
      // ADR 1107: only the run's first batch opens with a probe; once the SFS answered in this run,
      // the next batch starts with a full window (the pipeline does not drain to one request).
      let probe = true;
      for (;;) {
        if (this.#stopped) return;
        // Every online success wakes the sender (notify): when nothing waits, that costs one
        // indexed look, not a batch that reads the queue and finds nothing (capability 13).
        if (!this.#unclaimedWaits()) break;
        const batch = await this.#batches.run(() => this.#batch(limit, { report: false, probe }));
        if (batch.failure) {
          failure = batch.failure;
          break;
        }
        if (batch.attempted === 0) break;
        probe = false;
      }
    } finally {
      this.#running = false;
    }
    if (this.#stopped) return;
    if (failure && this.#wakeUp) {
      // A request got through, or a merchant was stored, while this run failed: try at once.
      this.#failures = 0;
      this.#schedule(0);
    } else if (failure) {
      this.#failures += 1;
      const delay = this.#delay(this.#failures);
      this.#logFailure(failure, delay);
      this.#schedule(delay);
    } else {
      this.#failures = 0;
    }
  }

  /**
   * Whether an item waits that no request is sending itself. While a POS stores online its next
   * document is unsent and claimed (its first attempt in flight) whenever the previous answer
   * wakes the sender; a batch would read the queue only to drop it (capability 13). With one more
   * number per kind than there are claims, an unclaimed item is among them if one waits.
   */
  #unclaimedWaits(): boolean {
    const { claims, index } = this.#deps;
    if (claims.size === 0) return index.hasUnsent();
    const waiting = index.unsentNumbers(claims.size + 1);
    return (
      waiting.documents.some((documentNo) => !claims.isClaimed({ kind: 'document', documentNo })) ||
      waiting.locations.some((locationNo) => !claims.isClaimed({ kind: 'location', locationNo }))
    );
  }

  /** One line naming the real cause, and when the next try comes. */
  #logFailure(failure: SendFailure, retryInMs: number): void {
    const data = { failures: this.#failures, retryInMs };
    switch (failure.kind) {
      case 'unreachable':
        this.#deps.log?.(
          'info',
          `offline queue: the SFS is not reachable (${failure.detail}); next try later`,
          data,
        );
        return;
      case 'not-ready':
        this.#deps.log?.(
          'warn',
          `offline queue waits: the register cannot sign or write now (${failure.detail}); it sends the queue once that is fixed`,
          data,
        );
        return;
      case 'register-refused':
        this.#deps.log?.(
          'warn',
          `offline queue held: the SFS refuses this register (${failure.detail}); the items stay queued and are sent once that is fixed (ADR 0711)`,
          data,
        );
        return;
      case 'error':
        this.#deps.log?.(
          'warn',
          `offline queue: an attempt failed (${failure.detail}); next try later`,
          data,
        );
    }
  }

  /**
   * One batch. `report`: read back what it registered (`sendNow` answers it; a background run
   * does not). `probe`: open with a window of one (ADR 1105).
   */
  async #batch(limit: number, { report, probe }: { report: boolean; probe: boolean }): Promise<BatchResult> {
    const sent: SentItems = { documents: [], locations: [] };
    if (this.#stopped) return { sent, attempted: 0 };
    const refusal = this.#deps.readiness.refusal();
    if (refusal) {
      return {
        sent,
        attempted: 0,
        failure: { kind: 'not-ready', detail: `${refusal.resultCode}: ${refusal.message}` },
      };
    }
    const { claims } = this.#deps;
    const entries = this.#deps.index
      .sendQueue(limit + claims.size)
      .filter((e) => !claims.isClaimed(subjectOf(e)))
      .slice(0, limit);
    const records = new AttemptRecordWriter(this.#deps);
    const registered: SendSubject[] = [];
    let attempted = 0;
    let failure: SendFailure | undefined;
    const state: WindowState = { slots: new InFlightSlots(REQUESTS_IN_FLIGHT), ended: false };
    const windows: Array<Promise<WindowResult[]>> = [];
    // ADR 1105: a batch opens with a window of one, a probe — an SFS still away costs one start
    // (one SendingCount of one item) per try, as before windows existed; then full windows.
    // ADR 1107: once every request of a window has left, the next window is prepared and its
    // starts written while the last requests still wait for the SFS (the slots are shared, so at
    // most REQUESTS_IN_FLIGHT wait at once, oldest first); the probe's answer is waited for.
    for (
      let from = 0, size = probe ? 1 : SEND_WINDOW;
      from < entries.length && !state.ended && !this.#stopped;
    ) {
      const opening = probe && from === 0;
      const window = this.#window(entries.slice(from, from + size), records, state);
      windows.push(window.results);
      from += size;
      size = SEND_WINDOW;
      await (opening ? window.results : window.left);
    }
    for (const { subject, result } of (await Promise.all(windows)).flat()) {
      if (result.kind === 'skipped') continue;
      attempted += 1;
      if (result.kind === 'accepted') registered.push(subject);
      else if ('detail' in result && !failure) {
        const kind = result.kind === 'invalid-response' ? 'unreachable' : result.kind;
        failure = { kind, detail: result.detail };
      }
      // rejected, duplicate, unverified: the item is stuck now; the rest is still sent.
    }
    // Every attempt record is in the CHDÚ before the batch answers what it registered.
    const unwritten = await records.drained();
    if (unwritten !== undefined) failure ??= { kind: 'error', detail: unwritten };
    for (const subject of report ? registered : []) {
      if (!records.written(subject)) continue;
      if (subject.kind === 'document') {
        const doc = this.#deps.index.findDocument({ by: 'documentNo', documentNo: subject.documentNo });
        if (doc) sent.documents.push(doc);
      } else {
        const loc = this.#deps.index.findLocation(subject.locationNo);
        if (loc) sent.locations.push(loc);
      }
    }
    return failure ? { sent, attempted, failure } : { sent, attempted };
  }

  /**
   * One window (ADR 1105): the items are claimed and read again, their starts are written together
   * (one hold, one CHDÚ flush), then their requests leave oldest first, at most
   * `REQUESTS_IN_FLIGHT` at a time. Their outcomes go to `records`, which writes them with the next
   * window's starts. A result that ends the run (unreachable SFS, register-wide refusal, an error)
   * ends the window: requests already out finish and are recorded, the rest never leave — their
   * written start leaves a gap in their SendingCounts, never a reuse (ADR 0705).
   */
  #window(
    entries: QueueEntry[],
    records: AttemptRecordWriter,
    state: WindowState,
  ): { results: Promise<WindowResult[]>; left: Promise<void> } {
    let allLeft: () => void = () => undefined;
    const left = new Promise<void>((resolve) => {
      allLeft = resolve;
    });
    const results = this.#sendWindow(entries, records, state, allLeft);
    void results.then(allLeft, allLeft);
    return { results, left };
  }

  /** The work of `#window`; `allLeft` is called once every request of it has left or ended. */
  async #sendWindow(
    entries: QueueEntry[],
    records: AttemptRecordWriter,
    state: WindowState,
    allLeft: () => void,
  ): Promise<WindowResult[]> {
    const ready: Prepared[] = [];
    const results: WindowResult[] = [];
    for (const entry of entries) {
      if (this.#stopped) break;
      const prepared = await this.#prepare(entry);
      if ('result' in prepared) {
        results.push(prepared);
        // An item that could not be prepared ends the run, as an attempt that fails does.
        if (prepared.result.kind === 'error') state.ended = true;
      } else ready.push(prepared);
    }
    let waiting = ready.length;
    if (waiting === 0) allLeft();
    const oneLeft = () => {
      waiting -= 1;
      if (waiting === 0) allLeft();
    };
    const write = records.gather();
    let sending: Array<Promise<WindowResult>>;
    try {
      sending = ready.map(async (item) => ({
        subject: item.subject,
        result: await this.#attempt(item, records, state, oneLeft),
      }));
    } finally {
      write();
    }
    results.push(...(await Promise.all(sending)));
    return results;
  }

  /** Claims the item and reads it again under the claim; what its attempt needs, or why not. */
  async #prepare(entry: QueueEntry): Promise<Prepared | { subject: SendSubject; result: AttemptResult }> {
    const subject = subjectOf(entry);
    const release = this.#deps.claims.claim(subject);
    if (!release) return { subject, result: { kind: 'skipped' } };
    try {
      // Read again under the claim: a request may have sent or repaired it meanwhile.
      const fresh =
        subject.kind === 'document'
          ? this.#deps.index.findDocument({ by: 'documentNo', documentNo: subject.documentNo })
          : this.#deps.index.findLocation(subject.locationNo);
      if (fresh?.sendState !== 'unsent') {
        release();
        return { subject, result: { kind: 'skipped' } };
      }
      const merchantRecordNo =
        'document' in fresh ? fresh.document.merchantRecordNo : fresh.location.merchantRecordNo;
      const signer = await this.#deps.signers.forMerchantRecord(merchantRecordNo);
      return { subject, fresh, signer, release };
    } catch (e) {
      release();
      const detail = e instanceof Error ? e.message : String(e);
      this.#deps.log?.('warn', `offline queue: attempt failed: ${detail}`, { subject });
      return { subject, result: { kind: 'error', detail } };
    }
  }

  /**
   * One attempt of a claimed item: its start goes to `records` (written with the window's other
   * starts), the request leaves once it is durable and a slot is free; the outcome record goes to
   * `records` too, and the claim ends once it is written.
   */
  async #attempt(
    item: Prepared,
    records: AttemptRecordWriter,
    window: WindowState,
    oneLeft: () => void,
  ): Promise<AttemptResult> {
    const { subject, fresh, signer, release } = item;
    let handedOver = false;
    let holdsSlot = false;
    let left = false;
    let counted = false;
    const leaves = () => {
      if (counted) return;
      counted = true;
      oneLeft();
    };
    try {
      const count = nextSendingCount(fresh.sendingCount);
      // ADR 0705: the start is in the CHDÚ before the request leaves, so a SendingCount is never
      // used twice even if the register stops before the outcome is recorded. Only the short
      // appends hold the write lock, never the SFS call (ADR 0701, ADR 1105).
      const options: AttemptOptions = {
        onStart: async (started) => {
          await records.start(started);
          await window.slots.acquire();
          holdsSlot = true;
          // The cashier first (ADR 1105): the request is built, signed and sent only while no
          // client request holds or waits for the write lock; a POS storing back to back leaves
          // the sender the gaps between its receipts, a few requests in each.
          await this.#deps.lock.clientIdle();
          // The window ended while this one waited: it does not leave (a gap, ADR 1105).
          if (window.ended || this.#stopped) throw new WindowEnded();
          left = true;
          leaves();
        },
      };
      const attempt =
        'document' in fresh
          ? await attemptDocument(this.#attemptDeps, fresh.document, signer, count, options)
          : await attemptLocation(this.#attemptDeps, fresh.location, signer, count, options);
      const outcome = attempt.outcome;
      // ADR 0711: a refusal of the whole register is not this item's fault — it stays queued.
      const registerWide = outcome.kind === 'rejected' && registerRefusalKind(outcome.code) !== undefined;
      const exchange = registerWide
        ? { ...attempt.exchange, registerRefused: true as const }
        : attempt.exchange;
      records.outcome(subject, exchange, release);
      handedOver = true;
      if (outcome.kind === 'rejected') {
        if (!registerWide) return { kind: 'rejected' };
        window.ended = true;
        return { kind: 'register-refused', detail: `${outcome.code}: ${outcome.text}` };
      }
      if (outcome.kind === 'unreachable' || outcome.kind === 'invalid-response') {
        window.ended = true;
        return { kind: outcome.kind, detail: outcome.reason };
      }
      return { kind: outcome.kind };
    } catch (e) {
      if (e instanceof WindowEnded) return { kind: 'skipped' };
      window.ended = true;
      const detail = e instanceof Error ? e.message : String(e);
      this.#deps.log?.('warn', `offline queue: attempt failed: ${detail}`, { subject, sent: left });
      return { kind: 'error', detail };
    } finally {
      if (holdsSlot) window.slots.release();
      if (!handedOver) release();
      leaves();
    }
  }
}

/** An item claimed for a window, read again, with its signer. */
interface Prepared {
  subject: SendSubject;
  fresh: IndexedDocument | IndexedLocation;
  signer: MessageSigner;
  release: () => void;
}

/** What one item of a window came to. */
interface WindowResult {
  subject: SendSubject;
  result: AttemptResult;
}

/** Shared by the windows of one batch. */
interface WindowState {
  /** At most `REQUESTS_IN_FLIGHT` requests of the batch wait for the SFS at once, oldest first. */
  slots: InFlightSlots;
  /** Set by a result that ends the run: requests not yet out stay home. */
  ended: boolean;
}

/** Thrown by a start whose window ended before its request could leave: nothing is sent. */
class WindowEnded extends Error {
  constructor() {
    super('the send window ended before this request left');
  }
}

export function subjectOf(entry: QueueEntry): SendSubject {
  return entry.kind === 'document'
    ? { kind: 'document', documentNo: entry.item.document.documentNo }
    : { kind: 'location', locationNo: entry.item.location.locationNo };
}
