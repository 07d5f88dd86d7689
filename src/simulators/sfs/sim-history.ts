import { soapBody } from '../../adapters/tax-authority/ws-security.js';
import { parseXml } from '../../adapters/tax-authority/xml-dom.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../../core/sfs/message.js';
import { readRequest } from './request-reader.js';
import type { Processed } from './sfs-processor.js';
import type { FaultKind } from './sim-faults.js';

/** One request as the simulator saw it (`GET /__sim/received`). */
export interface SimHistoryEntry {
  seq: number;
  receivedAt: string;
  method: string;
  path: string;
  operation?: 'RegisterReceipt' | 'RegisterLocation';
  requestUuid?: string;
  /** Header@RequestDate as sent. */
  requestDate?: string;
  sendingCount?: string;
  /** Header@SwId as sent. */
  swId?: string;
  receiptType?: string;
  receiptNumber?: string;
  pkp?: string;
  okp?: string;
  /** LocationData@CreateDate of a location. */
  locationCreateDate?: string;
  /** The injected fault applied to this request. */
  fault?: FaultKind;
  latencyMs: number;
  outcome:
    | 'accepted'
    | 'repeated'
    | 'rejected'
    | 'no-answer'
    | 'dropped'
    | 'http-error'
    | 'garbage'
    | 'unsupported-media-type';
  /** The EkasaErrorCode of a Fault. */
  code?: number;
  detail?: string;
  /** The receipt Id given (accepted or repeated). */
  id?: string;
  /**
   * For a receipt the simulator processed: `new` when this request registered it (also when the
   * answer was then dropped by a fault: a lost answer), `repeat` for a resend of a registered one.
   */
  registration?: 'new' | 'repeat';
  httpStatus?: number;
}

/** Fills the history entry from what the simulator decided. */
export function describeProcessed(entry: SimHistoryEntry, processed: Processed): void {
  const operation =
    processed.kind === 'receipt'
      ? 'RegisterReceipt'
      : processed.kind === 'location'
        ? 'RegisterLocation'
        : processed.operation;
  describeRequest(entry, operation, processed.request);
  if (processed.kind === 'fault') {
    entry.outcome = 'rejected';
    entry.code = processed.violation.code;
    entry.detail = processed.violation.detail;
  } else {
    entry.outcome = processed.kind === 'receipt' && processed.repeated ? 'repeated' : 'accepted';
    if (processed.kind === 'receipt') {
      entry.id = processed.id;
      entry.registration = processed.repeated ? 'repeat' : 'new';
    }
  }
}

function describeRequest(
  entry: SimHistoryEntry,
  operation: SimHistoryEntry['operation'],
  request: SfsReceiptRequest | SfsLocationRequest | undefined,
): void {
  if (operation) entry.operation = operation;
  if (!request) return;
  entry.requestUuid = request.header.Uuid;
  entry.requestDate = request.header.RequestDate;
  entry.sendingCount = request.header.SendingCount;
  entry.swId = request.header.SwId;
  if ('pkp' in request) {
    entry.receiptType = request.data.ReceiptType;
    entry.receiptNumber = request.data.ReceiptNumber;
    entry.pkp = request.pkp;
    entry.okp = request.okp;
  } else {
    entry.locationCreateDate = request.data.CreateDate;
  }
}

/** What arrived, for the history, when an injected fault means the request is not processed. */
export function describeUnprocessed(entry: SimHistoryEntry, raw: Buffer): void {
  try {
    const body = soapBody(parseXml(raw.toString('utf8')));
    const read = body ? readRequest(body) : undefined;
    if (read) describeRequest(entry, read.operation, 'request' in read ? read.request : undefined);
  } catch {
    // Unreadable: the history shows only that something arrived.
  }
}
