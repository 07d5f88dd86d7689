import {
  type IdempotencyScope,
  idempotencyDecision,
  requestFingerprint,
} from '../../documents/idempotency.js';
import type { IndexedDocument, JournalIndex } from '../../ports/journal-index.js';

export interface IdempotentRequest {
  /** What the new document keeps (key + request fingerprint), or undefined without a key. */
  idempotency: { key: string; requestSha256: string } | undefined;
  /** The document an earlier request with the same key and body made: answer it again. */
  replay: IndexedDocument | undefined;
}

/**
 * Looks an `Idempotency-Key` up (capability 6, "Exactly once"): the same key with the same body is a
 * replay of the stored document; the same key with another body is 701 (ADR 0008 §7, thrown by
 * `idempotencyDecision`); a new key goes with the new document into the CHDÚ.
 */
export function idempotentRequest(
  index: JournalIndex,
  scope: IdempotencyScope,
  key: string | undefined,
  rawBody: unknown,
): IdempotentRequest {
  if (key === undefined) return { idempotency: undefined, replay: undefined };
  const idempotency = { key, requestSha256: requestFingerprint(scope, rawBody) };
  const stored = index.findDocument({ by: 'idempotencyKey', key });
  const replay =
    stored && idempotencyDecision(key, idempotency.requestSha256, stored.document) === 'replay'
      ? stored
      : undefined;
  return { idempotency, replay };
}
