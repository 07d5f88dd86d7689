import type {
  DocumentRecord,
  JournalRecord,
  LocationRecord,
  ReceiptForm,
  SfsExchangeRecord,
} from '../journal/records.js';

/**
 * Where a document or location stands with the SFS, derived from its `sfs-exchange` and `repair`
 * records in journal order (`src/core/journal/derived-state.ts`):
 * - `unsent`: no exchange yet, or only unreachable / invalid-response ones (the offline queue),
 *   or repaired after a rejection;
 * - `online`: the first exchange, with SendingCount 1, was accepted;
 * - `offline-sent`: accepted later (after earlier exchanges, or by a resend);
 * - `stuck`: the last decisive answer was a rejection, a duplicate or an unverifiable response;
 *   waits for a repair record;
 * - `not-sent`: a document the law does not let the register send (VK/VY created on or after
 *   1 January 2026, Act 384/2025, unless sending is forced — ADR 0704): never queued, never sent;
 * - `set-aside`: rejected by the SFS and set aside for the tax office by an operator (a `repair`
 *   record with `setAside`, ADR 0711): never sent again, never registered, blocks nothing.
 * A rejection that concerns the whole register (`registerRefused`, ADR 0711) leaves the item
 * `unsent`. `online`, `offline-sent`, `not-sent` and `set-aside` are final: later exchanges only
 * update `lastExchange`/`sendingCount`.
 */
export type SendState = 'unsent' | 'online' | 'offline-sent' | 'stuck' | 'not-sent' | 'set-aside';
/**
 * What happened to a document's original, derived from its `print` records (copies change
 * nothing): `pending` until the first print record, `printed` / `electronic` (final) on success,
 * `failed` (with `lastPrinterCode`) after a failed attempt, until one succeeds.
 */
export type PrintState = 'pending' | 'printed' | 'failed' | 'electronic';

/** A document with everything later records said about it. */
export interface IndexedDocument {
  recordNo: number;
  document: DocumentRecord;
  sendState: SendState;
  /** The last exchange, if any attempt was made. */
  lastExchange?: SfsExchangeRecord;
  /** The accepted exchange (UID, ProcessDate). */
  accepted?: SfsExchangeRecord;
  sendingCount: number;
  /** RequestDate of the first recorded attempt (SFS dateTime): the resend deadline runs from it. */
  firstAttemptDate?: string;
  printState: PrintState;
  lastPrinterCode?: number;
  /**
   * A failed attempt got receipt content of the original to the printer — a line, a picture or a
   * code confirmed, not just the first unit (a print record with `partialPrint`, ADR 0507 as
   * amended): part of it may be on paper, it counts as handed over (ADR 0712), and printing it
   * again never kicks (its kick went out before that content).
   */
  printStarted?: true;
  /**
   * A failed attempt sent the original's drawer kick (a print record with `drawerOpened`, ADR
   * 0517), even if nothing of it is known to be on paper: printing it again never kicks.
   */
  drawerOpened?: true;
  /**
   * The form of the original the customer holds — with the UID (SFS spec §2.10), offline (§2.9) or
   * not sent by law — from the first print record that handed it over (ADR 0713): its copies show
   * the same. Absent while nothing was handed over, and for originals whose print records are older
   * than ADR 0713 (`receiptFormOf` then applies the earlier rule).
   */
  receiptForm?: ReceiptForm;
  /** Record number of the latest repair, if repaired. */
  repairedBy?: number;
}

export interface IndexedLocation {
  recordNo: number;
  location: LocationRecord;
  sendState: SendState;
  lastExchange?: SfsExchangeRecord;
  accepted?: SfsExchangeRecord;
  sendingCount: number;
  /** RequestDate of the first recorded attempt (SFS dateTime). */
  firstAttemptDate?: string;
  /** Record number of the latest repair, if repaired. */
  repairedBy?: number;
}

/** One item of the send queue or of the offline report: a document or a location. */
export type QueueEntry =
  | { kind: 'document'; recordNo: number; item: IndexedDocument }
  | { kind: 'location'; recordNo: number; item: IndexedLocation };

/** Convenience for adapters: the record union narrowed by type. */
export type RecordOf<T extends JournalRecord['type']> = Extract<JournalRecord, { type: T }>;
