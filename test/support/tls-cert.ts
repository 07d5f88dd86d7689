import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** A self-signed TLS server certificate for 127.0.0.1 (IP subjectAltName), for HTTPS tests. */
export function loopbackTlsCertificate(): { key: string; cert: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86400_000);
  cert.validity.notAfter = new Date(Date.now() + 86400_000);
  const name = [{ shortName: 'CN', value: '127.0.0.1' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(
    forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    forge.md.sha256.create(),
  );
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: forge.pki.certificateToPem(cert),
  };
}
