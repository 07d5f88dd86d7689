import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestCa } from './test-ca.js';

describe('test CA', () => {
  it('creates a CA once and issues certificates that chain to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-ca-'));
    const ca = openTestCa(dir);
    const again = openTestCa(dir);
    expect(again.certPem).toBe(ca.certPem);

    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = new Date();
    const pem = ca.issue({
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      subject: [
        { shortName: 'CN', value: 'VATSK-1234567890 POKLADNICA 88812345678900001' },
        { shortName: 'OU', value: '88812345678900001' },
        { type: '2.5.4.97', value: 'VATSK-1234567890' },
        { shortName: 'C', value: 'SK' },
      ],
      notBefore: now,
      notAfter: new Date(now.getTime() + 86400_000),
      clientAuth: true,
    });
    const leaf = new X509Certificate(pem);
    expect(leaf.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(leaf.subject).toContain('OU=88812345678900001');

    const leafPath = join(dir, 'leaf.pem');
    writeFileSync(leafPath, pem);
    const out = execFileSync('openssl', ['verify', '-CAfile', join(dir, 'ca-cert.pem'), leafPath]).toString();
    expect(out.trim()).toBe(`${leafPath}: OK`);
  });
});
