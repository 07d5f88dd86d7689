import { FiscalError } from '../fiscal-error.js';
import type { JournalRecord, MerchantRecord } from '../journal/records.js';
import {
  checkCertificateMatchesIdentity,
  checkCertificateProfile,
  checkCertificateValidity,
} from '../merchant/certificate-rules.js';
import { type MerchantView, merchantRecord, merchantView } from '../merchant/merchant-record.js';
import type { Clock } from '../ports/clock.js';
import type { Journal } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';
import type { MerchantKeystore } from '../ports/merchant-keystore.js';
import type { MerchantSession } from './merchant-session.js';
import type { WriteLock } from './write-lock.js';

/** `POST /api/merchant/store` (StoreMerchantRequest, API v1.7 text, models other vendors of the same API add). */
export interface StoreMerchantRequest {
  /** The identification data XML file as text. */
  identificationData: string;
  /** The authentication data XML file as text. */
  authenticationData: string;
  keyStorePassword: string;
  /** Defaults to the keystore password (the SFS files use one password). */
  privateKeyPassword?: string | undefined;
}

export interface StoreMerchantDeps {
  /** The journal the use cases get (IndexedJournal): an append also updates the index. */
  journal: Journal;
  index: JournalIndex;
  keystore: MerchantKeystore;
  session: MerchantSession;
  clock: Clock;
  lock: WriteLock;
}

/**
 * Stores the merchant: checks everything first, then keeps the keystore in the secret store and
 * writes the merchant record into the CHDÚ. Nothing is stored on any failure.
 *
 * Order of the checks (docs/merchant.md): identification XML 404/400 → authentication XML 404 →
 * keystore 403 → entry and certificate profile 402 → identification vs certificate 400
 * (ADR 0008 §8) → CHDÚ owner 401 → validity 405.
 *
 * Storing again for the same DIČ is a renewal: a new merchant record with the new certificate;
 * documents keep the PKP they were signed with and point to their own merchant record.
 */
export class StoreMerchant {
  readonly #deps: StoreMerchantDeps;

  constructor(deps: StoreMerchantDeps) {
    this.#deps = deps;
  }

  /**
   * @throws FiscalError 400, 401, 402, 403, 404, 405 as above; 300 BUSY while another writer
   *   runs; 200–203 when the CHDÚ cannot be written (then nothing is kept).
   */
  async execute(request: StoreMerchantRequest, options: { demo?: boolean } = {}): Promise<MerchantView> {
    const { keystore, clock, lock } = this.#deps;
    const identity = keystore.readIdentity(request.identificationData);
    const opened = await keystore.open(
      request.authenticationData,
      request.keyStorePassword,
      request.privateKeyPassword ?? request.keyStorePassword,
    );
    checkCertificateProfile(opened.certificate, opened.keyMatchesCertificate);
    checkCertificateMatchesIdentity(identity, opened.certificate);

    return lock.run('merchant/store', async () => {
      const { journal, index, session } = this.#deps;
      const current = index.currentMerchant();
      if (current && current.merchant.dic !== identity.dic) {
        throw new FiscalError(
          'MERCHANT_DIFFERENT_DIC',
          current.merchant.demo
            ? // ADR 0006: a demo register's CHDÚ keeps its demo merchant for ever; real work needs
              // a fresh one.
              `This CHDÚ belongs to the demo merchant (DIČ ${current.merchant.dic}) that demo mode created; data of DIČ ${identity.dic} cannot be stored in it. For real work start kasa with --no-demo on a new, empty data dir (docs/install.md).`
            : `This CHDÚ belongs to the merchant with DIČ ${current.merchant.dic}; data of DIČ ${identity.dic} cannot be stored in it.`,
          { field: 'IdentityData/Dic' },
        );
      }
      checkCertificateValidity(opened.certificate, clock.now());

      const body = merchantRecord(
        identity,
        request.identificationData,
        opened.certificate,
        options.demo ?? false,
      );
      await keystore.keep(opened);
      let written: JournalRecord;
      try {
        written = await journal.append({ type: 'merchant', body });
      } catch (e) {
        // Undo the kept keystore, unless it is the one the merchant in force already uses.
        if (current?.merchant.certificateSha256 !== opened.certificate.sha256) {
          await keystore.forget(opened.certificate.sha256).catch(() => undefined);
        }
        throw e;
      }
      session.installed(written.recordNo, written.body as MerchantRecord, opened.signer);
      return merchantView(written.recordNo, written.body as MerchantRecord, clock.now());
    });
  }
}
