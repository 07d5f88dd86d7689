import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether Debian's xmlsec1 is installed (the independent XMLDSig verifier of the tests). */
export const hasXmlsec1 = spawnSync('xmlsec1', ['--version']).status === 0;
export const XMLSEC_MISSING = 'xmlsec1 not installed (apt-get install xmlsec1)';

/**
 * Runs `xmlsec1 --verify --pubkey-cert-pem CERT --id-attr:Id <soap12>:Body FILE` (the command
 * docs/sfs.md gives) on exact bytes; true when xmlsec1 answers OK.
 */
export function xmlsecVerifies(xml: string | Buffer, certificate: string | Uint8Array): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-xmlsec-'));
  const pem =
    typeof certificate === 'string' ? certificate : new X509Certificate(Buffer.from(certificate)).toString();
  writeFileSync(join(dir, 'cert.pem'), pem);
  writeFileSync(join(dir, 'message.xml'), xml);
  const result = spawnSync(
    'xmlsec1',
    [
      '--verify',
      '--pubkey-cert-pem',
      join(dir, 'cert.pem'),
      '--id-attr:Id',
      'http://www.w3.org/2003/05/soap-envelope:Body',
      join(dir, 'message.xml'),
    ],
    { encoding: 'utf8' },
  );
  return result.status === 0 && /^OK$/m.test(result.stderr + result.stdout);
}
