import type { JournalRecord, NewRecord } from './records.js';

/**
 * `appendMany` on a journal that cannot put several records in one write: they are appended one
 * after the other, in order (ADR 1105); the first failure ends it.
 */
export async function appendEach(
  append: (record: NewRecord) => Promise<JournalRecord>,
  records: readonly NewRecord[],
): Promise<JournalRecord[]> {
  const out: JournalRecord[] = [];
  for (const record of records) out.push(await append(record));
  return out;
}
