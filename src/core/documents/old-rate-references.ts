import { invalidInput } from '../fiscal-error.js';
import type { DocumentQuery } from '../ports/journal-index.js';
import { formatApiDateTime } from '../time.js';
import type { ValidatedItem } from './store-request.js';

/**
 * 1 Jan 2025 00:00 in Bratislava: supplies from this instant are taxed at 23 / 19 / 5 %. The old
 * 20 % and 10 % stay only for refunds and corrections of supplies made before it (VAT act § 85 as
 * amended by Act 278/2024; ADR 0430).
 */
export const NEW_VAT_RATES_FROM: Date = new Date('2024-12-31T23:00:00Z'); // 2025-01-01T00:00:00+01:00

/**
 * When the sale a `referenceDocumentId` names was made (its SFS IssueDate), if it is a document of
 * this register; undefined when the reference names nothing the register holds.
 */
export type ReferencedSaleDate = (reference: string) => Date | undefined;

const OKP = /^[0-9a-f]{8}(-[0-9a-f]{8}){4}$/i;
const DOCUMENT_NUMBER = /^(\d{4})(\d{2})\/(\d{1,10})$/;

/**
 * The one index look-up a `referenceDocumentId` can match a document of this register by: the UID
 * the SFS gave it (`O-…`, any case: ADR 0113), its OKP (any case: SFS spec §2.2) or kasa's document
 * number `yyyyMM/<sequenceId>` — the values SFS spec §3.3.12 lets ReferenceReceiptId carry and the
 * answer of `POST /api/document/get` shows. Anything else (a bare receipt number of an old register,
 * a paper document) matches no document of this register: undefined, and no look-up is made.
 */
export function referenceQuery(reference: string): DocumentQuery | undefined {
  if (/^O-/i.test(reference)) return { by: 'uuid', uuid: reference };
  if (OKP.test(reference)) return { by: 'okp', okp: reference };
  const number = DOCUMENT_NUMBER.exec(reference);
  if (number) {
    const [year, month, sequenceId] = [Number(number[1]), Number(number[2]), Number(number[3])];
    if (month >= 1 && month <= 12 && sequenceId >= 1) return { by: 'sequenceId', sequenceId, month, year };
  }
  return undefined;
}

/**
 * ADR 0430: an item at an old rate (VAT_20 / VAT_10, allowed only on REFUND and UPDATE) whose
 * reference is a document of this register sold on or after 1 Jan 2025 is refused, naming its
 * `vatRate`: that sale was taxed at the 2025 rates, and a refund or correction takes the rate of
 * the sale it corrects. A reference the register does not hold stays accepted (it cannot be
 * checked). Only references of old-rate items are looked up, each distinct one once.
 */
export function checkOldRateReferences(items: readonly ValidatedItem[], saleDate: ReferencedSaleDate): void {
  const dates = new Map<string, Date | undefined>();
  items.forEach((item, i) => {
    const reference = item.referenceDocumentId;
    if (!item.vatRate.legacy || reference === undefined) return;
    if (!dates.has(reference)) dates.set(reference, saleDate(reference));
    const sold = dates.get(reference);
    if (sold === undefined || sold.getTime() < NEW_VAT_RATES_FROM.getTime()) return;
    throw invalidInput(
      `documentEntries[${i}].vatRate`,
      `${item.vatRate.name} is a pre-2025 rate, but the referenced document ${reference} of this register was issued on ${formatApiDateTime(sold)}, when the 2025 rates (23 %, 19 %, 5 %) applied: a ${item.itemType.api} takes the rate of the sale it corrects (VAT act § 85 as amended by Act 278/2024)`,
    );
  });
}
