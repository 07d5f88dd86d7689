import { generateKeyPairSync } from 'node:crypto';
import { openTestCa } from '../../src/adapters/pki/test-ca.js';

/** A register certificate in the eKasa subject form (research §2.2), issued by the test CA in `caDir`. */
export function registerIdentity(caDir: string, dic: string, code: string): { key: string; cert: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = openTestCa(caDir).issue({
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    subject: [
      { shortName: 'CN', value: `VATSK-${dic} POKLADNICA ${code}` },
      { shortName: 'OU', value: code },
      { shortName: 'C', value: 'SK' },
    ],
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86400_000),
    clientAuth: true,
  });
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert };
}
