import { FiscalError } from '../fiscal-error.js';

/** Which CHDÚ a mark belongs to: its device serial and volume serial (CHDU Lite STATUS / header). */
export interface ChduIdentity {
  serial: number;
  volumeSerial: number;
}

/**
 * The furthest point this host saw a CHDÚ's journal reach (ADR 0118): kept outside the data dir,
 * so putting back an older copy of the data dir (image and index together) cannot take it back.
 */
export interface HighWaterMark {
  version: 1;
  chdu: ChduIdentity & { target: string };
  /** The journal head when the mark was written: record number and chain hash. */
  recordNo: number;
  headHash: string;
  /** The last document then (for the operator's sentence): `yyyyMM/n`, its month and number. */
  lastDocument?: { documentNumber: string; month: string; sequenceId: number };
  /** When the mark was written (ISO). */
  markedAt: string;
}

/** The CHDÚ compared with its mark. */
export type MarkVerdict =
  | { ok: true }
  /** The CHDÚ ends before the marked record: an older copy. */
  | { ok: false; kind: 'behind'; chduHead: number }
  /** The CHDÚ has the marked record number with another chain hash: an older copy written on since. */
  | { ok: false; kind: 'diverged'; chduHead: number };

/**
 * ADR 0118: the CHDÚ is at or after its mark only when it reaches the marked record and has the
 * marked chain hash there (the chain makes everything before it the same too).
 */
export async function judgeAgainstMark(
  head: { recordNo: number; hash: string } | undefined,
  mark: Pick<HighWaterMark, 'recordNo' | 'headHash'>,
  hashAt: (recordNo: number) => Promise<string | undefined>,
): Promise<MarkVerdict> {
  const chduHead = head?.recordNo ?? 0;
  if (mark.recordNo === 0) return { ok: true };
  if (chduHead < mark.recordNo) return { ok: false, kind: 'behind', chduHead };
  const there = chduHead === mark.recordNo ? head?.hash : await hashAt(mark.recordNo);
  return there === mark.headHash ? { ok: true } : { ok: false, kind: 'diverged', chduHead };
}

/** 201 with the sentence an operator needs: what the mark says, what the CHDÚ has, what to do. */
export function rolledBack(
  verdict: Exclude<MarkVerdict, { ok: true }>,
  mark: HighWaterMark,
  current: { lastDocumentNumber?: string | undefined },
  where: string,
): FiscalError {
  const marked = `record ${mark.recordNo}${mark.lastDocument ? ` (document ${mark.lastDocument.documentNumber})` : ''} on ${mark.markedAt}`;
  const now = `record ${verdict.chduHead}${current.lastDocumentNumber ? ` (document ${current.lastDocumentNumber})` : ''}`;
  const what =
    verdict.kind === 'behind'
      ? `This CHDÚ ends at ${now}, but this computer saw it reach ${marked}: an older copy of the CHDÚ or of the data dir was put back`
      : `This CHDÚ has ${now}, but its record ${mark.recordNo} is not the one this computer saw written (${marked}): an older copy was put back and written to since`;
  return new FiscalError(
    'CHDU_WRITE_ERROR',
    `${what}. Issuing now would use document numbers a second time, so kasa issues nothing. Put the newest copy back; to continue from this CHDÚ on purpose, run kasa chdu accept-rollback (mark: ${where}).`,
    {
      rollback: {
        kind: verdict.kind,
        markedRecordNo: mark.recordNo,
        chduHead: verdict.chduHead,
        ...(mark.lastDocument ? { markedLastDocument: mark.lastDocument.documentNumber } : {}),
        mark: where,
      },
    },
  );
}
