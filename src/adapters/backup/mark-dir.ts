import { isAbsolute, relative, sep } from 'node:path';
import {
  type HighWaterMark,
  judgeAgainstMark,
  type MarkVerdict,
} from '../../core/journal/high-water-mark.js';
import { FileHighWaterMarkStore } from '../state/file-high-water-mark-store.js';
import { openImageJournal } from './image-journal.js';

/**
 * The rollback marks (ADR 0118) are the one thing a backup must never carry: they say how far this
 * computer saw the register go, and putting an older mark back with an older image is the very
 * rollback they are there to catch (ADR 0804). They belong outside the data dir; when `--mark-dir`
 * lies inside it anyway (a service user whose home is the data dir), this is its path there, with
 * `/`, so backup leaves it out and restore never writes into it.
 */
export function markDirInside(dataDir: string, markDir: string | undefined): string | undefined {
  if (markDir === undefined) return undefined;
  const rel = relative(dataDir, markDir);
  if (rel === '') return '.'; // the marks are files of the data dir itself
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** What `kasa serve` says at start when the marks lie inside the data dir (undefined when not). */
export function markDirWarning(dataDir: string, markDir: string | undefined): string | undefined {
  const inside = markDirInside(dataDir, markDir);
  if (inside === undefined) return undefined;
  return `WARNING: the CHDÚ high-water marks (${markDir}) lie inside the data dir: an older copy of the data dir put back is only caught while they survive. Give --mark-dir or KASA_MARK_DIR a folder outside it (the service: /var/lib/kasa-marks; docs/backup.md).`;
}

/** True when `path` (relative, with `/`) is `dir` or lies under it. */
export function isUnder(path: string, dir: string | undefined): boolean {
  // `.`: the data dir is the mark dir; its marks are `chdu-<serial>-<volumeSerial>.json` (ADR 0118).
  if (dir === '.') return /^chdu-\d+-\d+\.json$/.test(path);
  return dir !== undefined && (path === dir || path.startsWith(`${dir}/`));
}

/** This computer's mark for the CHDÚ in an image, compared with that image. */
export interface MarkComparison {
  /** Where the mark of this CHDÚ is (or would be). */
  where: string;
  /** The mark found; undefined when this computer has none for this CHDÚ. */
  mark?: HighWaterMark;
  verdict: MarkVerdict | { ok: false; kind: 'unreadable'; problem: string };
}

/**
 * Compares an image (a restored backup) with this computer's high-water mark of its CHDÚ: a mark
 * ahead of the image means the register went further after the backup was taken, and `kasa serve`
 * will refuse fiscal writes (201) until the operator accepts that with `kasa chdu accept-rollback`.
 */
export async function compareWithMark(imagePath: string, markDir: string): Promise<MarkComparison> {
  const store = new FileHighWaterMarkStore(markDir);
  const opened = await openImageJournal(imagePath);
  try {
    const status = await opened.chdu.status();
    const id = { serial: status.serial >>> 0, volumeSerial: (await opened.chdu.volumeSerial()) >>> 0 };
    const where = store.locate(id);
    let mark: HighWaterMark | undefined;
    try {
      mark = await store.read(id);
    } catch (e) {
      return { where, verdict: { ok: false, kind: 'unreadable', problem: (e as Error).message } };
    }
    if (!mark) return { where, verdict: { ok: true } };
    const journal = opened.journal;
    const verdict = await judgeAgainstMark(
      journal.head(),
      mark,
      async (n) => (await journal.get(n))?.chainHash,
    );
    return { where, mark, verdict };
  } finally {
    await opened.close();
  }
}
