import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lockImage } from '../chdu/image-open.js';
import { DataDirLock, DataDirLockedError } from '../data-dir-lock.js';
import { SqliteJournalIndex } from '../index/sqlite-journal-index.js';
import { BackupManifest, FILES_PREFIX, IMAGE_ENTRY, MANIFEST_ENTRY } from './backup-manifest.js';
import { FileBackupLog } from './file-backup-log.js';
import { openImageJournal } from './image-journal.js';
import { compareWithMark, isUnder, type MarkComparison, markDirInside } from './mark-dir.js';
import { type ExtractedEntry, extractTarGz } from './tar-gz-reader.js';

/** Refused or failed restore: the CLI prints the message (exit 1); nothing in the data dir changed. */
export class RestoreRefusedError extends Error {}

export interface RestoreOptions {
  archive: string;
  /** Where the register goes (created when missing). */
  dataDir: string;
  /** Where its image goes (usually `<data-dir>/chdu.img`). */
  imagePath: string;
  /** Only check the archive (hashes and chain); write nothing. */
  checkOnly?: boolean;
  /**
   * This computer's rollback marks (`--mark-dir`, ADR 0118): the restored image is compared with
   * its CHDÚ's mark, and nothing is ever written into that folder (not even from an old backup
   * that carried it).
   */
  markDir?: string;
}

export interface RestoreSummary {
  manifest: BackupManifest;
  /** Records verified in the restored image. */
  records: number;
  /** An older image of the same register that was moved aside, if any. */
  replaced?: string;
  /**
   * This computer's mark of the CHDÚ is ahead of the backup (or unreadable): the register went on
   * after the backup, so `kasa serve` refuses fiscal writes with 201 until `kasa chdu
   * accept-rollback` (the numbers after the backup's last document would be issued again).
   */
  markAhead?: MarkComparison;
}

/** Bounds the work a bad archive can cause (a backup holds one image and a handful of files). */
const LIMITS = { maxEntries: 10_000, maxBytes: 64 * 1024 ** 3 };

/**
 * `kasa restore --from FILE` (ADR 0804). Everything is checked before anything in the data dir
 * changes: every entry's SHA-256 against the manifest, then the image's whole journal (framing,
 * CRCs, hash chain) ending exactly at the backup's point. A data dir that holds a newer state of
 * the register, or another register, is refused: only an empty data dir or an older state of the
 * same register (its last record is in the backup with the same chain hash) is replaced, and an
 * older image is kept beside the new one, never deleted.
 */
export async function restoreBackup(o: RestoreOptions): Promise<RestoreSummary> {
  // Before the data dir is created or locked: a wrong --from leaves nothing behind.
  const unusable = checkBackupSource(o.archive);
  if (unusable) throw new RestoreRefusedError(unusable);
  let lock: DataDirLock | undefined;
  if (!o.checkOnly) {
    mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
    try {
      lock = DataDirLock.acquire(o.dataDir, 'restore');
    } catch (e) {
      if (e instanceof DataDirLockedError) throw new RestoreRefusedError(e.message);
      throw e;
    }
    removeStaleStaging(o.dataDir);
  }
  const staging = o.checkOnly
    ? mkdtempSync(join(tmpdir(), 'kasa-restore-check-'))
    : join(o.dataDir, `.restore-${process.pid}`);
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    const { manifest, files } = await unpackAndCheck(o.archive, staging);
    const stagedImage = join(staging, IMAGE_ENTRY);
    const records = await verifyImage(stagedImage, manifest);
    if (o.checkOnly) return { manifest, records };

    await refuseNewerOrOther(o, manifest, stagedImage);
    const compared = o.markDir === undefined ? undefined : await compareWithMark(stagedImage, o.markDir);
    const marks = markDirInside(o.dataDir, o.markDir);
    const imageLock = await lockImage(o.imagePath, 'restore').catch((e: unknown) => {
      throw new RestoreRefusedError((e as Error).message);
    });
    let replaced: string | undefined;
    try {
      if (existsSync(o.imagePath)) {
        replaced = `${o.imagePath}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        renameSync(o.imagePath, replaced);
      }
      moveFile(stagedImage, o.imagePath);
    } finally {
      imageLock.release();
    }
    for (const f of manifest.files) {
      if (isUnder(f.path, marks)) continue; // a mark from the backup would undo rollback detection
      const target = join(o.dataDir, ...f.path.split('/'));
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      moveFile(files.get(f.path)!.path, target);
      chmodSync(target, f.mode);
    }
    new FileBackupLog(o.dataDir).record({
      takenAt: manifest.createdAt,
      recordNo: manifest.point.recordNo,
      chainHash: manifest.point.chainHash,
      file: o.archive,
      bytes: statSync(o.archive).size,
    });
    return {
      manifest,
      records,
      ...(replaced ? { replaced } : {}),
      ...(compared && !compared.verdict.ok ? { markAhead: compared } : {}),
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock?.release();
  }
}

/**
 * Checks what `kasa restore --from FILE` names before anything is created: a readable regular
 * file. Returns the problem in words (naming the file), or undefined when it can be read.
 */
export function checkBackupSource(archive: string): string | undefined {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(archive);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `the backup ${archive} does not exist`;
    return `the backup ${archive} cannot be read (${code ?? (e as Error).message})`;
  }
  if (stat.isDirectory()) return `${archive} is a folder; --from takes the backup file (.tar.gz) itself`;
  if (!stat.isFile()) return `${archive} is not a regular file; --from takes the backup file (.tar.gz)`;
  try {
    closeSync(openSync(archive, 'r'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `the backup ${archive} cannot be read by this user (${code ?? (e as Error).message})`;
  }
  return undefined;
}

/**
 * Staging folders of earlier restores that died before cleaning up (`.restore-<pid>`). Only
 * called under the data dir's lock, so no other restore is using one.
 */
function removeStaleStaging(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith('.restore-')) rmSync(join(dataDir, name), { recursive: true, force: true });
  }
}

/** Extracts the archive and checks it against its manifest: every entry listed, every sum right. */
async function unpackAndCheck(
  archive: string,
  staging: string,
): Promise<{ manifest: BackupManifest; files: Map<string, ExtractedEntry> }> {
  let entries: ExtractedEntry[];
  try {
    entries = await extractTarGz(archive, staging, LIMITS);
  } catch (e) {
    throw new RestoreRefusedError(`${archive} is not a readable kasa backup: ${(e as Error).message}`);
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const manifestEntry = byName.get(MANIFEST_ENTRY);
  if (!manifestEntry || manifestEntry.bytes > 16 * 1024 * 1024) {
    throw new RestoreRefusedError(`${archive} has no ${MANIFEST_ENTRY}: it is not a kasa backup`);
  }
  let manifest: BackupManifest;
  try {
    manifest = BackupManifest.parse(JSON.parse(readFileSync(manifestEntry.path, 'utf8')));
  } catch (e) {
    throw new RestoreRefusedError(
      `${archive}: the manifest is not a kasa backup manifest (${(e as Error).message})`,
    );
  }
  const expected = new Map<string, { bytes: number; sha256: string }>([
    [IMAGE_ENTRY, manifest.image],
    ...manifest.files.map((f) => [`${FILES_PREFIX}${f.path}`, f] as const),
  ]);
  for (const [name, want] of expected) {
    const got = byName.get(name);
    if (!got) throw new RestoreRefusedError(`${archive}: ${name} is missing`);
    if (got.bytes !== want.bytes || got.sha256 !== want.sha256) {
      throw new RestoreRefusedError(
        `${archive}: ${name} does not match its SHA-256 in the manifest (damaged)`,
      );
    }
  }
  for (const name of byName.keys()) {
    if (name !== MANIFEST_ENTRY && !expected.has(name)) {
      throw new RestoreRefusedError(`${archive}: ${name} is not in the manifest`);
    }
  }
  const files = new Map(manifest.files.map((f) => [f.path, byName.get(`${FILES_PREFIX}${f.path}`)!]));
  return { manifest, files };
}

/** The whole chain verifies and ends at the backup's point. */
async function verifyImage(path: string, manifest: BackupManifest): Promise<number> {
  const opened = await openImageJournal(path).catch((e: unknown) => {
    throw new RestoreRefusedError(`the backup's CHDÚ image cannot be opened: ${(e as Error).message}`);
  });
  try {
    const head = opened.journal.head();
    const headNo = head?.recordNo ?? 0;
    if (headNo !== manifest.point.recordNo || (head?.hash ?? '') !== manifest.point.chainHash) {
      throw new RestoreRefusedError(
        `the backup's CHDÚ image ends at record ${headNo}, but its manifest names record ${manifest.point.recordNo}`,
      );
    }
    const report = await opened.journal.verify();
    if (!report.ok)
      throw new RestoreRefusedError(`the backup's CHDÚ journal does not verify: ${report.problem}`);
    return report.records;
  } finally {
    await opened.close();
  }
}

/** Refuses a data dir that holds a newer state of this register, or another register. */
async function refuseNewerOrOther(
  o: RestoreOptions,
  manifest: BackupManifest,
  stagedImage: string,
): Promise<void> {
  const point = manifest.point.recordNo;
  const indexPath = join(o.dataDir, 'index.sqlite');
  if (existsSync(indexPath)) {
    const index = SqliteJournalIndex.openReadOnly(indexPath);
    const known = index?.highWaterMark() ?? 0;
    index?.close();
    if (known > point) {
      throw new RestoreRefusedError(
        `restore refused: the register in ${o.dataDir} is newer than the backup (its index knew record ${known}; the backup ends at record ${point}). Restore into a new data dir.`,
      );
    }
  }
  if (!existsSync(o.imagePath)) return;
  const current = await openImageJournal(o.imagePath).catch((e: unknown) => {
    throw new RestoreRefusedError(
      `restore refused: ${o.imagePath} exists but cannot be read as a CHDÚ image (${(e as Error).message}); move it aside first`,
    );
  });
  let head: { recordNo: number; hash: string } | undefined;
  try {
    head = current.journal.head();
  } finally {
    await current.close();
  }
  if (!head) return;
  if (head.recordNo > point) {
    throw new RestoreRefusedError(
      `restore refused: the register in ${o.dataDir} is newer than the backup (record ${head.recordNo}; the backup ends at record ${point})`,
    );
  }
  const staged = await openImageJournal(stagedImage);
  try {
    const same = await staged.journal.get(head.recordNo);
    if (same?.chainHash !== head.hash) {
      throw new RestoreRefusedError(
        `restore refused: ${o.imagePath} holds another register (its record ${head.recordNo} is not the backup's); restore into a new data dir`,
      );
    }
  } finally {
    await staged.close();
  }
}

/** Rename, or copy and remove when the target lies on another file system (`--chdu image:` elsewhere). */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    rmSync(from);
  }
}
