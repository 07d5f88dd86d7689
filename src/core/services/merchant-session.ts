import { FiscalError } from '../fiscal-error.js';
import type { MerchantRecord } from '../journal/records.js';
import { checkCertificateValidity } from '../merchant/certificate-rules.js';
import { certificateStatus } from '../merchant/certificate-status.js';
import { recordCertificate } from '../merchant/merchant-record.js';
import type { Clock } from '../ports/clock.js';
import type { JournalIndex } from '../ports/journal-index.js';
import type { MerchantKeystore } from '../ports/merchant-keystore.js';
import type { MessageSigner } from '../ports/tax-authority.js';
import type { ConsistencyProbe } from './consistency-check.js';
import type { ComponentStatus, RefusalSource, StatusProbe } from './register-status.js';

/** The merchant in force and the signer over its key. */
export interface UsableMerchant {
  /** Journal record number of the merchant record (documents point to it). */
  recordNo: number;
  merchant: MerchantRecord;
  signer: MessageSigner;
}

interface Loaded {
  recordNo: number;
  merchant: MerchantRecord;
  signer?: MessageSigner;
  /** Why the signer is missing (402). */
  problem?: FiscalError;
}

export const NO_MERCHANT =
  'No merchant is stored: load the identification and authentication data with POST /api/merchant/store.';

/**
 * The merchant the register signs with, kept in memory: after a start, {@link load} reopens the
 * keystore of the merchant record in force from the secret store (no password typed); a store
 * installs the new one. Answers, synchronously and cheaply, whether fiscal work is possible
 * (ADR 0008 §11): with no merchant, an unreadable keystore or an expired certificate every request
 * that must sign or write a fiscal record is refused with 402 or 405 and the reason.
 */
export class MerchantSession implements RefusalSource {
  readonly #index: JournalIndex;
  readonly #keystore: MerchantKeystore;
  readonly #clock: Clock;
  #loaded: Loaded | undefined;
  readonly #installedListeners: Array<() => void> = [];

  constructor(deps: { index: JournalIndex; keystore: MerchantKeystore; clock: Clock }) {
    this.#index = deps.index;
    this.#keystore = deps.keystore;
    this.#clock = deps.clock;
  }

  /** Reads the merchant in force from the index and reopens its keystore. Never throws for it. */
  async load(): Promise<void> {
    const current = this.#index.currentMerchant();
    if (!current) {
      this.#loaded = undefined;
      return;
    }
    const loaded: Loaded = { recordNo: current.recordNo, merchant: current.merchant };
    try {
      loaded.signer = (await this.#keystore.reopen(current.merchant.certificateSha256)).signer;
    } catch (e) {
      loaded.problem = FiscalError.is(e)
        ? e
        : new FiscalError(
            'MERCHANT_CERTIFICATE_ERROR',
            'the merchant keystore cannot be opened; store the authentication data again',
          );
    }
    this.#loaded = loaded;
  }

  /** Called by the store use case once the merchant record is in the journal. */
  installed(recordNo: number, merchant: MerchantRecord, signer: MessageSigner): void {
    this.#loaded = { recordNo, merchant, signer };
    for (const listener of this.#installedListeners) listener();
  }

  /**
   * Called after a merchant is stored (a renewal included): the offline sender tries its queue at
   * once, since a new certificate may clear why the SFS refused it (ADR 0711).
   */
  onInstalled(listener: () => void): void {
    this.#installedListeners.push(listener);
  }

  /** The refusal fiscal work gets now, or undefined when the register can sign. */
  refusal(): FiscalError | undefined {
    const loaded = this.#loaded;
    if (!loaded) return new FiscalError('MERCHANT_CERTIFICATE_ERROR', NO_MERCHANT);
    if (loaded.problem || !loaded.signer) {
      return loaded.problem ?? new FiscalError('MERCHANT_CERTIFICATE_ERROR', NO_MERCHANT);
    }
    try {
      checkCertificateValidity(recordCertificate(loaded.merchant), this.#clock.now());
    } catch (e) {
      return e as FiscalError;
    }
    return undefined;
  }

  /**
   * The usable merchant and signer for document work.
   *
   * @throws FiscalError 402 MERCHANT_CERTIFICATE_ERROR (none stored, keystore unreadable),
   *   405 MERCHANT_CERTIFICATE_EXPIRED (expired or not yet valid), with what to do.
   */
  currentSigner(): UsableMerchant {
    const refusal = this.refusal();
    if (refusal) throw refusal;
    const loaded = this.#loaded!;
    return { recordNo: loaded.recordNo, merchant: loaded.merchant, signer: loaded.signer! };
  }

  /**
   * "Merchant certificate readable" for the consistency check: when a merchant is stored, its
   * keystore must have opened. A failed or outdated load is retried first, so restoring
   * `<data-dir>/secrets/` clears the refusal without a restart. No merchant and an expired
   * certificate are not inconsistencies (refusal() answers those with 402 / 405).
   */
  readonly consistencyProbe: ConsistencyProbe = {
    name: 'merchant certificate readable',
    run: async () => {
      const current = this.#index.currentMerchant();
      const loaded = this.#loaded;
      if (current && (!loaded || loaded.problem || loaded.recordNo !== current.recordNo)) await this.load();
      const problem = this.#loaded?.problem;
      if (current && problem) throw problem;
    },
  };

  /** The `MERCHANT` entry of `GET /api/status/get`. */
  readonly probe: StatusProbe = {
    component: 'MERCHANT',
    check: (): ComponentStatus => {
      const refusal = this.refusal();
      const loaded = this.#loaded;
      const details = loaded ? this.#details(loaded) : undefined;
      if (refusal) {
        return {
          component: 'MERCHANT',
          state: 'ERROR',
          reasonCode: refusal.resultCode,
          reason: refusal.message,
          ...(details ? { details } : {}),
        };
      }
      const status = certificateStatus(recordCertificate(loaded!.merchant), this.#clock.now());
      return {
        component: 'MERCHANT',
        state: status.state === 'OK' ? 'OK' : 'WARNING',
        reasonCode: 0,
        reason:
          status.state === 'OK'
            ? `${loaded!.merchant.demo ? 'DEMO merchant (receipts are demos, not fiscal documents)' : 'Merchant'} ${loaded!.merchant.dic}, register ${loaded!.merchant.organizationUnit.cashRegisterCode}; certificate valid until ${status.expirationDate}.`
            : `The merchant certificate expires on ${status.expirationDate} (${status.daysLeft} days left): download new authentication data in the eKasa zone of the Financial Administration portal and store them.`,
        ...(details ? { details } : {}),
      };
    },
  };

  #details(loaded: Loaded): Record<string, unknown> {
    const status = certificateStatus(recordCertificate(loaded.merchant), this.#clock.now());
    return {
      dic: loaded.merchant.dic,
      cashRegisterCode: loaded.merchant.organizationUnit.cashRegisterCode,
      cashRegisterType: loaded.merchant.organizationUnit.cashRegisterType,
      demo: loaded.merchant.demo,
      certificateState: status.state,
      expirationDate: status.expirationDate,
      daysLeft: status.daysLeft,
    };
  }
}
