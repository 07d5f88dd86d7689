import type { CertificateInfo } from '../merchant/certificate.js';
import type { IdentityData } from '../merchant/identity-data.js';
import type { MessageSigner } from './tax-authority.js';

/**
 * The merchant's files and keys: reads the identification data, opens the authentication data
 * (a PKCS#12 keystore) and keeps an opened keystore in the register's secret store so it can be
 * reopened after a restart with no password typed in. Passwords go in and never come out: no
 * member returns, logs or puts them in an error.
 */
export interface MerchantKeystore {
  /**
   * Parses and checks an identification data file (`IdentityData`, XSD v2.0).
   *
   * @throws FiscalError 404 MERCHANT_PARSE_ERROR (not XML, not an IdentityData file),
   *   400 MERCHANT_WRONG_FORMAT naming the element that breaks an XSD rule.
   */
  readIdentity(xml: string): IdentityData;

  /**
   * Parses an authentication data file (`AuthData`) and opens its keystore once; the private key
   * is kept as a node:crypto KeyObject behind the returned signer. The file is untrusted input:
   * the work it can cause is bounded and never holds up other requests (ADR 0602).
   *
   * @throws FiscalError 404 MERCHANT_PARSE_ERROR (not XML, not AuthData, Data not Base64),
   *   403 MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE (wrong password, keystore damaged, or asking
   *   for more work than the register allows), 402 MERCHANT_CERTIFICATE_ERROR (no entry for the
   *   alias, no key or certificate in it, unreadable certificate or key), 300 BUSY while another
   *   keystore is being opened.
   */
  open(authXml: string, keyStorePassword: string, privateKeyPassword: string): Promise<OpenedKeystore>;

  /**
   * Keeps a keystore returned by {@link open} (of this same instance) and the secret that unlocks
   * it, encrypted at rest, under its certificate's SHA-256.
   *
   * @throws FiscalError -1 UNKNOWN when the secret store cannot be written.
   */
  keep(opened: OpenedKeystore): Promise<void>;

  /**
   * Reopens what {@link keep} stored for a certificate.
   *
   * @throws FiscalError 402 MERCHANT_CERTIFICATE_ERROR when nothing is kept for it, or it cannot be
   *   decrypted or opened (secrets deleted, copied to another machine, damaged).
   */
  reopen(certificateSha256: string): Promise<OpenedKeystore>;

  /** Deletes what {@link keep} stored for a certificate (undoing a store that failed later). */
  forget(certificateSha256: string): Promise<void>;
}

/** One opened keystore entry. */
export interface OpenedKeystore {
  /** The alias (PKCS#12 friendly name) of the entry used: `CertificateAlias` of the file. */
  readonly alias: string;
  readonly certificate: CertificateInfo;
  /** True when the private key is the one of the certificate's public key. */
  readonly keyMatchesCertificate: boolean;
  readonly signer: MessageSigner;
}
