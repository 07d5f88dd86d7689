import { FiscalError, invalidInput } from '../../fiscal-error.js';
import type { IndexedDocument } from '../../ports/indexed-records.js';
import type { JournalIndex } from '../../ports/journal-index.js';
import { sfsFailure } from '../documents/issue-document.js';

/** What a `document/update` does: repair a stuck document, or answer one already repaired. */
export type RepairTarget =
  | { kind: 'repair'; stuck: IndexedDocument }
  | { kind: 'repaired'; doc: IndexedDocument };

/**
 * Which document `POST /api/document/update` repairs (ADR 0715). Without `internalDocumentId`: the
 * oldest stuck document, as the API text's request has no target (API compatibility). With it, the
 * POS names the document it means, so a repeated request can never fix another one:
 *
 * - the oldest stuck document → repaired;
 * - stuck, but an older one is stuck too → 701 naming the one to repair first (oldest first, ADR 0708);
 * - repaired already and no longer stuck (registered, or queued when the repair's send found no
 *   SFS) → `repaired`: answered as it stands, nothing written, sent or printed (a retry whose
 *   first answer was lost, like a store retried with its Idempotency-Key, ADR 0119);
 * - set aside → its SFS error (`sfsFailure`, ADR 0119 amended);
 * - never rejected → 701 naming `internalDocumentId`; unknown → 506, as `offline/set-aside` answers.
 *
 * @throws FiscalError 500 (no target and nothing stuck), 501/502/601/602 (set aside), 506, 701.
 */
export function repairTarget(
  index: Pick<JournalIndex, 'findDocument' | 'stuckDocuments'>,
  internalDocumentId: number | undefined,
): RepairTarget {
  const oldest = index.stuckDocuments(1)[0];
  if (internalDocumentId === undefined) {
    if (!oldest)
      throw new FiscalError(
        'NO_FIX_NEEDED',
        'No document waits for repair: nothing was rejected by the SFS.',
      );
    return { kind: 'repair', stuck: oldest };
  }
  const doc = index.findDocument({ by: 'documentNo', documentNo: internalDocumentId });
  if (!doc) {
    throw new FiscalError(
      'NOT_FOUND',
      `Document with internalDocumentId ${internalDocumentId} does not exist.`,
    );
  }
  const name = `document ${doc.document.documentNumber} (internalDocumentId ${internalDocumentId})`;
  if (doc.sendState === 'stuck') {
    if (oldest === undefined || oldest.document.documentNo === internalDocumentId) {
      return { kind: 'repair', stuck: doc };
    }
    throw invalidInput(
      'internalDocumentId',
      `${name} waits for repair, but ${describe(oldest)} was rejected before it and must be repaired first: stuck documents are repaired oldest first. Repair that one with {"internalDocumentId": ${oldest.document.documentNo}, "fixDocument": …} (or set it aside with POST /api/offline/set-aside), then this one`,
    );
  }
  if (doc.sendState === 'set-aside') throw sfsFailure(doc);
  const repaired = doc.repairedBy !== undefined;
  if (
    repaired &&
    (doc.sendState === 'online' || doc.sendState === 'offline-sent' || doc.sendState === 'unsent')
  ) {
    return { kind: 'repaired', doc };
  }
  const why =
    doc.sendState === 'online' || doc.sendState === 'offline-sent'
      ? 'is registered with the SFS and was never rejected'
      : doc.sendState === 'not-sent'
        ? 'is not sent by law (Act 384/2025) and was never rejected'
        : 'was not rejected by the SFS: it waits to be sent and the register sends it';
  const next =
    oldest === undefined
      ? 'nothing waits for repair'
      : `the oldest document waiting for repair is ${describe(oldest)}`;
  throw invalidInput('internalDocumentId', `${name} ${why}, so there is nothing to repair; ${next}`);
}

function describe(doc: IndexedDocument): string {
  return `document ${doc.document.documentNumber} (internalDocumentId ${doc.document.documentNo})`;
}
