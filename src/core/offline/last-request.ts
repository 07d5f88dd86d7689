import { FiscalError } from '../fiscal-error.js';
import type { QueueEntry } from '../ports/indexed-records.js';
import type { SendQueueIndex } from '../ports/send-queue-index.js';
import { RESULT_CODES } from '../result-codes.js';
import { sfsTextInSentence } from '../sfs/error-text.js';
import { handedOver } from './fix-document.js';
import { registerRefusalKind, setAsideOncePersisting } from './register-refusal.js';

/** The SFS code and text of a stuck item (the duplicate / unverified outcomes have kasa's codes). */
export function stuckCause(entry: QueueEntry): { code: number; text: string } {
  const x = entry.item.lastExchange;
  const code =
    x?.errorCode ??
    (x?.outcome === 'duplicate'
      ? RESULT_CODES.SFS_DUPLICATE.code
      : x?.outcome === 'unverified'
        ? RESULT_CODES.SFS_RESPONSE_NOT_VERIFIED.code
        : RESULT_CODES.LAST_REQUEST_INVALID.code);
  return { code, text: x?.errorText ?? 'no answer recorded' };
}

/** How a stuck item is named to the shop: number and OKP of a document, number of a location. */
export function describeStuck(entry: QueueEntry): Record<string, unknown> {
  const { code, text } = stuckCause(entry);
  const ekasaError = { errorType: 'EKASA', errorCode: code, message: text, detail: '' };
  if (entry.kind === 'document') {
    const d = entry.item.document;
    return {
      kind: 'document',
      documentNumber: d.documentNumber,
      internalDocumentId: d.documentNo,
      sequenceId: Number(d.sfs.ReceiptNumber),
      okp: d.okp,
      ekasaError,
    };
  }
  return {
    kind: 'location',
    internalId: entry.item.location.locationNo,
    createDate: entry.item.location.sfs.CreateDate,
    ekasaError,
  };
}

/** SFS codes no fix member clears (content rules kasa checks before storing; a duplicate). */
function noFixClears(code: number): boolean {
  return (
    (code <= -113 && code >= -129) ||
    code === -131 ||
    code === RESULT_CODES.SFS_DUPLICATE.code ||
    code <= -900
  );
}

/** What the shop does about a stuck item, by its SFS code (docs/offline.md has the table). */
export function wayOut(entry: QueueEntry, code: number): string {
  const setAside =
    entry.kind === 'document'
      ? `POST /api/offline/set-aside {"internalDocumentId": ${entry.item.document.documentNo}, "reason": "…"}`
      : `POST /api/offline/set-aside {"locationInternalId": ${entry.item.location.locationNo}, "reason": "…"}`;
  const repair =
    entry.kind === 'document'
      ? `POST /api/document/update {"internalDocumentId": ${entry.item.document.documentNo}, "fixDocument": …}`
      : `POST /api/location/update {"locationInternalId": ${entry.item.location.locationNo}, "fixLocation": …}`;
  const register = registerRefusalKind(code);
  const resend = `send it again as it is with ${repair.replace('…', '{}')}`;
  // ADR 0712: a document the customer already holds is sent only as it was signed.
  const handed =
    entry.kind === 'document' && handedOver(entry.item)
      ? 'it was already handed over to the customer, so no fix may change it: '
      : undefined;
  if (register) {
    const fix = handed ? resend : `repair it with ${repair} and "useLastMerchant": true`;
    const then = `${handed ?? ''}${register.todo}, then ${fix}`;
    // ADR 0711: an identity refusal that persists after a merchant/store may be set aside, and so
    // may a certificate refusal of a document already handed over (ADR 0712); otherwise a
    // certificate or interface refusal never (the document is fine, the register's data are not).
    return setAsideOncePersisting(entry, code)
      ? `${then}; if the SFS still refuses it after that, set it aside for the tax office with ${setAside}`
      : then;
  }
  if (handed !== undefined || noFixClears(code)) {
    return `${handed ?? `no fix clears ${code}: `}${resend} if the cause has passed, otherwise set it aside for the tax office with ${setAside}`;
  }
  return `repair it with ${repair} (docs/offline.md lists the fix for each SFS code), or set it aside for the tax office with ${setAside}`;
}

/**
 * 501 LAST_REQUEST_INVALID while the last stored request (document or location) is stuck
 * (ADR 0008 §17, ADR 0701): it names the request (number, OKP) and the SFS code and text, and
 * says how to repair it. An older item the SFS rejected during a resend does not block.
 */
export function lastRequestRefusal(index: Pick<SendQueueIndex, 'stuckLastRequest'>): FiscalError | undefined {
  const last = index.stuckLastRequest();
  if (last?.item.sendState !== 'stuck') return undefined;
  const { code, text } = stuckCause(last);
  const what =
    last.kind === 'document'
      ? `document ${last.item.document.documentNumber} (OKP ${last.item.document.okp})`
      : `location ${last.item.location.locationNo}`;
  const how = wayOut(last, code);
  return new FiscalError(
    'LAST_REQUEST_INVALID',
    `The SFS rejected the last stored request, ${what}, with ${code}: ${sfsTextInSentence(text)}. New documents, cash operations, locations, prints and logos are refused until it is repaired or set aside: ${how}.`,
    {
      lastRequest: describeStuck(last),
      ekasaError: { errorType: 'EKASA', errorCode: code, message: text, detail: '' },
    },
  );
}
