import type { DocumentRecord, SfsExchangeRecord } from '../../journal/records.js';
import type { MessageSigner, SfsOutcome } from '../../ports/tax-authority.js';
import { formatSfsDateTime } from '../../time.js';
import type { DocumentDeps } from './document-deps.js';

/**
 * One send attempt of a stored document (SFS spec §1.9): a new Uuid, RequestDate and signature
 * every time, the same PKP, OKP, CreateDate and ReceiptNumber; the outcome is written into the
 * journal as an `sfs-exchange` record before anything else happens with it.
 */
export async function sendDocumentAttempt(
  deps: Pick<DocumentDeps, 'journal' | 'sfs' | 'sfsTimeoutMs' | 'swId' | 'sfsHealth' | 'clock' | 'ids'>,
  document: DocumentRecord,
  signer: MessageSigner,
  sendingCount: number,
): Promise<{ outcome: SfsOutcome; exchange: SfsExchangeRecord }> {
  const requestUuid = deps.ids.uuid();
  const requestDate = formatSfsDateTime(deps.clock.now());
  const outcome = await deps.sfs.registerReceipt(
    {
      header: {
        Uuid: requestUuid,
        RequestDate: requestDate,
        SwId: deps.swId(),
        SendingCount: String(sendingCount),
        Exception: document.exception ? 'true' : 'false',
      },
      data: document.sfs,
      pkp: document.pkp,
      okp: document.okp,
    },
    signer,
    { timeoutMs: deps.sfsTimeoutMs },
  );
  deps.sfsHealth.record(outcome, deps.clock.now());
  const exchange: SfsExchangeRecord = {
    subject: { kind: 'document', documentNo: document.documentNo },
    requestUuid,
    requestDate,
    sendingCount,
    outcome: outcome.kind,
  };
  switch (outcome.kind) {
    case 'accepted':
      if (outcome.id !== undefined) exchange.id = outcome.id;
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
  await deps.journal.append({ type: 'sfs-exchange', body: exchange });
  return { outcome, exchange };
}
