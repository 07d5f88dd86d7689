import { DEFAULT_EVENT_WINDOW, EventRing } from '../adapters/events/event-ring.js';
import type { Clock } from '../core/ports/clock.js';
import type { Journal } from '../core/ports/journal.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import { EventPublishingJournal } from '../core/services/events/event-publishing-journal.js';
import { StateWatcher } from '../core/services/events/state-watcher.js';
import type { RegisterStatus } from '../core/services/register-status.js';
import type { RoutePlugin } from '../http/app.js';
import { eventRoutes } from '../http/routes/events.js';

/** How soon after an append the state is compared again (bursts share one look). */
const POKE_DELAY_MS = 100;
/**
 * Looks in a row that may find a writer at work before one gives up until the next tick: under a
 * steady stream of writes state events wait for a pause (or the next timer tick) rather than
 * publish a moment inside a request (ADR 0805).
 */
const SETTLE_ATTEMPTS = 5;

/** What the watcher needs of the WriteLock: to wait until no writer is at work, and to tell if one was. */
export interface WriterActivity {
  readonly holder: string | undefined;
  readonly holds: number;
  idle(): Promise<void>;
}

export interface EventsOptions {
  status: RegisterStatus;
  /** CHDÚ capacity for the fill-level thresholds. */
  capacity: () => Promise<{ capacityBlocks: number; freeBlocks: number } | undefined>;
  index: JournalIndex;
  clock: Clock;
  /**
   * The register's WriteLock. The state is compared only while no request holds it: a sale's
   * document record is appended (and pokes the watcher) before its SFS exchange and its print, in
   * the same request; the states in between are not the register's (ADR 0805).
   */
  lock: WriterActivity;
  /** How often the state is compared (default 2 s); an append also triggers a comparison. */
  watchIntervalMs?: number;
  /** How often the capacity is read (default 60 s). */
  capacityIntervalMs?: number;
  /** SSE heartbeat (default 15 s). */
  heartbeatMs?: number;
  maxClients?: number;
  window?: number;
}

/** The events part of the register, wired: the bus, the publishing journal, the watcher, the route. */
export interface EventsPart {
  /** The port use cases publish to (the background sender, a future use case). */
  events: EventRing;
  /** The journal every use case must write through, so each record publishes its events. */
  journal(journal: Journal): Journal;
  routes: RoutePlugin;
  /** First comparison (baseline, thresholds already passed), then the timer. */
  start(): Promise<void>;
  /** Stops the timer and waits for a comparison in progress. */
  stop(): Promise<void>;
}

/**
 * Composition of the events (ADR 0805). The state watcher is background work with one lifecycle:
 * started by composeKasa after the register is assembled, stopped by its close(); it only reads
 * the status, never takes the WriteLock (it waits until no writer holds it, so it compares settled
 * states only) and never fails the register: a failed comparison is retried at the next tick.
 */
export function composeEvents(o: EventsOptions): EventsPart {
  const ring = new EventRing(o.window ?? DEFAULT_EVENT_WINDOW, () => o.clock.now());
  const watcher = new StateWatcher({
    status: ({ skipPrinter }) => o.status.report(skipPrinter ? { skip: ['PRINTER'] } : {}),
    capacity: o.capacity,
    events: ring,
  });
  const capacityEvery = o.capacityIntervalMs ?? 60_000;
  let lastCapacity = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | undefined;
  let again: { printer: boolean } | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let poke: NodeJS.Timeout | undefined;
  /** After an append: one quick look per POKE_DELAY_MS at most, however many records a burst writes. */
  const afterAppend = (): void => {
    if (poke || stopped) return;
    poke = setTimeout(() => {
      poke = undefined;
      run(false);
    }, POKE_DELAY_MS);
    poke.unref();
  };

  /**
   * One comparison of a settled state: waits until no writer holds the lock, reads the status, and
   * drops the report when a writer took the lock meanwhile (then waits and reads again).
   */
  const settledCheck = async (capacity: boolean, printer: boolean): Promise<void> => {
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS && !stopped; attempt++) {
      await o.lock.idle();
      if (stopped) return;
      const holds = o.lock.holds;
      const settled = () => o.lock.holder === undefined && o.lock.holds === holds;
      if (await watcher.check({ capacity, printer, settled })) return;
    }
  };

  /** `printer`: the timer asks the printer too; the look after an append does not (ADR 0805). */
  const run = (printer: boolean): void => {
    if (stopped) return;
    if (running) {
      again = { printer: printer || (again?.printer ?? false) };
      return;
    }
    const capacity = printer && Date.now() - lastCapacity >= capacityEvery;
    if (capacity) lastCapacity = Date.now();
    running = settledCheck(capacity, printer)
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
        const next = again;
        again = undefined;
        if (next) run(next.printer);
      });
  };

  return {
    events: ring,
    journal: (journal) =>
      new EventPublishingJournal(
        journal,
        ring,
        // ADR 1115: the three values read from the row, not the whole document converted.
        (documentNo) => o.index.documentFacts(documentNo),
        afterAppend,
      ),
    routes: eventRoutes({
      feed: ring,
      ...(o.maxClients === undefined ? {} : { maxClients: o.maxClients }),
      ...(o.heartbeatMs === undefined ? {} : { heartbeatMs: o.heartbeatMs }),
    }),
    async start() {
      run(true);
      await running;
      timer = setInterval(() => run(true), o.watchIntervalMs ?? 2_000);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (poke) clearTimeout(poke);
      await running;
    },
  };
}
