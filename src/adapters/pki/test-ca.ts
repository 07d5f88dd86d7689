import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

/**
 * A test certification authority kept in a folder (`--ca-dir`). It stands in for the SFS's CAs
 * (I.CA / Disig) in demo mode and tests: `kasa merchant new` issues merchant certificates from it,
 * and the SFS simulator trusts exactly the certificates that chain to it and signs its own
 * responses with a certificate it issues. Files: `ca-cert.pem`, `ca-key.pem` (mode 0600).
 */
export interface TestCa {
  readonly dir: string;
  readonly certPem: string;
  readonly certificate: forge.pki.Certificate;
  /** Issues a certificate for `publicKeyPem`, signed by the CA with SHA-256. */
  issue(request: IssueRequest): string;
}

export interface IssueRequest {
  publicKeyPem: string;
  /** Subject attributes in order, e.g. `[{ shortName: 'CN', value: 'e-Kasa' }]`; `type` for OIDs. */
  subject: Array<{ shortName?: string; type?: string; value: string }>;
  notBefore: Date;
  notAfter: Date;
  /** Extended key usage: client authentication (merchant certificates carry it). */
  clientAuth?: boolean;
  /** A TLS server certificate for these IP addresses / host names (subjectAltName, serverAuth). */
  serverNames?: readonly string[];
}

export const CA_CERT_FILE = 'ca-cert.pem';
const CA_KEY_FILE = 'ca-key.pem';

/** Opens the CA in `dir`, creating it (RSA-2048, 20 years) on first use. */
export function openTestCa(dir: string, now: Date = new Date()): TestCa {
  const certPath = join(dir, CA_CERT_FILE);
  const keyPath = join(dir, CA_KEY_FILE);
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    mkdirSync(dir, { recursive: true });
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(now.getTime() - 24 * 3600_000);
    cert.validity.notAfter = new Date(now.getTime() + 20 * 365 * 24 * 3600_000);
    const name = [
      { shortName: 'CN', value: 'kasa TEST eKasa CA' },
      { shortName: 'O', value: 'kasa test' },
      { shortName: 'C', value: 'SK' },
    ];
    cert.setSubject(name);
    cert.setIssuer(name);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(key, forge.md.sha256.create());
    writeFileSync(keyPath, forge.pki.privateKeyToPem(key), { mode: 0o600 });
    chmodSync(keyPath, 0o600);
    writeFileSync(certPath, forge.pki.certificateToPem(cert));
  }
  const certPem = readFileSync(certPath, 'utf8');
  const certificate = forge.pki.certificateFromPem(certPem);
  const caKey = forge.pki.privateKeyFromPem(readFileSync(keyPath, 'utf8'));
  const caKeyId = certificate.generateSubjectKeyIdentifier().getBytes();

  return {
    dir,
    certPem,
    certificate,
    issue(request) {
      const cert = forge.pki.createCertificate();
      cert.publicKey = forge.pki.publicKeyFromPem(request.publicKeyPem);
      cert.serialNumber = serial();
      cert.validity.notBefore = request.notBefore;
      cert.validity.notAfter = request.notAfter;
      cert.setSubject(request.subject);
      cert.setIssuer(certificate.subject.attributes);
      cert.setExtensions([
        { name: 'basicConstraints', cA: false },
        request.serverNames
          ? { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true }
          : { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
        ...(request.clientAuth || request.serverNames
          ? [
              {
                name: 'extKeyUsage',
                clientAuth: request.clientAuth === true,
                serverAuth: request.serverNames !== undefined,
              },
            ]
          : []),
        ...(request.serverNames
          ? [
              {
                name: 'subjectAltName',
                altNames: request.serverNames.map((n) =>
                  /^[0-9.]+$|:/.test(n) ? { type: 7, ip: n } : { type: 2, value: n },
                ),
              },
            ]
          : []),
        { name: 'subjectKeyIdentifier' },
        { name: 'authorityKeyIdentifier', keyIdentifier: caKeyId },
      ]);
      cert.sign(caKey, forge.md.sha256.create());
      return forge.pki.certificateToPem(cert);
    },
  };
}

/** A positive 16-byte serial (leading byte < 0x80 so DER keeps it positive). */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return bytes.toString('hex');
}
