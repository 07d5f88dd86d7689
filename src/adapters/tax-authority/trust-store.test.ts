import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCa, testMerchant } from '../../../test/support/merchant-keys.js';
import { TrustStore } from './trust-store.js';

describe('TrustStore (--sfs-trust)', () => {
  const ca = freshCa();
  const leaf = new X509Certificate(testMerchant({ ca }).certPem);
  const now = new Date();

  it('trusts a certificate issued by a CA in the file', () => {
    expect(TrustStore.fromPem(ca.certPem).check(leaf, now)).toEqual({ trusted: true });
  });

  it('trusts a leaf listed itself, among several certificates', () => {
    const other = freshCa();
    const dir = mkdtempSync(join(tmpdir(), 'kasa-trust-'));
    writeFileSync(join(dir, 'trust.pem'), `${other.certPem}\n${leaf.toString()}`);
    const store = TrustStore.fromFile(join(dir, 'trust.pem'));
    expect(store.certificates.length).toBe(2);
    expect(store.check(leaf, now).trusted).toBe(true);
    writeFileSync(join(dir, 'ca.pem'), ca.certPem);
    expect(TrustStore.fromFiles([join(dir, 'trust.pem'), join(dir, 'ca.pem')]).certificates.length).toBe(3);
  });

  it('does not trust a certificate of another CA, nor a leaf used as if it were a CA', () => {
    expect(TrustStore.fromPem(freshCa().certPem).check(leaf, now).trusted).toBe(false);
    const sibling = new X509Certificate(testMerchant({ ca }).certPem);
    expect(TrustStore.fromPem(sibling.toString()).check(leaf, now).trusted).toBe(false);
  });

  it('does not trust an expired certificate even when listed', () => {
    const expired = new X509Certificate(
      testMerchant({ ca, notAfter: new Date(Date.now() - 60_000) }).certPem,
    );
    expect(TrustStore.fromPem(expired.toString()).check(expired, now).trusted).toBe(false);
  });

  it('refuses a file without certificates', () => {
    expect(() => TrustStore.fromPem('hello')).toThrow(/no PEM certificate/);
    expect(() => TrustStore.fromFile('/nonexistent/trust.pem')).toThrow(/--sfs-trust/);
  });
});
