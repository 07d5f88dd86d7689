import type { PrintState, SendState } from '../ports/journal-index.js';
import type {
  PrintRecord,
  ReceiptForm,
  RepairRecord,
  SfsAttemptRecord,
  SfsExchangeRecord,
} from './records.js';

/**
 * How later records change what the index says about a document or location. Pure functions so
 * the live index and a rebuild from the CHDÚ derive exactly the same state (the rules are the
 * TSDoc of {@link SendState} and {@link PrintState}).
 */
export interface SendTrack {
  sendState: SendState;
  sendingCount: number;
  /** Exchanges recorded so far (any outcome). */
  exchanges: number;
  lastExchange?: SfsExchangeRecord;
  accepted?: SfsExchangeRecord;
}

export interface PrintTrack {
  printState: PrintState;
  lastPrinterCode?: number;
  /**
   * A failed print of the original got far enough to leave `partialPrint` (ADR 0507 as amended):
   * a unit with receipt content reached the printer, not just the first unit, so part of the
   * receipt may be on paper (the document counts as handed over, ADR 0712). Kept through later
   * failures, so a reprint never kicks again — also after a restart, when the adapter's memory
   * is gone.
   */
  printStarted?: true;
  /**
   * A failed print of the original sent its drawer kick (`drawerOpened` in the print record, ADR
   * 0517), perhaps with nothing else confirmed: a reprint never kicks again. Says nothing about
   * the paper — that is `printStarted`. Kept through later failures.
   */
  drawerOpened?: true;
  /**
   * The form of the original the customer holds (ADR 0713): the `form` of the first print record
   * that reached the customer — printed, electronic, or cut short with `partialPrint` (handed over,
   * ADR 0712). Kept for good; absent while nothing was handed over, and for originals printed
   * before print records said their form.
   */
  receiptForm?: ReceiptForm;
}

export const NEW_SEND_TRACK: SendTrack = { sendState: 'unsent', sendingCount: 0, exchanges: 0 };
export const NEW_PRINT_TRACK: PrintTrack = { printState: 'pending' };

const SETTLED: ReadonlySet<SendState> = new Set(['online', 'offline-sent', 'not-sent', 'set-aside']);

export function afterExchange(t: SendTrack, x: SfsExchangeRecord): SendTrack {
  const next: SendTrack = {
    ...t,
    exchanges: t.exchanges + 1,
    sendingCount: Math.max(t.sendingCount, x.sendingCount),
    lastExchange: x,
  };
  if (SETTLED.has(t.sendState)) return next;
  switch (x.outcome) {
    case 'accepted':
      // Online only when the first attempt (SendingCount 1) was accepted; a resend — also one
      // whose earlier attempts went unrecorded (ADR 0705) — is a late registration.
      return {
        ...next,
        sendState: t.exchanges === 0 && x.sendingCount === 1 ? 'online' : 'offline-sent',
        accepted: x,
      };
    case 'rejected':
      // ADR 0711: the SFS refused the register, not this message — it stays queued.
      return x.registerRefused ? next : { ...next, sendState: 'stuck' };
    // Capability 6: a duplicate (601) or an answer whose signature cannot be trusted (602) is handled
    // like a rejection: the document is not known to be registered and must not be handed over
    // as valid; it waits for a repair.
    case 'duplicate':
    case 'unverified':
      return { ...next, sendState: 'stuck' };
    default:
      // unreachable, invalid-response: no usable answer; still to be sent (the offline queue).
      return next;
  }
}

/**
 * An attempt started (ADR 0705): its SendingCount counts as used from now on, whatever becomes of
 * the attempt; the state waits for its outcome.
 */
export function afterAttemptStarted(t: SendTrack, a: SfsAttemptRecord): SendTrack {
  return a.sendingCount > t.sendingCount ? { ...t, sendingCount: a.sendingCount } : t;
}

/** A repair queues the item again; one that sets it aside (ADR 0711) ends its sending for good. */
export function afterRepair(t: SendTrack, r?: Pick<RepairRecord, 'setAside'>): SendTrack {
  if (SETTLED.has(t.sendState)) return t;
  return { ...t, sendState: r?.setAside ? 'set-aside' : 'unsent' };
}

export function afterPrint(t: PrintTrack, p: PrintRecord): PrintTrack {
  if (p.copy || t.printState === 'printed' || t.printState === 'electronic') return t;
  // ADR 0713: the first attempt that reached the customer fixes the form; a resumed print
  // finishes the paper in the form it was started in (ADR 0712).
  const reached = p.ok || p.partialPrint !== undefined;
  const form = t.receiptForm ?? (reached ? p.form : undefined);
  const kept = form === undefined ? {} : { receiptForm: form };
  if (p.ok) return { printState: p.electronic ? 'electronic' : 'printed', ...kept };
  const started = t.printStarted === true || p.partialPrint !== undefined;
  const kicked = t.drawerOpened === true || p.drawerOpened === true;
  return {
    printState: 'failed',
    ...(p.printerCode === undefined ? {} : { lastPrinterCode: p.printerCode }),
    ...(started ? { printStarted: true as const } : {}),
    ...(kicked ? { drawerOpened: true as const } : {}),
    ...kept,
  };
}
