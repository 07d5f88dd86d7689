import { FiscalError } from '../fiscal-error.js';

/**
 * 201 for the case where the CHDÚ ends before a record that was acknowledged earlier (the index
 * holds it with this journal's record 1): a block was lost — e.g. a damaged last block cut as a
 * torn write, or an older copy of the image put back. Nothing is rebuilt and nothing is written
 * under the missing numbers until an operator decides (ADR 0108).
 */
export function missingAcknowledgedRecords(chduHead: number, lastAcknowledged: number): FiscalError {
  const first = chduHead + 1;
  const which = lastAcknowledged > first ? `Records ${first}–${lastAcknowledged}` : `Record ${first}`;
  return new FiscalError(
    'CHDU_WRITE_ERROR',
    `${which}, acknowledged earlier, ${lastAcknowledged > first ? 'are' : 'is'} missing from the CHDÚ, which ends at record ${chduHead}. kasa writes nothing until this is resolved: check the CHDÚ (kasa chdu verify) and its image or device; to accept the loss and continue after record ${chduHead}, stop kasa and run kasa chdu reindex.`,
    { missingFrom: first, missingTo: lastAcknowledged, chduHead },
  );
}
