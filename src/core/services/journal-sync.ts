import { FiscalError } from '../fiscal-error.js';
import { missingAcknowledgedRecords } from '../journal/missing-records.js';
import type { JournalRecord } from '../journal/records.js';
import type { Journal } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';

/**
 * Brings the derived index up to the journal head. The CHDÚ is the truth (capability 3, "Index"):
 * - index behind the head → replay the missing records (a crash between the CHDÚ write and the
 *   index write loses nothing);
 * - index ahead of the head with this journal's own record 1 (or the CHDÚ empty) → records
 *   acknowledged earlier are missing from the CHDÚ: reject with 201 and change nothing; only an
 *   operator's `kasa chdu reindex` may rebuild then (ADR 0108);
 * - index of another journal (record 1 differs), or its hash at the high-water mark differs from
 *   the CHDÚ's → clear it and rebuild from record 1;
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
  if (reason === MISSING) throw missingAcknowledgedRecords(headNo, index.highWaterMark());
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
    // A live append may have indexed a record while this replay was reading: skip what is in.
    const hwm = index.highWaterMark();
    const fresh = batch.filter((e) => e.record.recordNo > hwm);
    if (fresh.length > 0) {
      if (index.applyMany) index.applyMany(fresh);
      else for (const e of fresh) index.apply(e.record, e.chainHash);
    }
    applied += fresh.length;
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

const MISSING = Symbol('acknowledged records missing from the CHDÚ');

/**
 * Why the index cannot be continued from its high-water mark (a reason to rebuild, or MISSING),
 * or undefined when it can.
 */
async function mismatch(
  journal: Journal,
  index: JournalIndex,
  headNo: number,
): Promise<string | typeof MISSING | undefined> {
  const hwm = index.highWaterMark();
  if (hwm === 0) return undefined;
  if (hwm > headNo) {
    const genesis = index.genesisHash?.();
    if (headNo > 0 && genesis !== undefined && (await journal.get(1))?.chainHash !== genesis) {
      return `the index (${hwm} records) was built from another CHDÚ, which has only ${headNo}`;
    }
    // ADR 0108: the same journal once reached record hwm; the CHDÚ lost acknowledged records.
    return MISSING;
  }
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
