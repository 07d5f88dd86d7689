import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';

/** OKP lexical pattern (spec §3.3.12.36): 5 groups of 8 hex digits, either case. */
export const OKP_PATTERN = /^[0-9a-fA-F]{8}(-[0-9a-fA-F]{8}){4}$/;

/**
 * The OKP from a PKP: SHA-1 of the raw PKP signature bytes (Base64-decoded first, never the
 * Base64 text), 40 hex digits split into 5 groups of 8 (SFS spec §2.2).
 *
 * Always lower case (ADR 0302): the official samples and real receipts use lower case, and the
 * same text is sent, stored, printed and put into the offline QR code.
 */
export function okpFromPkp(pkpBase64: string): string {
  const hex = createHash('sha1').update(Buffer.from(pkpBase64, 'base64')).digest('hex');
  return hex.match(/.{8}/g)!.join('-');
}

/** Whether `okp` is the OKP of `pkpBase64` (case-insensitive, as the SFS pattern allows both). */
export function okpMatches(okp: string, pkpBase64: string): boolean {
  return OKP_PATTERN.test(okp) && okp.toLowerCase() === okpFromPkp(pkpBase64);
}
