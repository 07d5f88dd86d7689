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
}
