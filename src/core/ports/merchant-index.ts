import type { MerchantRecord } from '../journal/records.js';

/** The merchants role of the journal index. */
export interface MerchantIndex {
  /** The merchant record in force (the last one stored). */
  currentMerchant(): { recordNo: number; merchant: MerchantRecord } | undefined;
  /**
   * Any merchant record by its journal record number (documents and locations point to the one
   * they were signed under; a resend after a renewal needs it — ADR 0703).
   */
  merchantByRecordNo(recordNo: number): MerchantRecord | undefined;
  /**
   * The identity data of every merchant record stored — register code, IČO, IČ DPH and
   * certificate (DER in Base64) — each distinct combination once, oldest first. The register's
   * identity history as the SFS knows it: a document resent later carries the identity of its time
   * (ADR 0422; the embedded SFS simulator's checks −905 and −908). Raises nothing.
   */
  merchantIdentities(): MerchantIdentityRow[];
}

/** One distinct identity of the register's history ({@link MerchantIndex.merchantIdentities}). */
export interface MerchantIdentityRow {
  cashRegisterCode: string;
  ico?: string;
  icDph?: string;
  /** DER in Base64. */
  certificate: string;
}
