import { describe, expect, it } from 'vitest';
import { documentRecord } from '../../../../test/support/journal-fixtures.js';
import { FiscalError } from '../../fiscal-error.js';
import type { IndexedDocument } from '../../ports/indexed-records.js';
import type { JournalIndex } from '../../ports/journal-index.js';
import { parseSfsDateTime } from '../../time.js';
import { assertClockNotBehind } from './clock-check.js';

/** An index holding one last document, counting whole-document reads. */
function indexWith(createDate: string | undefined) {
  const reads = { documents: 0 };
  const document =
    createDate === undefined
      ? undefined
      : documentRecord(7, { sfs: { ...documentRecord(7).sfs, CreateDate: createDate } });
  const index = {
    lastDocumentCreated: () =>
      document && {
        documentNo: 7,
        createMs: parseSfsDateTime(document.sfs.CreateDate)?.getTime() ?? null,
      },
    findDocument: () => {
      reads.documents++;
      return document && ({ document } as IndexedDocument);
    },
  } as unknown as JournalIndex;
  return { deps: { index }, reads };
}

function refusal(fn: () => void): FiscalError | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (!FiscalError.is(e)) throw e;
    return e;
  }
}

describe('assertClockNotBehind (ADR 0117; the row read first, ADR 1115)', () => {
  const last = '2026-03-02T10:15:30+01:00';

  it('a clock at or after the last document passes without reading that document', () => {
    const { deps, reads } = indexWith(last);
    expect(refusal(() => assertClockNotBehind(deps, new Date('2026-03-02T09:15:30Z')))).toBeUndefined();
    expect(refusal(() => assertClockNotBehind(deps, new Date('2026-03-02T12:00:00Z')))).toBeUndefined();
    expect(reads.documents).toBe(0); // one whole-document read per store before ADR 1115
  });

  it('a clock behind it is refused with 502, naming the last document and both times', () => {
    const { deps, reads } = indexWith(last);
    const e = refusal(() => assertClockNotBehind(deps, new Date('2026-03-02T09:15:29Z')));
    expect(e?.resultCode).toBe(502);
    expect(e?.message).toContain('earlier than the creation time of the last document 202603/7');
    expect(e?.details).toMatchObject({ lastDocumentNumber: '202603/7' });
    expect(reads.documents).toBe(1);
  });

  it('names the document the row read gave, not a later one set aside (ADR 0117 amended)', () => {
    // The index's row read passes over set-aside documents; the refusal names that same document.
    const kept = documentRecord(7, { sfs: { ...documentRecord(7).sfs, CreateDate: last } });
    const setAside = documentRecord(8, {
      sfs: { ...documentRecord(8).sfs, CreateDate: '2027-12-30T10:00:00+01:00' },
    });
    const index = {
      lastDocumentCreated: () => ({ documentNo: 7, createMs: Date.parse(last) }),
      findDocument: (q: { by: string; documentNo?: number }) =>
        q.by === 'documentNo' && q.documentNo === 7
          ? ({ document: kept, sendState: 'online' } as IndexedDocument)
          : ({ document: setAside, sendState: 'set-aside' } as IndexedDocument),
    } as unknown as JournalIndex;
    const e = refusal(() => assertClockNotBehind({ index }, new Date('2026-03-02T09:15:29Z')));
    expect(e?.details).toMatchObject({ lastDocumentNumber: '202603/7' });
  });

  it('no document yet, or a creation time the row cannot give: as before (nothing to compare)', () => {
    expect(refusal(() => assertClockNotBehind(indexWith(undefined).deps, new Date(0)))).toBeUndefined();
    const unreadable = indexWith('not a date');
    expect(refusal(() => assertClockNotBehind(unreadable.deps, new Date(0)))).toBeUndefined();
    expect(unreadable.reads.documents).toBe(1); // the document read, and it cannot be compared either
  });
});
