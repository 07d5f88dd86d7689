import type { ReceiptForm } from '../journal/records.js';
import { handedOver } from '../offline/fix-document.js';
import type { IndexedDocument } from '../ports/indexed-records.js';

/** The form a document's receipts take, with the UID when it is the UID form. */
export type ReceiptFormOf = { form: 'uid'; uid: string } | { form: Exclude<ReceiptForm, 'uid'> };

/**
 * The form of a document's receipts (ADR 0713): every receipt of a document — the original, a
 * resumed print of it, its copies, its electronic receipt — shows what the original the customer
 * holds shows.
 *
 * - Handed over (ADR 0712) with its form recorded: that form, for good. An original printed offline
 *   stays offline on its copies after the SFS registered it; one printed with its UID stays so.
 * - Not handed over yet: the form of this moment. A document that has a UID is printed with it and
 *   its QR (SFS spec §2.10) — also one registered only by a resend or a repair, since the SFS holds
 *   it under that UID; one without is printed offline, with PKP and the offline QR (§2.9).
 * - A VK/VY not sent by law: neither (Act 384/2025, ADR 0515).
 * - Handed over before print records said their form: the rule of that time (the UID form only
 *   when registered by the first attempt), which is what that paper shows.
 */
export function receiptFormOf(
  doc: Pick<IndexedDocument, 'sendState' | 'accepted' | 'printState' | 'printStarted' | 'receiptForm'>,
): ReceiptFormOf {
  const uid = doc.accepted?.id;
  const kept = doc.receiptForm;
  if (kept === 'uid' && uid !== undefined) return { form: 'uid', uid };
  if (kept === 'offline' || kept === 'not-sent') return { form: kept };
  if (doc.sendState === 'not-sent') return { form: 'not-sent' };
  if (uid === undefined) return { form: 'offline' };
  // Handed over, its form not recorded (print records older than ADR 0713): the rule of then.
  if (handedOver(doc) && doc.sendState !== 'online') return { form: 'offline' };
  return { form: 'uid', uid };
}
