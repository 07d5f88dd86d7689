import { createHash, type KeyObject, sign, X509Certificate } from 'node:crypto';
import type { MessageSigner } from '../../core/ports/tax-authority.js';

/**
 * The one {@link MessageSigner} over a node:crypto private key and its certificate:
 * RSASSA-PKCS1-v1_5 with SHA-256, which both the PKP (SFS spec §2.1) and the WS-Security
 * rsa-sha256 signature (§1.3) use. Whether the key belongs to the certificate is the caller's
 * rule (the merchant keystore answers 402 for a mismatch). The key is held privately and never
 * exposed: `toJSON` and `inspect` show only the certificate fingerprint, so a
 * signer that ends up in a log line or a response leaks nothing.
 */
export class KeySigner implements MessageSigner {
  readonly certificateDer: Uint8Array;
  readonly #key: KeyObject;
  readonly #label: string;

  /** `certificate`: PEM text or DER bytes. */
  constructor(privateKey: KeyObject, certificate: string | Uint8Array) {
    if (privateKey.type !== 'private') throw new TypeError('KeySigner needs a private key');
    const cert = new X509Certificate(
      typeof certificate === 'string' ? certificate : Buffer.from(certificate),
    );
    this.#key = privateKey;
    tlsKeys.set(this, privateKey);
    this.certificateDer = new Uint8Array(cert.raw);
    this.#label = `KeySigner(certificate sha256 ${createHash('sha256').update(cert.raw).digest('hex')})`;
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

/** Keys of the signers made here, for {@link tlsClientCredentials} only (never exported otherwise). */
const tlsKeys = new WeakMap<KeySigner, KeyObject>();

/**
 * The signer's certificate and key as PEM text for a TLS client identity (NOP's mutual TLS, ADR
 * 0906: the eKasa certificate authenticates the register). Node's TLS takes no KeyObject, so the
 * key is exported into memory here, handed to `tls`/`https` and never logged, returned to a
 * client or written anywhere. Undefined for a signer not made by this module.
 */
export function tlsClientCredentials(signer: MessageSigner): { key: string; cert: string } | undefined {
  const key = signer instanceof KeySigner ? tlsKeys.get(signer) : undefined;
  if (!key) return undefined;
  return {
    key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: new X509Certificate(Buffer.from(signer.certificateDer)).toString(),
  };
}
