import type {
  DocumentRecord,
  LocationRecord,
  SfsAttemptRecord,
  SfsExchangeRecord,
} from '../../journal/records.js';
import type { MessageSigner, SfsOutcome } from '../../ports/tax-authority.js';
import { formatSfsDateTime } from '../../time.js';
import type { AttemptOrigin } from '../sfs-health.js';
import type { DocumentDeps } from './document-deps.js';

/** What one attempt needs: the SFS client and the values every request header carries. */
export type AttemptDeps = Pick<DocumentDeps, 'sfs' | 'sfsTimeoutMs' | 'swId' | 'clock' | 'ids'> & {
  sfsHealth: Pick<DocumentDeps['sfsHealth'], 'record'>;
  /** Who makes the attempt (status and the sender's wake-up tell them apart); default `request`. */
  origin?: AttemptOrigin;
};

export interface AttemptOptions {
  /**
   * Called with the attempt's `sfs-attempt` record after its Uuid and RequestDate are chosen and
   * before the request leaves: a resend or a repair writes it into the CHDÚ here, so a register
   * that stops before the outcome is recorded never uses this SendingCount again (ADR 0705). If it
   * throws, nothing is sent.
   */
  onStart?: (started: SfsAttemptRecord) => Promise<void>;
  /**
   * The request is built and signed at once but leaves only once this has resolved (a store's own
   * document record, flushed meanwhile: ADR 1109); if it rejects, nothing is sent.
   */
  notBefore?: Promise<unknown>;
}

/**
 * `onStart` for an attempt made inside a request that already holds the write lock (a repair):
 * the start is appended at once.
 */
export function recordStartIn(journal: DocumentDeps['journal']): NonNullable<AttemptOptions['onStart']> {
  return async (started) => {
    await journal.append({ type: 'sfs-attempt', body: started });
  };
}

export interface Attempt {
  outcome: SfsOutcome;
  /** The `sfs-exchange` record to write for it. */
  exchange: SfsExchangeRecord;
}

/**
 * One send attempt of a stored document (SFS spec §1.9): a new Uuid, RequestDate and signature
 * every time, the same PKP, OKP, CreateDate and ReceiptNumber. Writes nothing: the caller appends
 * `exchange` (the background sender does it under the write lock only, after the SFS answered —
 * ADR 0701).
 */
export function attemptDocument(
  deps: AttemptDeps,
  document: DocumentRecord,
  signer: MessageSigner,
  sendingCount: number,
  options: AttemptOptions = {},
): Promise<Attempt> {
  const subject = { kind: 'document' as const, documentNo: document.documentNo };
  return attempt(deps, subject, `document ${document.documentNumber}`, sendingCount, options, (header) =>
    deps.sfs.registerReceipt(
      {
        header: { ...header, Exception: document.exception ? 'true' : 'false' },
        data: document.sfs,
        pkp: document.pkp,
        okp: document.okp,
      },
      signer,
      {
        timeoutMs: deps.sfsTimeoutMs,
        ...(options.notBefore === undefined ? {} : { notBefore: options.notBefore }),
      },
    ),
  );
}

/** One RegisterLocationRequest attempt of a stored location (spec §3.5; same resend rules). */
export function attemptLocation(
  deps: AttemptDeps,
  location: LocationRecord,
  signer: MessageSigner,
  sendingCount: number,
  options: AttemptOptions = {},
): Promise<Attempt> {
  const subject = { kind: 'location' as const, locationNo: location.locationNo };
  return attempt(deps, subject, `location ${location.locationNo}`, sendingCount, options, (header) =>
    deps.sfs.registerLocation({ header, data: location.sfs }, signer, { timeoutMs: deps.sfsTimeoutMs }),
  );
}

/** The header every attempt carries: new Uuid and RequestDate, the SwId in force, its SendingCount. */
interface AttemptHeader {
  Uuid: string;
  RequestDate: string;
  SwId: string;
  SendingCount: string;
}

/** The steps both kinds share: the start (before the request leaves, ADR 0705), the SFS health, the record. */
async function attempt(
  deps: AttemptDeps,
  subject: SfsExchangeRecord['subject'],
  name: string,
  sendingCount: number,
  options: AttemptOptions,
  send: (header: AttemptHeader) => Promise<SfsOutcome>,
): Promise<Attempt> {
  const requestUuid = deps.ids.uuid();
  const requestDate = formatSfsDateTime(deps.clock.now());
  await options.onStart?.({ subject, requestUuid, requestDate, sendingCount });
  const outcome = await send({
    Uuid: requestUuid,
    RequestDate: requestDate,
    SwId: deps.swId(),
    SendingCount: String(sendingCount),
  });
  deps.sfsHealth.record(outcome, deps.clock.now(), deps.origin, { name, resend: sendingCount > 1 });
  return {
    outcome,
    exchange: exchangeRecord(subject, requestUuid, requestDate, sendingCount, outcome),
  };
}

function exchangeRecord(
  subject: SfsExchangeRecord['subject'],
  requestUuid: string,
  requestDate: string,
  sendingCount: number,
  outcome: SfsOutcome,
): SfsExchangeRecord {
  const exchange: SfsExchangeRecord = {
    subject,
    requestUuid,
    requestDate,
    sendingCount,
    outcome: outcome.kind,
  };
  switch (outcome.kind) {
    case 'accepted':
      if (outcome.id !== undefined) exchange.id = outcome.id;
      exchange.responseUuid = outcome.responseUuid;
      exchange.processDate = outcome.processDate;
      if (outcome.warning) exchange.warning = outcome.warning;
      break;
    case 'rejected':
    case 'duplicate':
      exchange.errorCode = outcome.code;
      exchange.errorText = outcome.text;
      break;
    default:
      exchange.errorText = outcome.reason;
  }
  return exchange;
}

/**
 * One attempt inside a request that holds the write lock (a store's first attempt, a repair): the
 * outcome is written into the journal as an `sfs-exchange` record before anything else happens.
 */
export async function sendDocumentAttempt(
  deps: AttemptDeps & Pick<DocumentDeps, 'journal'>,
  document: DocumentRecord,
  signer: MessageSigner,
  sendingCount: number,
  options: AttemptOptions = {},
): Promise<Attempt> {
  const attempt = await attemptDocument(deps, document, signer, sendingCount, options);
  await deps.journal.append({ type: 'sfs-exchange', body: attempt.exchange });
  return attempt;
}
