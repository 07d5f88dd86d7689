import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshCa, testMerchant } from '../../../test/support/merchant-keys.js';
import { CertificateCache } from './certificate-cache.js';

const der = (pem: string) => new X509Certificate(pem).raw.toString('base64');

describe('CertificateCache', () => {
  it('reads a certificate once and keeps what is computed of it; forgets the oldest past its limit', () => {
    const ca = freshCa();
    const [a, b] = [testMerchant({ ca }), testMerchant({ ca, register: '88812345678900002' })];
    const cache = new CertificateCache(1);
    const first = cache.get(der(a.certPem));
    expect(cache.get(der(a.certPem))).toBe(first);
    let computed = 0;
    const fact = () => cache.fact(first, 'subject', () => ++computed && first.subject);
    expect(fact()).toBe(first.subject);
    expect(fact()).toBe(first.subject);
    expect(computed).toBe(1);
    cache.get(der(b.certPem));
    expect(cache.get(der(a.certPem))).not.toBe(first); // forgotten, read again
    expect(() => cache.get('AAAA')).toThrow();
    // A certificate the cache did not read: computed every time.
    const outside = new X509Certificate(a.certPem);
    cache.fact(outside, 'x', () => ++computed);
    cache.fact(outside, 'x', () => ++computed);
    expect(computed).toBe(3);
  });
});
