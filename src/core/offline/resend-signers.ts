import type { Clock } from '../ports/clock.js';
import type { MerchantIndex } from '../ports/merchant-index.js';
import type { MerchantKeystore } from '../ports/merchant-keystore.js';
import type { MessageSigner } from '../ports/tax-authority.js';
import type { UsableMerchant } from '../services/merchant-session.js';
import { parseSfsDateTime } from '../time.js';

export interface ResendSignersDeps {
  index: Pick<MerchantIndex, 'currentMerchant' | 'merchantByRecordNo'>;
  session: { currentSigner(): UsableMerchant };
  keystore: Pick<MerchantKeystore, 'reopen'>;
  clock: Clock;
}

/**
 * The key a resend is signed with (ADR 0703, SFS spec §2.1/§2.4): the PKP and the message
 * signature use the same key, except that a message sent after the certificate of its PKP expired
 * is signed with the current one. So: the key of the certificate the message was signed under
 * while that certificate is valid (its keystore is kept sealed per certificate under the data dir),
 * else the current merchant's.
 */
export class ResendSigners {
  readonly #cache = new Map<string, MessageSigner>();

  constructor(private readonly deps: ResendSignersDeps) {}

  /**
   * @throws FiscalError 402/405 when the register cannot sign at all (no merchant, unreadable or
   *   expired current certificate).
   */
  async forMerchantRecord(recordNo: number): Promise<MessageSigner> {
    const current = this.deps.session.currentSigner();
    if (recordNo === current.recordNo) return current.signer;
    const merchant = this.deps.index.merchantByRecordNo(recordNo);
    if (!merchant || merchant.certificateSha256 === current.merchant.certificateSha256) return current.signer;
    const now = this.deps.clock.now().getTime();
    const from = parseSfsDateTime(merchant.notBefore)?.getTime();
    const until = parseSfsDateTime(merchant.notAfter)?.getTime();
    const valid = from !== undefined && until !== undefined && from <= now && now <= until;
    if (!valid) return current.signer;
    const cached = this.#cache.get(merchant.certificateSha256);
    if (cached) return cached;
    try {
      const opened = await this.deps.keystore.reopen(merchant.certificateSha256);
      this.#cache.set(merchant.certificateSha256, opened.signer);
      return opened.signer;
    } catch {
      // The older keystore is gone (secrets deleted): the SFS decides; a -100 is repaired with
      // useLastMerchant, which signs a new PKP with the current key.
      return current.signer;
    }
  }
}
