import { X509Certificate } from 'node:crypto';
import { MAX_PEM_FILE_BYTES, PathRefused, readRegularFileSync } from '../checked-paths.js';

export type TrustDecision = { trusted: true } | { trusted: false; reason: string };

/**
 * The certificates kasa trusts to sign SFS responses (`--sfs-trust FILE`, ADR 0008 §1): a PEM
 * file with one or more certificates. A response certificate is trusted when it is one of them, or
 * when it is issued (and signed) by one of them that is a CA certificate; either way it must be
 * within its validity period, and so must the CA (ADR 0308).
 */
export class TrustStore {
  readonly certificates: readonly X509Certificate[];

  constructor(certificates: readonly X509Certificate[]) {
    if (certificates.length === 0) throw new Error('a trust store needs at least one certificate');
    this.certificates = certificates;
  }

  /** Every `BEGIN CERTIFICATE` block of a PEM text. */
  static fromPem(pem: string, source = 'PEM text'): TrustStore {
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (blocks.length === 0) throw new Error(`${source}: no PEM certificate found`);
    return new TrustStore(
      blocks.map((block, i) => {
        try {
          return new X509Certificate(block);
        } catch {
          throw new Error(`${source}: certificate ${i + 1} cannot be read`);
        }
      }),
    );
  }

  /** Loads every `--sfs-trust FILE` given (the flag is repeatable) into one store. */
  static fromFiles(paths: readonly string[]): TrustStore {
    return new TrustStore(paths.flatMap((path) => TrustStore.fromFile(path).certificates));
  }

  /**
   * Loads `--sfs-trust FILE` (or a path of the `sfsTrust` setting): a regular file of at most
   * 1 MiB; a FIFO, a device or a directory is refused before it is read (ADR 0426).
   */
  static fromFile(path: string): TrustStore {
    let text: string;
    try {
      text = readRegularFileSync(path, MAX_PEM_FILE_BYTES, 'a PEM file').toString('utf8');
    } catch (e) {
      if (e instanceof PathRefused) throw new Error(`--sfs-trust ${e.message}`);
      throw new Error(`--sfs-trust ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    return TrustStore.fromPem(text, `--sfs-trust ${path}`);
  }

  check(certificate: X509Certificate, at: Date): TrustDecision {
    if (!validAt(certificate, at))
      return { trusted: false, reason: 'the signing certificate is not valid now' };
    for (const anchor of this.certificates) {
      if (anchor.raw.equals(certificate.raw)) return { trusted: true };
    }
    for (const anchor of this.certificates) {
      if (
        anchor.ca &&
        validAt(anchor, at) &&
        certificate.checkIssued(anchor) &&
        certificate.verify(anchor.publicKey)
      ) {
        return { trusted: true };
      }
    }
    return {
      trusted: false,
      reason: `the signing certificate (${certificate.subject.replace(/\n/g, ', ')}) is not trusted`,
    };
  }
}

function validAt(certificate: X509Certificate, at: Date): boolean {
  const t = at.getTime();
  return t >= Date.parse(certificate.validFrom) && t <= Date.parse(certificate.validTo);
}
