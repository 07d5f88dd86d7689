import type { Logger } from 'pino';
import { timerScheduler } from '../adapters/scheduling/timer-scheduler.js';
import { OfflineSender } from '../core/offline/offline-sender.js';
import { ResendSigners } from '../core/offline/resend-signers.js';
import { SendClaims } from '../core/offline/send-claims.js';
import type { Clock, IdSource } from '../core/ports/clock.js';
import type { Journal } from '../core/ports/journal.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import type { MerchantKeystore } from '../core/ports/merchant-keystore.js';
import type { Scheduler } from '../core/ports/scheduler.js';
import type { TaxAuthority } from '../core/ports/tax-authority.js';
import type { MerchantSession } from '../core/services/merchant-session.js';
import type { RefusalSource } from '../core/services/register-status.js';
import type { SfsHealth } from '../core/services/sfs-health.js';
import type { WriteLock } from '../core/services/write-lock.js';

/** The background jobs of a running register, and what the request side shares with them. */
export interface BackgroundJobs {
  sender: OfflineSender;
  claims: SendClaims;
  signers: ResendSigners;
  scheduler: Scheduler;
  /** Starts every job (after the HTTP app is built). */
  start(): void;
  /** Stops every job and waits for work in flight; called by composeKasa's close(). */
  stop(): Promise<void>;
}

export interface BackgroundWiring {
  journal: Journal;
  index: JournalIndex;
  lock: WriteLock;
  sfs: TaxAuthority;
  sfsTimeoutMs: number;
  swId: () => string;
  sfsHealth: SfsHealth;
  clock: Clock;
  ids: IdSource;
  session: MerchantSession;
  keystore: MerchantKeystore;
  readiness: RefusalSource;
  logger: Logger;
  /** Default: Node timers (unref'ed). */
  scheduler?: Scheduler;
}

/**
 * The ONE place background work is created, started and stopped (STYLE: background work has one
 * lifecycle owned by the composition root). Today: the offline sender (capability 10), woken by every
 * SFS outcome a request gets and by every merchant stored.
 */
export function composeBackground(w: BackgroundWiring): BackgroundJobs {
  const scheduler = w.scheduler ?? timerScheduler;
  const claims = new SendClaims();
  const signers = new ResendSigners({
    index: w.index,
    session: w.session,
    keystore: w.keystore,
    clock: w.clock,
  });
  const log = w.logger.child({ job: 'offline-sender' });
  const sender = new OfflineSender({
    journal: w.journal,
    index: w.index,
    lock: w.lock,
    claims,
    signers,
    scheduler,
    readiness: w.readiness,
    sfs: w.sfs,
    // Read on every attempt (the settings may change the online limit, capability 12).
    get sfsTimeoutMs() {
      return w.sfsTimeoutMs;
    },
    swId: w.swId,
    sfsHealth: w.sfsHealth,
    clock: w.clock,
    ids: w.ids,
    log: (level, message, data) => log[level](data ?? {}, message),
  });
  w.sfsHealth.onOutcome((outcome, origin) => sender.notify(outcome, origin));
  // A stored merchant (a renewed certificate) may clear what held the queue (ADR 0711).
  w.session.onInstalled(() => sender.wake());
  return {
    sender,
    claims,
    signers,
    scheduler,
    start: () => sender.start(),
    stop: () => sender.stop(),
  };
}
