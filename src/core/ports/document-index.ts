import type { IndexedDocument } from './indexed-records.js';
import type { DocumentQuery } from './journal-index.js';

/** The documents role of the journal index: numbering and look-ups (capability 6). */
export interface DocumentIndex {
  /** Highest sequenceId used in the given local month, 0 when none. */
  lastSequenceId(year: number, month: number): number;
  /** Highest documentNo used, 0 when none. */
  lastDocumentNo(): number;
  findDocument(query: DocumentQuery): IndexedDocument | undefined;
  /**
   * The number and creation instant (epoch ms of its `CreateDate`, null when that cannot be read)
   * of the last document that is not set aside — the highest number, passing over set-aside ones
   * (never registered, they block nothing: ADR 0711) — without reading its body: what the clock
   * check of every store compares with (ADR 0117 as amended, ADR 1115).
   */
  lastDocumentCreated(): { documentNo: number; createMs: number | null } | undefined;
  /**
   * What an outcome event names of its document (number, receipt type, external id), read from
   * the row without converting the document: the values `findDocument` gives (ADR 1115).
   */
  documentFacts(documentNo: number): DocumentFacts | undefined;
  /**
   * The last fiscal document (any type) whose original was neither printed nor delivered
   * electronically (print state `pending` or `failed`). Only the last document counts (no fiscal
   * write follows an unprinted one), and a stuck document is not one: it must not be handed over.
   */
  unprintedDocument(): IndexedDocument | undefined;
}

/** A document's number, receipt type and external id, as its record holds them. */
export interface DocumentFacts {
  documentNumber: string;
  type: string;
  externalId?: string;
}
