import type { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import type { Journal } from '../../src/core/ports/journal.js';

/** The tables an index derives from the CHDÚ (everything but bookkeeping of the running checks). */
const TABLES: Record<string, string> = {
  documents: 'SELECT * FROM documents ORDER BY document_no',
  document_codes: 'SELECT * FROM document_codes ORDER BY kind, code',
  locations: 'SELECT * FROM locations ORDER BY location_no',
  merchants: 'SELECT * FROM merchants ORDER BY record_no',
  settings: 'SELECT * FROM settings ORDER BY key',
  record_types: 'SELECT * FROM record_types ORDER BY type',
  meta: "SELECT * FROM meta WHERE key IN ('hwm', 'hwm_hash', 'genesis') ORDER BY key",
};

/** Differences between a live index and one rebuilt from the CHDÚ; empty when they are equal. */
export function compareIndexes(live: SqliteJournalIndex, fresh: SqliteJournalIndex): string[] {
  const out: string[] = [];
  for (const [table, sql] of Object.entries(TABLES)) {
    const a = live.database.prepare(sql).all();
    const b = fresh.database.prepare(sql).all();
    if (a.length !== b.length) {
      out.push(`${table}: ${a.length} rows live, ${b.length} rebuilt`);
      continue;
    }
    for (let i = 0; i < a.length; i++) {
      const x = JSON.stringify(a[i]);
      const y = JSON.stringify(b[i]);
      if (x !== y) {
        out.push(`${table} row ${i + 1}: live ${x} ≠ rebuilt ${y}`);
        break;
      }
    }
  }
  return out;
}

/**
 * The journal as it stood at record `last`: its head is that record, so a rebuild from it stops
 * there even while kasa serve goes on appending (its sender resends the backlog after a restart).
 * Undefined when the CHDÚ does not hold record `last`.
 */
export async function journalUpTo(journal: Journal, last: number): Promise<Journal | undefined> {
  if (last === 0) return { ...readOnly(journal), head: () => undefined };
  const at = await journal.get(last);
  if (!at?.chainHash) return undefined;
  const head = {
    recordNo: last,
    address: at.address,
    hash: at.chainHash,
    type: at.type,
    writtenAt: at.writtenAt,
  };
  return { ...readOnly(journal), head: () => head };
}

function readOnly(journal: Journal): Omit<Journal, 'head'> {
  return {
    append: () => Promise.reject(new Error('journalUpTo is read-only')),
    records: (from) => journal.records(from),
    get: (n) => journal.get(n),
    verify: (o) => journal.verify(o),
  };
}
