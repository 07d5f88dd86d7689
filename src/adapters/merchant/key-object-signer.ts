import { type KeyObject, sign } from 'node:crypto';
import type { MessageSigner } from '../../core/ports/tax-authority.js';

/**
 * A {@link MessageSigner} over a node:crypto private KeyObject: RSASSA-PKCS1-v1_5 with SHA-256
 * (PKP, SFS spec §2.1; WS-Security rsa-sha256, §1.3). The key object is held privately and is
 * never serialised: `toJSON` and `inspect` show only the certificate fingerprint.
 */
export class KeyObjectSigner implements MessageSigner {
  readonly certificateDer: Uint8Array;
  readonly #key: KeyObject;
  readonly #label: string;

  constructor(key: KeyObject, certificateDer: Uint8Array, certificateSha256: string) {
    if (key.type !== 'private') throw new TypeError('KeyObjectSigner needs a private key');
    this.#key = key;
    this.certificateDer = certificateDer;
    this.#label = `KeyObjectSigner(certificate sha256 ${certificateSha256})`;
  }

  sign(data: Uint8Array): Uint8Array {
    return new Uint8Array(sign('sha256', data, this.#key));
  }

  toJSON(): string {
    return this.#label;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.#label;
  }
}
