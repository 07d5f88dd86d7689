import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { canonicalJson, idempotencyDecision, readIdempotencyKey, requestFingerprint } from './idempotency.js';
import { thrownBy } from './test-support.js';

const expect701 = (fn: () => unknown) => {
  const e = thrownBy(fn);
  expect(e).toBeInstanceOf(FiscalError);
  expect((e as FiscalError).resultCode).toBe(701);
  expect((e as FiscalError).details?.field).toBe('Idempotency-Key');
};

describe('canonical request fingerprint', () => {
  it('ignores key order and white space, keeps array order', () => {
    const a = JSON.parse(
      '{"type":"PD","amount":1.5,"payments":{"Cash":1.5,"Card":0},"documentEntries":[{"name":"a"},{"name":"b"}]}',
    );
    const b = JSON.parse(
      '{ "payments": {"Card": 0, "Cash": 1.50}, "documentEntries": [{"name":"a"},{"name":"b"}], "amount": 1.5, "type": "PD" }',
    );
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe(
      '{"amount":1.5,"documentEntries":[{"name":"a"},{"name":"b"}],"payments":{"Card":0,"Cash":1.5},"type":"PD"}',
    );
    expect(requestFingerprint('document/store', a)).toBe(requestFingerprint('document/store', b));
    const reordered = { ...a, documentEntries: [{ name: 'b' }, { name: 'a' }] };
    expect(requestFingerprint('document/store', reordered)).not.toBe(requestFingerprint('document/store', a));
  });

  it('is a SHA-256 hex, scoped to the endpoint', () => {
    expect(requestFingerprint('cash', { amount: 100 })).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint('cash', { amount: 100 })).not.toBe(
      requestFingerprint('document/store', { amount: 100 }),
    );
    expect(requestFingerprint('cash', { amount: 100 })).not.toBe(
      requestFingerprint('cash', { amount: 100.01 }),
    );
  });

  it('drops undefined members as JSON does', () => {
    expect(canonicalJson({ a: 1, b: undefined, c: [undefined, null] })).toBe('{"a":1,"c":[null,null]}');
  });
});

describe('Idempotency-Key decisions (ADR 0008 §7)', () => {
  const fp = requestFingerprint('cash', { amount: 100 });
  const named = { documentNumber: '202611/3', documentNo: 3 };
  const stored = { idempotency: { key: 'k-1', requestSha256: fp }, ...named };

  it('new when no document has the key, replay for the same body', () => {
    expect(idempotencyDecision('k-1', fp, undefined)).toBe('new');
    expect(idempotencyDecision('k-1', fp, named)).toBe('new');
    expect(idempotencyDecision('k-1', fp, stored)).toBe('replay');
  });

  it('701 for the same key with another body', () => {
    expect701(() => idempotencyDecision('k-1', requestFingerprint('cash', { amount: 200 }), stored));
  });

  it('the 701 names the document the key made, so the POS can look it up (ADR 0010)', () => {
    const e = thrownBy(() => idempotencyDecision('k-1', requestFingerprint('cash', { amount: 200 }), stored));
    expect(e).toBeInstanceOf(FiscalError);
    expect((e as FiscalError).details).toEqual({
      field: 'Idempotency-Key',
      documentNumber: '202611/3',
      internalDocumentId: 3,
    });
    // ADR 0008 §7's text, as DECISIONS fixes it; the document is in the members only.
    expect((e as FiscalError).message).toBe('Idempotency-Key already used for a different request');
  });

  it('validates the header: 1–100 printable ASCII', () => {
    expect(readIdempotencyKey(undefined)).toBeUndefined();
    expect(readIdempotencyKey('a'.repeat(100))).toBe('a'.repeat(100));
    expect701(() => readIdempotencyKey('a'.repeat(101)));
    expect701(() => readIdempotencyKey(''));
    expect701(() => readIdempotencyKey(' padded'));
    expect701(() => readIdempotencyKey('kľúč'));
    expect701(() => readIdempotencyKey(['a', 'b']));
  });
});
