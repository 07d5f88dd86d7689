import { createHash } from 'node:crypto';
import { FiscalError, invalidInput } from '../fiscal-error.js';
import { LIMITS } from './limits.js';

/** The endpoints that honour `Idempotency-Key` (a key is scoped to its endpoint, ADR 0407). */
export type IdempotencyScope = 'document/store' | 'cash';

/**
 * Canonical JSON of a request body: object keys sorted (by UTF-16 code units), no white space,
 * `undefined` members dropped as JSON.stringify does, arrays in order, numbers in their shortest
 * form. Two bodies that mean the same JSON give the same text whatever their key order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 (hex) of the endpoint scope and the canonical body: `DocumentRecord.idempotency.requestSha256`. */
export function requestFingerprint(scope: IdempotencyScope, body: unknown): string {
  return createHash('sha256')
    .update(`${scope}\n${canonicalJson(body)}`, 'utf8')
    .digest('hex');
}

/**
 * The `Idempotency-Key` header: absent → undefined; otherwise 1–100 printable ASCII characters
 * (HTTP header value), else 701 naming `Idempotency-Key`.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw invalidInput('Idempotency-Key', 'must be sent once');
  if (header.length < 1 || header.length > LIMITS.idempotencyKeyMaxChars) {
    throw invalidInput('Idempotency-Key', `must be 1–${LIMITS.idempotencyKeyMaxChars} characters`);
  }
  if (!/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(header)) {
    throw invalidInput('Idempotency-Key', 'must be printable ASCII without leading or trailing spaces');
  }
  return header;
}

/** What of the stored document the decision reads: its key, and how to name it in a conflict. */
export interface KeyedDocument {
  idempotency?: { key: string; requestSha256: string } | undefined;
  documentNumber: string;
  documentNo: number;
}

/**
 * Decides a request carrying `key`: `new` when no stored document has the key; `replay` when the
 * stored document was made from the same body (answer it again: nothing is written, sent or
 * printed); a FiscalError 701 when the key was used for a different request (ADR 0008 §7), naming
 * that document (ADR 0010).
 */
export function idempotencyDecision(
  key: string,
  fingerprint: string,
  stored: KeyedDocument | undefined,
): 'new' | 'replay' {
  if (stored === undefined || stored.idempotency === undefined) return 'new';
  if (stored.idempotency.key !== key) return 'new';
  if (stored.idempotency.requestSha256 === fingerprint) return 'replay';
  // ADR 0008 §7 fixes the text; ADR 0010: the document the key made is named in the members, so
  // the POS can look it up. Which member differs cannot be said: only a fingerprint is kept.
  const { documentNumber, documentNo } = stored;
  throw new FiscalError('INVALID_INPUT', 'Idempotency-Key already used for a different request', {
    field: 'Idempotency-Key',
    documentNumber,
    internalDocumentId: documentNo,
  });
}
