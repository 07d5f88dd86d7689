import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeySigner } from '../../src/adapters/crypto/key-signer.js';
import { openTestCa, type TestCa } from '../../src/adapters/pki/test-ca.js';

export const TEST_DIC = '1234567890';
export const TEST_REGISTER = '88812345678900001';

export interface TestMerchant {
  ca: TestCa;
  signer: KeySigner;
  certPem: string;
  privateKey: KeyObject;
}

/** A fresh test CA folder. */
export function freshCa(): TestCa {
  return openTestCa(mkdtempSync(join(tmpdir(), 'kasa-sfs-ca-')));
}

/**
 * A merchant certificate in the SFS profile (SFS "Popis identifikačných a autentifikačných údajov"
 * §3.3): CN, OU = register code, organizationIdentifier = VATSK-<DIČ>, issued by `ca` (a fresh one
 * by default).
 */
export function testMerchant(
  options: {
    ca?: TestCa;
    dic?: string;
    register?: string;
    notBefore?: Date;
    notAfter?: Date;
    /** Reuse this key (a certificate renewed with the same key); default a new one. */
    privateKey?: KeyObject;
  } = {},
): TestMerchant {
  const ca = options.ca ?? freshCa();
  const dic = options.dic ?? TEST_DIC;
  const register = options.register ?? TEST_REGISTER;
  const { publicKey, privateKey } = options.privateKey
    ? { publicKey: createPublicKey(options.privateKey), privateKey: options.privateKey }
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  const certPem = ca.issue({
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    subject: [
      { shortName: 'CN', value: `VATSK-${dic} POKLADNICA ${register}` },
      { shortName: 'OU', value: register },
      { type: '2.5.4.97', value: `VATSK-${dic}` },
      { shortName: 'C', value: 'SK' },
    ],
    notBefore: options.notBefore ?? new Date('2019-01-01T00:00:00Z'),
    notAfter: options.notAfter ?? new Date(now + 365 * 86400_000),
    clientAuth: true,
  });
  return { ca, signer: new KeySigner(privateKey, certPem), certPem, privateKey };
}
