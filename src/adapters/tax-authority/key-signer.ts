import { type KeyObject, sign, X509Certificate } from 'node:crypto';
import type { MessageSigner } from '../../core/ports/tax-authority.js';

/**
 * A {@link MessageSigner} over a node:crypto private key and its certificate. RSA keys sign with
 * RSASSA-PKCS1-v1_5 by default, which is what both the PKP and the WS-Security signature use.
 * The key stays inside the closure: it is never exposed, logged or serialised.
 */
export class KeySigner implements MessageSigner {
  readonly certificateDer: Uint8Array;
  readonly #key: KeyObject;

  constructor(privateKey: KeyObject, certificate: string | Uint8Array) {
    if (privateKey.type !== 'private') throw new TypeError('KeySigner needs a private key');
    const cert = new X509Certificate(
      typeof certificate === 'string' ? certificate : Buffer.from(certificate),
    );
    if (!cert.checkPrivateKey(privateKey))
      throw new Error('the private key does not belong to the certificate');
    this.#key = privateKey;
    this.certificateDer = new Uint8Array(cert.raw);
  }

  sign(data: Uint8Array): Uint8Array {
    return new Uint8Array(sign('sha256', data, this.#key));
  }
}
