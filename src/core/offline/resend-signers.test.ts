import { describe, expect, it } from 'vitest';
import { merchantRecord } from '../../../test/support/journal-fixtures.js';
import { FiscalError } from '../fiscal-error.js';
import type { MerchantRecord } from '../journal/records.js';
import type { OpenedKeystore } from '../ports/merchant-keystore.js';
import type { MessageSigner } from '../ports/tax-authority.js';
import { ResendSigners } from './resend-signers.js';

const signer = (name: string): MessageSigner => ({
  certificateDer: new TextEncoder().encode(name),
  sign: () => new Uint8Array(256),
});
const old = merchantRecord({
  certificateSha256: 'aa'.repeat(32),
  notBefore: '2024-01-01T00:00:00+01:00',
  notAfter: '2026-06-30T00:00:00+02:00',
});
const renewed = merchantRecord({
  certificateSha256: 'bb'.repeat(32),
  notBefore: '2026-05-01T00:00:00+02:00',
  notAfter: '2028-05-01T00:00:00+02:00',
});

function setup(now: string, kept: Record<string, MessageSigner>) {
  const records = new Map<number, MerchantRecord>([
    [1, old],
    [5, renewed],
  ]);
  const reopened: string[] = [];
  const signers = new ResendSigners({
    index: {
      currentMerchant: () => ({ recordNo: 5, merchant: renewed }),
      merchantByRecordNo: (no) => records.get(no),
    },
    session: { currentSigner: () => ({ recordNo: 5, merchant: renewed, signer: signer('current') }) },
    keystore: {
      reopen: async (sha) => {
        reopened.push(sha);
        const s = kept[sha];
        if (!s) throw new FiscalError('MERCHANT_CERTIFICATE_ERROR', 'nothing kept');
        return { signer: s } as OpenedKeystore;
      },
    },
    clock: { now: () => new Date(now) },
  });
  return { signers, reopened };
}

const name = (s: MessageSigner) => new TextDecoder().decode(s.certificateDer);

describe('ResendSigners (ADR 0703)', () => {
  it('signs with the certificate of the message while it is valid (its sealed keystore, opened once)', async () => {
    const t = setup('2026-06-01T10:00:00+02:00', { ['aa'.repeat(32)]: signer('old') });
    expect(name(await t.signers.forMerchantRecord(1))).toBe('old');
    expect(name(await t.signers.forMerchantRecord(1))).toBe('old');
    expect(t.reopened).toEqual(['aa'.repeat(32)]);
    expect(name(await t.signers.forMerchantRecord(5))).toBe('current');
  });

  it('after that certificate expired, or without its keystore, signs with the current one', async () => {
    const expired = setup('2026-07-01T10:00:00+02:00', { ['aa'.repeat(32)]: signer('old') });
    expect(name(await expired.signers.forMerchantRecord(1))).toBe('current');
    expect(expired.reopened).toEqual([]);
    const lost = setup('2026-06-01T10:00:00+02:00', {});
    expect(name(await lost.signers.forMerchantRecord(1))).toBe('current');
  });
});
