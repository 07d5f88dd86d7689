import { Buffer } from 'node:buffer';
import type { MessageSigner } from '../ports/tax-authority.js';
import type { SfsReceiptData } from './message.js';

/** The fields the PKP covers, as written in the message (SFS spec §2.1). */
export type PkpFields = Pick<
  SfsReceiptData,
  'Dic' | 'CashRegisterCode' | 'ReceiptType' | 'ReceiptNumber' | 'CreateDate' | 'Amount'
>;

/** A PKP is RSA-2048 → 256 signature bytes → 344 Base64 characters (spec §3.3.12.35). */
export const PKP_PATTERN = /^[A-Za-z0-9+/]{342}==$/;

/**
 * The PKP base string: `Dic|CashRegisterCode|ReceiptType|ReceiptNumber|CreateDate|Amount`.
 * SFS spec §2.1: CreateDate (not IssueDate) and every value exactly as it is written in the XML,
 * so this takes the message's own strings and never reformats them.
 */
export function pkpBaseString(fields: PkpFields): string {
  return [
    fields.Dic,
    fields.CashRegisterCode,
    fields.ReceiptType,
    fields.ReceiptNumber,
    fields.CreateDate,
    fields.Amount,
  ].join('|');
}

/**
 * Computes the PKP: SHA256withRSA (RSASSA-PKCS1-v1_5) over the UTF-8 base string with the
 * merchant's key, Base64. Computed once when the document is created; re-sends keep it.
 */
export function computePkp(fields: PkpFields, signer: MessageSigner): string {
  const signature = signer.sign(new TextEncoder().encode(pkpBaseString(fields)));
  const pkp = Buffer.from(signature).toString('base64');
  if (!PKP_PATTERN.test(pkp)) {
    // spec §3.3.12.35: cipher RSA2048 — any other key size gives a PKP the SFS refuses.
    throw new RangeError(`PKP must be 344 Base64 characters (RSA-2048), got ${pkp.length}`);
  }
  return pkp;
}
