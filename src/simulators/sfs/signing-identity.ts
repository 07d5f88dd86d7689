import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { KeySigner } from '../../adapters/crypto/key-signer.js';
import type { TestCa } from '../../adapters/pki/test-ca.js';

/** ADR 0008 §1: the simulator's response-signing certificate, next to the test CA. */
export const SIGNING_CERT_FILE = 'sfs-signing-cert.pem';
const SIGNING_KEY_FILE = 'sfs-signing-key.pem';

export interface SigningIdentity {
  signer: KeySigner;
  certPem: string;
  certPath: string;
}

/**
 * The key and certificate the simulator signs its responses with, issued by the test CA and kept
 * in the CA folder (key 0600) so a kasa that trusts the leaf keeps trusting it across restarts.
 * A missing, foreign or soon-expiring pair is replaced.
 */
export function openSigningIdentity(ca: TestCa, now: Date): SigningIdentity {
  const certPath = join(ca.dir, SIGNING_CERT_FILE);
  const keyPath = join(ca.dir, SIGNING_KEY_FILE);
  const caCert = new X509Certificate(ca.certPem);
  if (existsSync(certPath) && existsSync(keyPath)) {
    const certPem = readFileSync(certPath, 'utf8');
    const cert = new X509Certificate(certPem);
    const key = createPrivateKey(readFileSync(keyPath, 'utf8'));
    const stillValid =
      Date.parse(cert.validTo) > now.getTime() + 86400_000 && Date.parse(cert.validFrom) <= now.getTime();
    if (
      stillValid &&
      cert.checkIssued(caCert) &&
      cert.verify(caCert.publicKey) &&
      cert.checkPrivateKey(key)
    ) {
      return { signer: new KeySigner(key, certPem), certPem, certPath };
    }
  }
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certPem = ca.issue({
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    // The shape of the integration SFS certificate subject (SFS spec §2.8).
    subject: [
      { shortName: 'CN', value: 'e-Kasa' },
      { shortName: 'OU', value: 'kasa SFS simulator' },
      { shortName: 'C', value: 'SK' },
    ],
    notBefore: new Date(now.getTime() - 86400_000),
    notAfter: new Date(now.getTime() + 2 * 365 * 86400_000),
  });
  writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  chmodSync(keyPath, 0o600);
  writeFileSync(certPath, certPem);
  return { signer: new KeySigner(privateKey, certPem), certPem, certPath };
}

/**
 * A signer whose self-signed certificate chains to nothing kasa trusts: the simulator's
 * `untrusted-signature` fault. Kept in memory only.
 */
export function untrustedSigner(now: Date): KeySigner {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '0badc0de';
  cert.validity.notBefore = new Date(now.getTime() - 86400_000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * 86400_000);
  const name = [
    { shortName: 'CN', value: 'e-Kasa' },
    { shortName: 'OU', value: 'not the SFS' },
    { shortName: 'C', value: 'SK' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.sign(
    forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    forge.md.sha256.create(),
  );
  return new KeySigner(privateKey, forge.pki.certificateToPem(cert));
}
