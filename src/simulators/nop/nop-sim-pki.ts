import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCa } from '../../adapters/pki/test-ca.js';

/** A key and certificate (PEM) the simulator keeps next to the test CA. */
export interface PemIdentity {
  key: string;
  cert: string;
  certPath: string;
}

/**
 * The simulator's own TLS server certificate (for 127.0.0.1 and localhost) and the bank's client
 * certificate, both issued by the test CA and kept in the CA folder (keys 0600) so they survive a
 * restart. A missing, foreign or nearly expired pair is replaced.
 */
export function openSimIdentity(ca: TestCa, role: 'server' | 'bank', now: Date): PemIdentity {
  const certPath = join(ca.dir, `nop-${role}-cert.pem`);
  const keyPath = join(ca.dir, `nop-${role}-key.pem`);
  const caCert = new X509Certificate(ca.certPem);
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, 'utf8');
    const key = readFileSync(keyPath, 'utf8');
    const x = new X509Certificate(cert);
    if (
      Date.parse(x.validTo) > now.getTime() + 86400_000 &&
      x.checkIssued(caCert) &&
      x.verify(caCert.publicKey) &&
      x.checkPrivateKey(createPrivateKey(key))
    ) {
      return { key, cert, certPath };
    }
  }
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = ca.issue({
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    subject:
      role === 'server'
        ? [
            { shortName: 'CN', value: 'localhost' },
            { shortName: 'OU', value: 'kasa NOP simulator' },
            { shortName: 'C', value: 'SK' },
          ]
        : [
            { shortName: 'CN', value: 'BANK kasa NOP simulator' },
            { shortName: 'C', value: 'SK' },
          ],
    notBefore: new Date(now.getTime() - 86400_000),
    notAfter: new Date(now.getTime() + 2 * 365 * 86400_000),
    ...(role === 'server' ? { serverNames: ['127.0.0.1', 'localhost', '::1'] } : { clientAuth: true }),
  });
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(keyPath, key, { mode: 0o600 });
  chmodSync(keyPath, 0o600);
  writeFileSync(certPath, cert);
  return { key, cert, certPath };
}

/** Who a verified client certificate belongs to, by its subject CN. */
export type SimClient =
  | { role: 'register'; dic: string; code: string }
  | { role: 'bank' }
  | { role: 'other' };

export function simClientOf(subjectCn: string): SimClient {
  const register = /^VATSK-(\d{10}) POKLADNICA (\d{17})$/.exec(subjectCn);
  if (register) return { role: 'register', dic: register[1]!, code: register[2]! };
  if (subjectCn.startsWith('BANK ')) return { role: 'bank' };
  return { role: 'other' };
}
