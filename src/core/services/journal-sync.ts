import { FiscalError } from '../fiscal-error.js';
import type { JournalRecord } from '../journal/records.js';
import type { Journal } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';

/**
 * Brings the derived index up to the journal head. The CHDÚ is the truth (issue 3, "Index"):
 * - index behind the head → replay the missing records (a crash between the CHDÚ write and the
 *   index write loses nothing);
 * - index ahead of the head, or its hash at the high-water mark differs from the CHDÚ's → the
 *   index belongs to another CHDÚ or is damaged: clear it and rebuild from record 1;
 * - `rebuild: true` (`kasa chdu reindex`) → clear and rebuild unconditionally.
 */
export interface SyncOptions {
  rebuild?: boolean;
  /** Records per index transaction (default 1000). */
  batchSize?: number;
  /** Called after each batch with records applied so far and the number to apply. */
  onProgress?: (done: number, total: number) => void;
}

export interface SyncReport {
  action: 'none' | 'replayed' | 'rebuilt';
  /** Why a rebuild happened. */
  reason?: string;
  /** Records applied. */
  applied: number;
  highWaterMark: number;
}

export async function syncJournalIndex(
  journal: Journal & { readonly ready?: boolean },
  index: JournalIndex,
  options: SyncOptions = {},
): Promise<SyncReport> {
  // Never compare the index with a head not read yet: an unknown head looks like an empty journal.
  if (journal.ready === false) {
    throw new FiscalError('CHDU_NOT_CONNECTED', 'The journal head has not been read from the CHDÚ yet.');
  }
  const head = journal.head();
  const headNo = head?.recordNo ?? 0;
  const reason = options.rebuild ? 'requested' : await mismatch(journal, index, headNo);
  if (reason) index.clear();
  const from = index.highWaterMark() + 1;
  if (from > headNo)
    return {
      action: reason ? 'rebuilt' : 'none',
      ...(reason ? { reason } : {}),
      applied: 0,
      highWaterMark: index.highWaterMark(),
    };

  const total = headNo - from + 1;
  const batchSize = options.batchSize ?? 1000;
  let batch: Array<{ record: JournalRecord; chainHash: string }> = [];
  let applied = 0;
  const flush = () => {
    if (batch.length === 0) return;
    if (index.applyMany) index.applyMany(batch);
    else for (const e of batch) index.apply(e.record, e.chainHash);
    applied += batch.length;
    batch = [];
    options.onProgress?.(applied, total);
  };
  for await (const record of journal.records(from)) {
    if (record.recordNo > headNo) break;
    if (record.chainHash === undefined) throw new Error('journal returned a record without its chain hash');
    batch.push({ record, chainHash: record.chainHash });
    if (batch.length >= batchSize) flush();
  }
  flush();
  return {
    action: reason ? 'rebuilt' : 'replayed',
    ...(reason ? { reason } : {}),
    applied,
    highWaterMark: index.highWaterMark(),
  };
}

/** Why the index cannot be continued from its high-water mark, or undefined when it can. */
async function mismatch(journal: Journal, index: JournalIndex, headNo: number): Promise<string | undefined> {
  const hwm = index.highWaterMark();
  if (hwm === 0) return undefined;
  if (hwm > headNo) return `the index has ${hwm} records, the CHDÚ only ${headNo}`;
  if (hwm === headNo) {
    return index.highWaterHash() === journal.head()?.hash
      ? undefined
      : `the index's hash at record ${hwm} differs from the CHDÚ's`;
  }
  const at = await journal.get(hwm);
  if (!at || at.chainHash !== index.highWaterHash())
    return `the index's hash at record ${hwm} differs from the CHDÚ's`;
  return undefined;
}
