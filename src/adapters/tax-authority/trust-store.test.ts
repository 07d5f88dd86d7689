import { execFileSync, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
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

  it('reads a file up to 1 MiB; refuses a larger one, a FIFO, /dev/zero and a directory at once (ADR 0426)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-trust-'));
    const padded = (bytes: number) => `${ca.certPem}\n${'#'.repeat(bytes - ca.certPem.length - 2)}\n`;
    writeFileSync(join(dir, 'limit.pem'), padded(1_048_576));
    expect(TrustStore.fromFile(join(dir, 'limit.pem')).certificates).toHaveLength(1);
    writeFileSync(join(dir, 'big.pem'), padded(1_048_577));
    execFileSync('mkfifo', [join(dir, 'pipe.pem')]);
    // A writer after 3 s: a regression that reads the FIFO fails on time instead of hanging.
    const writer = spawn('sh', ['-c', 'sleep 3; echo x > "$0"', join(dir, 'pipe.pem')], { stdio: 'ignore' });
    onTestFinished(() => {
      if (writer.exitCode === null) writer.kill('SIGKILL');
    });
    for (const [path, said] of [
      [join(dir, 'big.pem'), 'is larger than the 1 MiB allowed for a PEM file'],
      [join(dir, 'pipe.pem'), 'is a FIFO (named pipe), not a PEM file'],
      ['/dev/zero', 'is a memory device, not a PEM file'],
      [dir, 'is a directory, not a PEM file'],
    ] as const) {
      const started = Date.now();
      expect(() => TrustStore.fromFile(path)).toThrow(`--sfs-trust ${path} ${said}`);
      expect(Date.now() - started, path).toBeLessThan(1000);
    }
  });

  it('refuses a file without certificates', () => {
    expect(() => TrustStore.fromPem('hello')).toThrow(/no PEM certificate/);
    expect(() => TrustStore.fromFile('/nonexistent/trust.pem')).toThrow(/--sfs-trust/);
  });
});
