import { FiscalError } from '../fiscal-error.js';
import {
  type ChduIdentity,
  type HighWaterMark,
  judgeAgainstMark,
  rolledBack,
} from '../journal/high-water-mark.js';
import type { Chdu } from '../ports/chdu.js';
import type { HighWaterMarkStore } from '../ports/high-water-mark-store.js';
import type { Journal } from '../ports/journal.js';
import type { JournalIndex } from '../ports/journal-index.js';
import { RESULT_CODES } from '../result-codes.js';
import type { ConsistencyProbe } from './consistency-check.js';

export interface RollbackGuardDeps {
  chdu: Pick<Chdu, 'status' | 'volumeSerial' | 'target'>;
  journal: Pick<Journal, 'head' | 'get'>;
  index: Pick<JournalIndex, 'findDocument'>;
  store: HighWaterMarkStore;
  now: () => Date;
  /** At most one mark write per this many ms (default 1000): the mark may lag the head that much. */
  minIntervalMs?: number;
  log?: { warn(fields: Record<string, unknown>, message: string): void };
}

/**
 * Rollback detection (ADR 0118). As a probe of the consistency check (at start and on every run)
 * it compares the CHDÚ with the high-water mark this host keeps for it outside the data dir: a
 * CHDÚ that ends before the mark, or has another record where the mark is, was put back from an
 * older copy and is refused with 201 — never silently written on, which would issue numbers a
 * second time. After each append (once the CHDÚ has taken it) the mark moves forward; it never
 * moves while the CHDÚ is refused, so only `kasa chdu accept-rollback` can take it back.
 */
export class RollbackGuard {
  private identity: ChduIdentity | undefined;
  /** The CHDÚ passed the comparison: appends may move the mark. */
  private trusted = false;
  private writing: Promise<void> | undefined;
  private again = false;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private warned = false;
  private closed = false;
  /** Why the last mark write failed, until one succeeds (shown as a CHDU status WARNING). */
  private writeProblem: { where: string; cause: string } | undefined;

  constructor(private readonly deps: RollbackGuardDeps) {}

  /** The consistency check's probe: 201 while the CHDÚ is behind its mark (or the mark is unreadable). */
  probe(): ConsistencyProbe {
    return { name: 'rollback mark', run: () => this.check(), warning: () => this.warning() };
  }

  /**
   * ADR 0118: a mark that cannot be written leaves sales going on but rollback detection not
   * current — said on the CHDU status entry (naming the file and the cause), not only in the log.
   */
  warning(): { resultCode: number; reason: string; details: Record<string, unknown> } | undefined {
    const p = this.writeProblem;
    if (!p) return undefined;
    return {
      resultCode: RESULT_CODES.CHDU_WRITE_ERROR.code,
      reason: `The CHDÚ answers and sales go on, but its high-water mark ${p.where} cannot be written (${p.cause}): an older copy of the data dir put back would not be detected. Make the mark dir (--mark-dir / KASA_MARK_DIR) a writable folder; the next document writes the mark.`,
      details: { mark: p.where, markProblem: p.cause },
    };
  }

  async check(): Promise<void> {
    const id = await this.identify();
    const where = this.deps.store.locate(id);
    let mark: HighWaterMark | undefined;
    try {
      mark = await this.deps.store.read(id);
    } catch (e) {
      this.trusted = false;
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        `The high-water mark of this CHDÚ cannot be read (${(e as Error).message}), so kasa cannot tell whether an older copy was put back; kasa issues nothing. Check the file; kasa chdu accept-rollback writes it anew from this CHDÚ.`,
        { mark: where },
      );
    }
    const head = this.deps.journal.head();
    if (mark) {
      const verdict = await judgeAgainstMark(
        head,
        mark,
        async (n) => (await this.deps.journal.get(n))?.chainHash,
      );
      if (!verdict.ok) {
        this.trusted = false;
        const last = this.deps.index.findDocument({ by: 'last' })?.document.documentNumber;
        throw rolledBack(verdict, mark, { lastDocumentNumber: last }, where);
      }
    }
    this.trusted = true;
    if (head && (!mark || head.recordNo > mark.recordNo)) this.noteAppended();
  }

  /** A record is durable in the CHDÚ: move the mark forward (coalesced, at most once per interval). */
  noteAppended(): void {
    if (!this.trusted || this.closed) {
      if (this.closed) this.again = true;
      return;
    }
    if (this.writing || this.timer) {
      this.again = true;
      return;
    }
    const wait = Math.max(0, this.lastWriteAt + (this.deps.minIntervalMs ?? 1000) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writeMark().finally(() => {
        this.writing = undefined;
        if (this.again) {
          this.again = false;
          this.noteAppended();
        }
      });
    }, wait);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * At close: writes what is pending now, so a clean stop leaves the mark at the head, and stops —
   * nothing is written for this register after it (another process may own the CHDÚ by then).
   */
  async flush(): Promise<void> {
    this.closed = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.again = true;
    }
    while (this.writing) await this.writing;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.again = true;
    }
    if (this.again && this.trusted) {
      this.again = false;
      await this.writeMark();
    }
  }

  private async writeMark(): Promise<void> {
    this.lastWriteAt = Date.now();
    const head = this.deps.journal.head();
    if (!head || !this.trusted) return;
    try {
      const id = await this.identify();
      const last = this.deps.index.findDocument({ by: 'last' })?.document.documentNumber;
      await this.deps.store.write(markOf(id, this.deps.chdu.target, head, last, this.deps.now()));
      this.writeProblem = undefined;
      this.warned = false;
    } catch (e) {
      this.writeProblem = {
        where: this.identity ? this.deps.store.locate(this.identity) : '(the mark dir)',
        cause: (e as Error).message,
      };
      // The register keeps working; without a current mark a rollback is found later or not at all.
      if (!this.warned) {
        this.warned = true;
        this.deps.log?.warn(
          { err: (e as Error).message },
          'the CHDÚ high-water mark cannot be written (--mark-dir): rollback detection is not current',
        );
      }
    }
  }

  private async identify(): Promise<ChduIdentity> {
    if (!this.identity) {
      const status = await this.deps.chdu.status();
      this.identity = {
        serial: status.serial >>> 0,
        volumeSerial: (await this.deps.chdu.volumeSerial()) >>> 0,
      };
    }
    return this.identity;
  }
}

/** The mark of a CHDÚ at `head`, naming its last document when known. */
export function markOf(
  id: ChduIdentity,
  target: string,
  head: { recordNo: number; hash: string },
  lastDocumentNumber: string | undefined,
  now: Date,
): HighWaterMark {
  const m = lastDocumentNumber ? /^(\d{6})\/(\d+)$/.exec(lastDocumentNumber) : null;
  return {
    version: 1,
    chdu: { ...id, target },
    recordNo: head.recordNo,
    headHash: head.hash,
    ...(lastDocumentNumber && m
      ? { lastDocument: { documentNumber: lastDocumentNumber, month: m[1]!, sequenceId: Number(m[2]) } }
      : {}),
    markedAt: now.toISOString(),
  };
}

export interface AcceptRollbackReport {
  /** The mark found (undefined when none, or when it could not be read). */
  before: HighWaterMark | undefined;
  /** Why it was replaced: the CHDÚ was behind or diverged; `ok` when nothing needed accepting. */
  verdict: 'behind' | 'diverged' | 'unreadable' | 'none' | 'ok';
  /** The mark written (undefined when nothing changed). */
  after: HighWaterMark | undefined;
  where: string;
}

/**
 * `kasa chdu accept-rollback` (ADR 0118): the operator's decision to continue from this CHDÚ
 * although it is older than its mark. The mark is rewritten from the CHDÚ's head, so the numbers
 * after its last document will be issued again. A CHDÚ at or after its mark changes nothing.
 */
export async function acceptRollback(deps: {
  chdu: Pick<Chdu, 'status' | 'volumeSerial' | 'target'>;
  journal: Pick<Journal, 'head' | 'get'>;
  lastDocumentNumber: string | undefined;
  store: HighWaterMarkStore;
  now: Date;
}): Promise<AcceptRollbackReport> {
  const status = await deps.chdu.status();
  const id = { serial: status.serial >>> 0, volumeSerial: (await deps.chdu.volumeSerial()) >>> 0 };
  const where = deps.store.locate(id);
  let before: HighWaterMark | undefined;
  let verdict: AcceptRollbackReport['verdict'];
  try {
    before = await deps.store.read(id);
    const head = deps.journal.head();
    const judged = before
      ? await judgeAgainstMark(head, before, async (n) => (await deps.journal.get(n))?.chainHash)
      : undefined;
    verdict = !judged ? 'none' : judged.ok ? 'ok' : judged.kind;
  } catch {
    verdict = 'unreadable';
  }
  const head = deps.journal.head();
  if (verdict === 'ok' || !head) return { before, verdict, after: undefined, where };
  const after = markOf(id, deps.chdu.target, head, deps.lastDocumentNumber, deps.now);
  await deps.store.write(after);
  return { before, verdict, after, where };
}
