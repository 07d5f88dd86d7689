/**
 * How much work a keystore may ask for (ADR 0602, docs/security.md). A PKCS#12 file chooses its
 * own key-derivation iteration counts and number of bags, and the derivations run in JavaScript
 * (node-forge: the SFS files use RC2-40, which OpenSSL 3 refuses), so without bounds a 4 KB file
 * can ask for minutes of CPU. Every eKasa keystore stays far below these bounds: the SFS files use
 * three derivations of 1,024 iterations (about 5,000 units), OpenSSL 3 defaults about 10,000
 * units, Java's keytool defaults about 50,000.
 */
export interface Pkcs12Limits {
  /** Size of the keystore itself (the SFS files are 3–8 KiB). */
  maxKeystoreBytes: number;
  /** ContentInfos in the AuthenticatedSafe (the SFS files have 2). */
  maxContentInfos: number;
  /** SafeBags over the whole keystore (the SFS files have 2 or 3). */
  maxBags: number;
  /** Iterations of one key derivation (SFS 1,024; OpenSSL 2,048; Java 10,000). */
  maxIterations: number;
  /**
   * Total work units: iterations × derivations, PBKDF2 (PBES2) counted double because it costs
   * about twice as much per iteration here. Checked on everything visible before the first
   * derivation runs, then on each decrypted part before its own derivations.
   */
  maxWork: number;
}

export const DEFAULT_PKCS12_LIMITS: Readonly<Pkcs12Limits> = {
  maxKeystoreBytes: 64 * 1024,
  maxContentInfos: 8,
  maxBags: 32,
  maxIterations: 100_000,
  maxWork: 250_000,
};

/** A keystore that asks for more than {@link Pkcs12Limits} allow. */
export class KeystoreOverLimits extends Error {}

/** Counts what one keystore read has asked for so far; throws once a limit is passed. */
export class WorkBudget {
  readonly #limits: Pkcs12Limits;
  #bags = 0;
  #work = 0;

  constructor(limits: Pkcs12Limits) {
    this.#limits = limits;
  }

  size(bytes: number): void {
    if (bytes > this.#limits.maxKeystoreBytes) {
      throw new KeystoreOverLimits(
        `the keystore is ${Math.ceil(bytes / 1024)} KiB; at most ${this.#limits.maxKeystoreBytes / 1024} KiB are accepted`,
      );
    }
  }

  contentInfos(count: number): void {
    if (count > this.#limits.maxContentInfos) {
      throw new KeystoreOverLimits(
        `the keystore has ${count} content parts; at most ${this.#limits.maxContentInfos} are accepted`,
      );
    }
  }

  bags(count: number): void {
    this.#bags += count;
    if (this.#bags > this.#limits.maxBags) {
      throw new KeystoreOverLimits(`the keystore has more than ${this.#limits.maxBags} bags`);
    }
  }

  /** One key derivation of `iterations`, weighted; checks the per-derivation bound. */
  derivation(iterations: number, weight: number): number {
    if (iterations > this.#limits.maxIterations) {
      throw new KeystoreOverLimits(
        `a key derivation asks for ${Number.isFinite(iterations) ? iterations : 'more than 2^31'} iterations; at most ${this.#limits.maxIterations} are accepted`,
      );
    }
    return iterations * weight;
  }

  /** Work about to be done (the sum of {@link derivation}s); throws before any of it runs. */
  spend(units: number): void {
    this.#work += units;
    if (this.#work > this.#limits.maxWork) {
      throw new KeystoreOverLimits(
        `the keystore asks for more than ${this.#limits.maxWork} units of key-derivation work`,
      );
    }
  }
}
