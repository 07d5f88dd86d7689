import { centsToNumber, parseCentsText } from '../../documents/decimal.js';
import { invalidInput } from '../../fiscal-error.js';
import type { Clock } from '../../ports/clock.js';
import type { DocumentListIndex, DocumentRange } from '../../ports/document-list-index.js';
import type { IndexedDocument, PrintState, SendState } from '../../ports/journal-index.js';
import { dayRange, localDay } from '../../reports/day-range.js';
import type { ReceiptType } from '../../sfs/message.js';
import { formatApiDateTime, parseSfsDateTime } from '../../time.js';

export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;
const TYPES: readonly ReceiptType[] = ['PD', 'UF', 'ND', 'VK', 'VY'];
const STATES: readonly SendState[] = ['unsent', 'online', 'offline-sent', 'stuck', 'not-sent', 'set-aside'];

/** One row of the document list (`GET /api/documents`, an extension). */
export interface DocumentListItem {
  internalDocumentId: number;
  documentNumber: string;
  type: ReceiptType;
  /** As in the API: negative for a withdrawal (VY) and a refund. */
  amount: number;
  /** `dd.MM.yyyy HH:mm:ss`, Europe/Bratislava. */
  createDate: string;
  externalId?: string;
  okp: string;
  uuid?: string;
  sendState: SendState;
  printState: PrintState;
  sendingCount: number;
}

export interface ListDocumentsInput {
  from?: string | undefined;
  to?: string | undefined;
  /** Comma-separated types, e.g. `PD,UF`. */
  type?: string | undefined;
  /** Comma-separated SFS states, e.g. `unsent,stuck`. */
  state?: string | undefined;
  limit?: number | undefined;
  /** `nextCursor` of the previous page: documents below this internalDocumentId. */
  cursor?: number | undefined;
}

/**
 * `GET /api/documents?from&to&type&state&limit&cursor` (capability 12, ADR 1005): the documents of the CHDÚ,
 * latest first, a page at a time. Read-only.
 */
export class ListDocuments {
  constructor(private readonly deps: { documents: DocumentListIndex; clock: Clock }) {}

  execute(input: ListDocumentsInput): { resultCode: 0; documents: DocumentListItem[]; nextCursor?: number } {
    const limit = input.limit ?? LIST_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) {
      throw invalidInput('limit', `must be a whole number from 1 to ${LIST_MAX_LIMIT}`);
    }
    if (input.cursor !== undefined && (!Number.isInteger(input.cursor) || input.cursor < 1)) {
      throw invalidInput('cursor', 'must be the nextCursor of the previous page');
    }
    const range: DocumentRange = {};
    if (input.from !== undefined || input.to !== undefined) {
      const days = dayRange(input, localDay(this.deps.clock.now()));
      range.from = days.start;
      range.to = days.end;
    }
    if (input.type !== undefined && input.type !== '') {
      const types = input.type.split(',').map((t) => t.trim().toUpperCase());
      const wrong = types.find((t) => !(TYPES as readonly string[]).includes(t));
      if (wrong !== undefined) throw invalidInput('type', `"${wrong}" is not one of ${TYPES.join(', ')}`);
      range.types = types as ReceiptType[];
    }
    if (input.state !== undefined && input.state !== '') {
      const states = input.state.split(',').map((t) => t.trim());
      const wrong = states.find((t) => !(STATES as readonly string[]).includes(t));
      if (wrong !== undefined) throw invalidInput('state', `"${wrong}" is not one of ${STATES.join(', ')}`);
      range.sendStates = states as SendState[];
    }
    const page = this.deps.documents.listDocuments(range, {
      limit: limit + 1,
      ...(input.cursor === undefined ? {} : { beforeDocumentNo: input.cursor }),
    });
    const shown = page.slice(0, limit);
    const last = shown.at(-1);
    return {
      resultCode: 0,
      documents: shown.map(listItem),
      ...(page.length > limit && last ? { nextCursor: last.document.documentNo } : {}),
    };
  }
}

export function listItem(indexed: IndexedDocument): DocumentListItem {
  const doc = indexed.document;
  const type = doc.sfs.ReceiptType;
  const cents = parseCentsText(doc.sfs.Amount) ?? 0;
  const created = parseSfsDateTime(doc.sfs.CreateDate);
  const uuid = indexed.accepted?.id;
  return {
    internalDocumentId: doc.documentNo,
    documentNumber: doc.documentNumber,
    type,
    amount: centsToNumber(type === 'VY' ? -Math.abs(cents) : cents),
    createDate: created ? formatApiDateTime(created) : doc.sfs.CreateDate,
    ...(doc.externalId === undefined ? {} : { externalId: doc.externalId }),
    okp: doc.okp,
    ...(uuid === undefined ? {} : { uuid }),
    sendState: indexed.sendState,
    printState: indexed.printState,
    sendingCount: indexed.sendingCount,
  };
}
