import { FiscalError } from '../fiscal-error.js';
import { localParts } from '../time.js';

/** The number a document gets (ADR 0008 §5: one monthly sequence for documents and cash). */
export interface DocumentNumbering {
  /** SFS ReceiptNumber: from 1 in every calendar month of Europe/Bratislava time. */
  sequenceId: number;
  /** `yyyyMM/<sequenceId>` of the same local month. */
  documentNumber: string;
  year: number;
  month: number;
}

/** SFS ReceiptNumber is unsignedInt and the API's sequenceId int32: the smaller bound. */
export const MAX_SEQUENCE_ID = 2_147_483_647;

/** The fiscal instant of a clock reading: whole seconds (SFS dateTime has no fractions). */
export function fiscalInstant(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 1000) * 1000);
}

/** The Europe/Bratislava calendar month an instant belongs to. */
export function fiscalMonth(instant: Date): { year: number; month: number } {
  const t = localParts(instant);
  return { year: t.year, month: t.month };
}

/**
 * Numbers a new document created at `createDate` (SFS §3.3.12: ReceiptNumber ascending within the
 * calendar month, from 1). `lastSequenceId(year, month)` is the highest number already used in
 * that local month (JournalIndex.lastSequenceId), 0 when none — so the sequence restarts at 1 in
 * a new month and never repeats or skips, whatever the host's zone.
 */
export function numberDocument(
  createDate: Date,
  lastSequenceId: (year: number, month: number) => number,
): DocumentNumbering {
  const { year, month } = fiscalMonth(createDate);
  const last = lastSequenceId(year, month);
  if (!Number.isInteger(last) || last < 0) throw new RangeError(`invalid last sequence id ${last}`);
  if (last >= MAX_SEQUENCE_ID) {
    throw new FiscalError('UNKNOWN', `the monthly sequence ${year}-${month} is exhausted`);
  }
  const sequenceId = last + 1;
  return { sequenceId, documentNumber: formatDocumentNumber(year, month, sequenceId), year, month };
}

/** `yyyyMM/<sequenceId>`, e.g. `202603/7`. */
export function formatDocumentNumber(year: number, month: number, sequenceId: number): string {
  return `${String(year).padStart(4, '0')}${String(month).padStart(2, '0')}/${sequenceId}`;
}
