import type { ChduIdentity, HighWaterMark } from '../journal/high-water-mark.js';

/**
 * Where this host keeps, per CHDÚ, the furthest point it saw the journal reach (ADR 0118). It
 * lives outside the data dir (by default under the user's XDG state dir, `--mark-dir`), so an
 * older copy of the data dir put back cannot bring an older mark with it.
 *
 * Errors are plain Errors (file-system causes); the rollback guard turns an unreadable mark into
 * 201 CHDU_WRITE_ERROR and a failed write into a warning (logged, and on the CHDU status entry).
 */
export interface HighWaterMarkStore {
  /** Where the mark of this CHDÚ lives (a path), for messages. */
  locate(id: ChduIdentity): string;
  /** The mark, or undefined when none was written yet; rejects when one exists but cannot be read. */
  read(id: ChduIdentity): Promise<HighWaterMark | undefined>;
  /** Replaces the mark atomically and durably (a crash leaves the old or the new one whole). */
  write(mark: HighWaterMark): Promise<void>;
}
