import { NEW_PRINT_TRACK, NEW_SEND_TRACK, type SendTrack } from '../../core/journal/derived-state.js';
import type {
  DocumentRecord,
  LocationRecord,
  ReceiptForm,
  SfsExchangeRecord,
} from '../../core/journal/records.js';
import type {
  IndexedDocument,
  IndexedLocation,
  PrintState,
  QueueEntry,
  SendState,
} from '../../core/ports/indexed-records.js';

/** A row of `documents` (sqlite-index-schema.ts). */
export interface DocRow {
  document_no: number;
  record_no: number;
  body: string;
  send_state: SendState;
  sending_count: number;
  exchanges: number;
  last_exchange: string | null;
  accepted: string | null;
  print_state: PrintState;
  last_printer_code: number | null;
  print_started: number | null;
  drawer_opened: number | null;
  receipt_form: ReceiptForm | null;
  repaired_by: number | null;
  create_ms: number | null;
  first_attempt: string | null;
}

/** A row of `locations`. */
export interface LocRow {
  location_no: number;
  record_no: number;
  body: string;
  send_state: SendState;
  sending_count: number;
  exchanges: number;
  last_exchange: string | null;
  accepted: string | null;
  repaired_by: number | null;
  create_ms: number | null;
  first_attempt: string | null;
}

export function sendTrack(row: DocRow | LocRow): SendTrack {
  return {
    ...NEW_SEND_TRACK,
    sendState: row.send_state,
    sendingCount: row.sending_count,
    exchanges: row.exchanges,
    ...(row.last_exchange ? { lastExchange: JSON.parse(row.last_exchange) as SfsExchangeRecord } : {}),
    ...(row.accepted ? { accepted: JSON.parse(row.accepted) as SfsExchangeRecord } : {}),
  };
}

export function toDocument(row: DocRow): IndexedDocument {
  const t = sendTrack(row);
  return {
    recordNo: row.record_no,
    document: JSON.parse(row.body) as DocumentRecord,
    sendState: t.sendState,
    ...(t.lastExchange ? { lastExchange: t.lastExchange } : {}),
    ...(t.accepted ? { accepted: t.accepted } : {}),
    sendingCount: t.sendingCount,
    ...(row.first_attempt !== null ? { firstAttemptDate: row.first_attempt } : {}),
    printState: row.print_state ?? NEW_PRINT_TRACK.printState,
    ...(row.last_printer_code !== null ? { lastPrinterCode: row.last_printer_code } : {}),
    ...(row.print_started === 1 ? { printStarted: true as const } : {}),
    ...(row.drawer_opened === 1 ? { drawerOpened: true as const } : {}),
    ...(row.receipt_form !== null ? { receiptForm: row.receipt_form } : {}),
    ...(row.repaired_by !== null ? { repairedBy: row.repaired_by } : {}),
  };
}

export function toLocation(row: LocRow): IndexedLocation {
  const t = sendTrack(row);
  return {
    recordNo: row.record_no,
    location: JSON.parse(row.body) as LocationRecord,
    sendState: t.sendState,
    ...(t.lastExchange ? { lastExchange: t.lastExchange } : {}),
    ...(t.accepted ? { accepted: t.accepted } : {}),
    sendingCount: t.sendingCount,
    ...(row.first_attempt !== null ? { firstAttemptDate: row.first_attempt } : {}),
    ...(row.repaired_by !== null ? { repairedBy: row.repaired_by } : {}),
  };
}

export const documentEntry = (row: DocRow): QueueEntry => ({
  kind: 'document',
  recordNo: row.record_no,
  item: toDocument(row),
});

export const locationEntry = (row: LocRow): QueueEntry => ({
  kind: 'location',
  recordNo: row.record_no,
  item: toLocation(row),
});

/** Merges two lists already in record order into the first `limit` entries in record order. */
export function mergeByRecord(
  a: readonly QueueEntry[],
  b: readonly QueueEntry[],
  limit: number,
): QueueEntry[] {
  const out: QueueEntry[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.recordNo < y.recordNo)) {
      out.push(x!);
      i += 1;
    } else {
      out.push(y);
      j += 1;
    }
  }
  return out;
}
