import { apiAmount } from '../../documents/api-document.js';
import type {
  DocumentRecord,
  JournalRecord,
  RepairRecord,
  SfsExchangeRecord,
} from '../../journal/records.js';
import type { DocumentFacts } from '../../ports/document-index.js';
import type { NewRegisterEvent } from '../../ports/register-events.js';

/**
 * The document events a journal record stands for (ADR 0805). Events are derived from records,
 * at the moment a record is durable in the CHDÚ, so an event never announces something the CHDÚ
 * does not hold, and every writer — store, cash, a background resend, a repair — publishes them
 * without a line of its own.
 *
 * - `document` record → `document.stored`
 * - `sfs-exchange` of a document: `accepted` → `document.registered`; `unreachable` or
 *   `invalid-response` → `document.offline`; `rejected`, `duplicate`, `unverified` →
 *   `document.rejected` (stuck until repaired, as the index derives it: ADR 0105)
 * - `repair` of a document with `setAside` → `document.set-aside` (ADR 0711); other repairs publish
 *   nothing themselves: the resend they lead to publishes its outcome
 * - anything else (locations, prints, `sfs-attempt` records before a resend, …) → nothing
 */
export function documentEvents(
  record: JournalRecord,
  facts: (documentNo: number) => DocumentFacts | undefined,
): NewRegisterEvent[] {
  if (record.type === 'document') return [stored(record.body, record.recordNo)];
  if (record.type === 'sfs-exchange' && record.body.subject.kind === 'document') {
    return [sent(record.body, record.body.subject.documentNo, facts, record.recordNo)];
  }
  if (record.type === 'repair' && record.body.setAside && record.body.subject.kind === 'document') {
    return [setAside(record.body, record.body.subject.documentNo, facts, record.recordNo)];
  }
  return [];
}

function stored(d: DocumentRecord, recordNo: number): NewRegisterEvent {
  return {
    type: 'document.stored',
    data: {
      internalDocumentId: d.documentNo,
      documentNumber: d.documentNumber,
      type: d.sfs.ReceiptType,
      // The API's amount: a withdrawal (VY) is negative, as POST /api/cash answers it.
      amount: apiAmount(d),
      okp: d.okp,
      ...(d.externalId === undefined ? {} : { externalId: d.externalId }),
      ...(d.notSent ? { notSent: true } : {}),
      recordNo,
    },
  };
}

function sent(
  x: SfsExchangeRecord,
  documentNo: number,
  facts: (documentNo: number) => DocumentFacts | undefined,
  recordNo: number,
): NewRegisterEvent {
  const f = facts(documentNo);
  const base = {
    internalDocumentId: documentNo,
    ...(f ? { documentNumber: f.documentNumber, type: f.type } : {}),
    ...(f?.externalId === undefined ? {} : { externalId: f.externalId }),
    sendingCount: x.sendingCount,
    recordNo,
  };
  switch (x.outcome) {
    case 'accepted':
      return {
        type: 'document.registered',
        data: {
          ...base,
          ...(x.id ? { uuid: x.id } : {}),
          ...(x.processDate ? { processDate: x.processDate } : {}),
        },
      };
    case 'unreachable':
    case 'invalid-response':
      return { type: 'document.offline', data: { ...base, outcome: x.outcome, reason: x.errorText ?? '' } };
    default:
      return {
        type: 'document.rejected',
        data: {
          ...base,
          outcome: x.outcome,
          ...(x.errorCode === undefined ? {} : { errorCode: x.errorCode }),
          errorText: x.errorText ?? '',
        },
      };
  }
}

function setAside(
  r: RepairRecord,
  documentNo: number,
  facts: (documentNo: number) => DocumentFacts | undefined,
  recordNo: number,
): NewRegisterEvent {
  const f = facts(documentNo);
  const aside = r.setAside!;
  return {
    type: 'document.set-aside',
    data: {
      internalDocumentId: documentNo,
      ...(f ? { documentNumber: f.documentNumber, type: f.type } : {}),
      ...(f?.externalId === undefined ? {} : { externalId: f.externalId }),
      reason: aside.reason,
      errorCode: aside.errorCode,
      errorText: aside.errorText,
      recordNo,
    },
  };
}
