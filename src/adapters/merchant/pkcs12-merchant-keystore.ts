import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { FiscalError } from '../../core/fiscal-error.js';
import { authDataFromXml } from '../../core/merchant/auth-data.js';
import { certificateError } from '../../core/merchant/certificate-rules.js';
import { type IdentityData, identityDataFromXml } from '../../core/merchant/identity-data.js';
import type { MerchantKeystore, OpenedKeystore } from '../../core/ports/merchant-keystore.js';
import { KeySigner } from '../crypto/key-signer.js';
import { certificateInfo } from './certificate-info.js';
import type { Pkcs12Contents } from './pkcs12-reader.js';
import { type Pkcs12Read, WorkerPkcs12Reader } from './pkcs12-worker-reader.js';
import type { SealedSecretStore } from './sealed-secret-store.js';
import { parseXmlTree } from './xml-tree-parser.js';

/** What unlocks an opened keystore again; lives only in memory and, sealed, in the secret store. */
interface Unlock {
  alias: string;
  keyStore: Uint8Array;
  keyStorePassword: string;
  privateKeyPassword: string;
}

/**
 * {@link MerchantKeystore} over SFS authentication data files (PKCS#12) and a
 * {@link SealedSecretStore}. The keystore is parsed once per open — by default in a worker thread
 * with bounded work and time (ADR 0602); afterwards only the KeyObject inside the signer is used.
 */
export class Pkcs12MerchantKeystore implements MerchantKeystore {
  readonly #secrets: SealedSecretStore;
  readonly #read: Pkcs12Read;
  /** Unlock data of keystores opened by this instance, keyed by the object handed out. */
  readonly #unlocks = new WeakMap<OpenedKeystore, Unlock>();

  constructor(secrets: SealedSecretStore, read: Pkcs12Read = new WorkerPkcs12Reader().read) {
    this.#secrets = secrets;
    this.#read = read;
  }

  readIdentity(xml: string): IdentityData {
    return identityDataFromXml(parseXmlTree(xml, 'identification data'));
  }

  async open(authXml: string, keyStorePassword: string, privateKeyPassword: string): Promise<OpenedKeystore> {
    const auth = authDataFromXml(parseXmlTree(authXml, 'authentication data'));
    return this.#openKeystore({
      alias: auth.certificateAlias,
      keyStore: auth.keyStore,
      keyStorePassword,
      privateKeyPassword,
    });
  }

  async keep(opened: OpenedKeystore): Promise<void> {
    const unlock = this.#unlocks.get(opened);
    if (!unlock) throw new FiscalError('UNKNOWN', 'keep() got a keystore this instance did not open');
    const sealed = JSON.stringify({
      v: 1,
      alias: unlock.alias,
      keyStore: Buffer.from(unlock.keyStore).toString('base64'),
      keyStorePassword: unlock.keyStorePassword,
      privateKeyPassword: unlock.privateKeyPassword,
    });
    try {
      this.#secrets.save(secretName(opened.certificate.sha256), new TextEncoder().encode(sealed));
    } catch (e) {
      throw new FiscalError(
        'UNKNOWN',
        `the merchant secrets cannot be written in ${this.#secrets.dir}`,
        undefined,
        {
          cause: e,
        },
      );
    }
  }

  async reopen(certificateSha256: string): Promise<OpenedKeystore> {
    let plain: Uint8Array | undefined;
    try {
      plain = this.#secrets.load(secretName(certificateSha256));
    } catch (e) {
      throw certificateError(`${(e as Error).message}; store the authentication data again`);
    }
    if (!plain) {
      throw certificateError(
        `the keystore of the stored merchant is missing from ${this.#secrets.dir}; store the authentication data again`,
      );
    }
    const unlock = parseUnlock(plain);
    let opened: OpenedKeystore;
    try {
      opened = await this.#openKeystore(unlock);
    } catch (e) {
      const reason = e instanceof FiscalError ? e.message : 'cannot be opened';
      throw certificateError(
        `the kept keystore of the stored merchant does not open (${reason}); store the authentication data again`,
      );
    }
    if (opened.certificate.sha256 !== certificateSha256) {
      throw certificateError(
        'the kept keystore holds another certificate than the stored merchant; store the authentication data again',
      );
    }
    return opened;
  }

  async forget(certificateSha256: string): Promise<void> {
    this.#secrets.remove(secretName(certificateSha256));
  }

  async #openKeystore(unlock: Unlock): Promise<OpenedKeystore> {
    const contents = await this.#read(unlock.keyStore, unlock.keyStorePassword, unlock.privateKeyPassword);
    const entry = selectEntry(contents, unlock.alias);
    let key: KeyObject;
    try {
      key = createPrivateKey({ key: Buffer.from(entry.pkcs8Der), format: 'der', type: 'pkcs8' });
    } catch {
      throw certificateError(`the private key of alias ${unlock.alias} cannot be read`);
    }
    const certificate = certificateInfo(entry.certificateDer);
    const opened: OpenedKeystore = {
      alias: unlock.alias,
      certificate,
      keyMatchesCertificate: new X509Certificate(entry.certificateDer).checkPrivateKey(key),
      signer: new KeySigner(key, certificate.der),
    };
    this.#unlocks.set(opened, unlock);
    return opened;
  }
}

/**
 * The key entry named `alias` (PKCS#12 friendlyName, `CertificateAlias` of the file) and its
 * certificate: the certificate bag with the key's localKeyId, else the one with the same alias.
 * A keystore whose only key carries no friendly name is accepted as that entry.
 */
function selectEntry(
  contents: Pkcs12Contents,
  alias: string,
): { pkcs8Der: Uint8Array; certificateDer: Uint8Array } {
  let key = contents.keys.find((k) => k.friendlyName === alias);
  if (!key && contents.keys.length === 1 && contents.keys[0]!.friendlyName === undefined)
    key = contents.keys[0];
  if (!key) {
    const names = contents.keys.map((k) => k.friendlyName ?? '(unnamed)').join(', ') || 'none';
    throw certificateError(`the keystore has no private key with alias ${alias} (keys: ${names})`, {
      field: 'AuthData/CertificateAlias',
    });
  }
  const cert =
    (key.localKeyId !== undefined
      ? contents.certificates.find((c) => c.localKeyId === key.localKeyId)
      : undefined) ?? contents.certificates.find((c) => c.friendlyName === alias);
  if (!cert) throw certificateError(`the keystore has no certificate for alias ${alias}`);
  return { pkcs8Der: key.pkcs8Der, certificateDer: cert.der };
}

function secretName(certificateSha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(certificateSha256)) throw certificateError('bad certificate fingerprint');
  return `merchant-${certificateSha256}.p12.sealed`;
}

function parseUnlock(plain: Uint8Array): Unlock {
  try {
    const v = JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>;
    if (
      v.v === 1 &&
      typeof v.alias === 'string' &&
      typeof v.keyStore === 'string' &&
      typeof v.keyStorePassword === 'string' &&
      typeof v.privateKeyPassword === 'string'
    ) {
      return {
        alias: v.alias,
        keyStore: new Uint8Array(Buffer.from(v.keyStore, 'base64')),
        keyStorePassword: v.keyStorePassword,
        privateKeyPassword: v.privateKeyPassword,
      };
    }
  } catch {
    // fall through
  }
  throw certificateError('the kept keystore record is damaged; store the authentication data again');
}
