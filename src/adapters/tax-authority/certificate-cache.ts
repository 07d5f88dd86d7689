import { X509Certificate } from 'node:crypto';

/**
 * X.509 certificates read from SOAP messages (a BinarySecurityToken's Base64 DER), parsed once:
 * a register and the SFS exchange the same one or two certificates message after message, so each
 * is read once and the checks made of it that do not depend on the time are kept beside it.
 * Bounded: the oldest of more than `limit` certificates is forgotten (read again when it returns).
 */
export class CertificateCache {
  readonly #entries = new Map<string, { certificate: X509Certificate; facts: Map<string, unknown> }>();
  readonly #byCertificate = new WeakMap<X509Certificate, Map<string, unknown>>();

  constructor(private readonly limit = 16) {}

  /**
   * The certificate kept under exactly this text by {@link get}, or undefined. A message's token
   * text is looked up as it stands: the same text is the same Base64 once its white space is
   * removed, so the checks the caller made of it before keeping it (Base64 alphabet) hold again.
   */
  known(text: string): X509Certificate | undefined {
    return this.#entries.get(text)?.certificate;
  }

  /**
   * The certificate of `base64` DER, kept under `text` (default: `base64` itself; e.g. the token's
   * text as it stood in the message, white space included); throws as `new X509Certificate` does
   * for bytes that are not one.
   */
  get(base64: string, text: string = base64): X509Certificate {
    const known = this.#entries.get(text);
    if (known) return known.certificate;
    const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
    const facts = new Map<string, unknown>();
    this.#entries.set(text, { certificate, facts });
    this.#byCertificate.set(certificate, facts);
    if (this.#entries.size > this.limit) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return certificate;
  }

  /**
   * `compute()` once per certificate and `name` (a fact that does not change with time, e.g. its
   * issuer's signature or its subject); computed every time for a certificate not from {@link get}.
   */
  fact<T>(certificate: X509Certificate, name: string, compute: () => T): T {
    const facts = this.#byCertificate.get(certificate);
    if (!facts) return compute();
    if (!facts.has(name)) facts.set(name, compute());
    return facts.get(name) as T;
  }
}
