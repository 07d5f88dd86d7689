import {
  chmodSync,
  closeSync,
  createReadStream,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { FiscalError } from '../../core/fiscal-error.js';
import { endOfHeadRecord } from '../../core/journal/record-end.js';
import type { BackupLog } from '../../core/ports/backup-log.js';
import { HEADER_SIZE, SLOT_SIZE } from '../chdu/image-layout.js';
import { copySealedPrefix, truncateImageCopy } from '../chdu/image-snapshot.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  FILES_PREFIX,
  IMAGE_ENTRY,
  MANIFEST_ENTRY,
} from './backup-manifest.js';
import { BACKUP_LOG_FILE } from './file-backup-log.js';
import { openImageJournal } from './image-journal.js';
import { isUnder, markDirInside } from './mark-dir.js';
import { type ArchiveSink, TarGzWriter } from './tar-gz-writer.js';

export interface TakeBackupOptions {
  dataDir: string;
  /** The image CHDÚ (usually `<data-dir>/chdu.img`). */
  imagePath: string;
  /** The backup file to write (absolute). */
  target: string;
  /** Replace an existing backup file (atomically, once the new one is complete). */
  replace?: boolean;
  kasaVersion: string;
  now?: () => Date;
  /** Where the backup is noted for the status (default: none). */
  log?: BackupLog;
  /** The rollback marks' folder (`--mark-dir`): left out when it lies inside the data dir. */
  markDir?: string;
  /** Where the archive's bytes go (default: a new file at the temporary name; tests: a full disk). */
  sink?: ArchiveSink;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  point: BackupManifest['point'];
  blocks: number;
  files: string[];
}

/** Derived, ephemeral or private-to-a-process files of the data dir that a backup leaves out. */
const LEFT_OUT = new Set([
  'index.sqlite',
  'index.sqlite-wal',
  'index.sqlite-shm',
  'index.sqlite-journal',
  'kasa.lock',
  'kasa.lock.json',
  BACKUP_LOG_FILE,
]);
const LEFT_OUT_DIRS = new Set(['virtual-printer']);
const TEMPORARY = /\.(tmp|partial|replaced)-|^\.restore-|\.sqlite-(wal|shm|journal)$/;
const SQLITE = '.sqlite';

/**
 * `kasa backup` (ADR 0804): a consistent, verified copy of an image CHDÚ and the data dir's own
 * files, taken beside a running `kasa serve` without its lock and without stopping sales.
 *
 * 1. The image's sealed prefix is copied as it is now; the copy is cut after the last complete
 *    record (a record being appended meanwhile is left out whole). That record is the backup's
 *    point: every document acknowledged before the copy started is at or before it.
 * 2. The copy's journal is verified from record 1 (framing, CRCs, hash chain) and must end at the
 *    point; a copy that does not verify is no backup (201).
 * 3. The data dir's files (sealed merchant secrets as they are, the demo CA, …) are read after the
 *    point is fixed, so anything a record before the point needs was written before it.
 * 4. All of it goes into a `.tar.gz` with a manifest of SHA-256 sums, written under a temporary
 *    name, fsynced and renamed into place.
 */
export async function takeBackup(o: TakeBackupOptions): Promise<BackupSummary> {
  const now = o.now ?? (() => new Date());
  const staging = `${o.target}.partial-${process.pid}.d`;
  const partial = `${o.target}.partial-${process.pid}`;
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  let writer: TarGzWriter | undefined;
  try {
    const stagedImage = join(staging, IMAGE_ENTRY);
    const copied = await copySealedPrefix(o.imagePath, stagedImage);
    const { point, blocks } = await fixPoint(stagedImage, copied);
    await verifyCopy(stagedImage, point);

    const files = listDataFiles(o.dataDir, o.imagePath, markDirInside(o.dataDir, o.markDir));
    writer = new TarGzWriter(partial, o.sink);
    const imageBytes = HEADER_SIZE + blocks * SLOT_SIZE;
    const imageSha = await writer.addFile(
      IMAGE_ENTRY,
      imageBytes,
      createReadStream(stagedImage, { end: imageBytes - 1 }),
    );
    const entries: BackupManifest['files'] = [];
    for (const path of files) {
      // A live SQLite database (the QR payment intents) is copied through SQLite's own backup,
      // which gives one consistent state; its -wal/-shm files are then not needed.
      const source = path.endsWith(SQLITE)
        ? await sqliteSnapshot(join(o.dataDir, ...path.split('/')), join(staging, `db-${entries.length}`))
        : join(o.dataDir, ...path.split('/'));
      const entry = source === undefined ? undefined : await addDataFile(writer, source, path);
      if (entry) entries.push(entry);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: now().toISOString(),
      kasaVersion: o.kasaVersion,
      source: { dataDir: o.dataDir, chdu: `image:${o.imagePath}` },
      point,
      image: { entry: IMAGE_ENTRY, bytes: imageBytes, blocks, sha256: imageSha },
      files: entries,
    };
    await writer.addBuffer(MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await writer.finish();
    writer = undefined;
    renameSync(partial, o.target);
    syncDir(dirname(o.target));
    const bytes = statSync(o.target).size;
    o.log?.record({
      takenAt: manifest.createdAt,
      recordNo: point.recordNo,
      chainHash: point.chainHash,
      file: o.target,
      bytes,
    });
    return { file: o.target, bytes, point, blocks, files: entries.map((e) => e.path) };
  } catch (e) {
    writer?.abort();
    rmSync(partial, { force: true });
    throw namedWriteError(e, o.target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Errors of write(2) and fsync(2) that Node reports without a file name. */
const WRITE_CALLS = new Set(['write', 'writev', 'fsync', 'fdatasync', 'close', 'ftruncate']);
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A failed write names the backup being written: Node's `ENOSPC: no space left on device, write`
 * does not say which file (the copy of the image and the archive both sit beside `--to`).
 */
function namedWriteError(e: unknown, target: string): unknown {
  const errno = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof errno.code !== 'string' || errno.path !== undefined) return e;
  const failedWrite = errno.syscall !== undefined && WRITE_CALLS.has(errno.syscall);
  if (!failedWrite && !NO_ROOM.has(errno.code)) return e;
  const hint = NO_ROOM.has(errno.code)
    ? `: the disk holding ${dirname(target)} is full; free space there or give --to another disk`
    : '';
  return new Error(`cannot write the backup ${target} (${errno.message})${hint}; nothing was kept`, {
    cause: e,
  });
}

/** Checks what `kasa backup --to FILE` may write before anything is read. */
export function checkBackupTarget(target: string, dataDir: string, replace: boolean): string | undefined {
  if (!isAbsolute(target)) return 'the backup file must be an absolute path';
  const rel = relative(dataDir, target);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    return 'the backup file must not be inside the data dir (the next backup would copy it)';
  }
  if (!existsSync(dirname(target))) return `its folder ${dirname(target)} does not exist`;
  if (existsSync(target) && !replace) return 'the file exists; a backup never overwrites one without --force';
  return undefined;
}

/** The copy's point: its last complete record; the copy is cut right after it (and its print blocks). */
async function fixPoint(
  path: string,
  copied: number,
): Promise<{ point: BackupManifest['point']; blocks: number }> {
  const opened = await openImageJournal(path);
  let end: number;
  let point: BackupManifest['point'];
  try {
    const head = opened.journal.head();
    const status = await opened.chdu.status();
    if (status.deviceLocked) {
      // A locked image is never written again: its lock marker stays at the end.
      end = copied;
    } else {
      end = head ? await endOfHeadRecord(opened.chdu, head, copied) : 0;
    }
    point = head
      ? {
          recordNo: head.recordNo,
          chainHash: head.hash,
          ...(head.writtenAt ? { writtenAt: head.writtenAt } : {}),
        }
      : { recordNo: 0, chainHash: '' };
  } finally {
    await opened.close();
  }
  if (end < copied) await truncateImageCopy(path, end);
  return { point, blocks: end };
}

async function verifyCopy(path: string, point: BackupManifest['point']): Promise<void> {
  const opened = await openImageJournal(path);
  try {
    const report = await opened.journal.verify();
    const last = report.lastRecordNo ?? 0;
    if (!report.ok || last !== point.recordNo || (report.lastHash ?? '') !== point.chainHash) {
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        `The copy of the CHDÚ image does not verify (${report.problem ?? `it ends at record ${last}, not ${point.recordNo}`}); run kasa chdu verify on the register.`,
      );
    }
  } finally {
    await opened.close();
  }
}

/** Regular files of the data dir to keep, relative with `/`, in a stable order. */
function listDataFiles(dataDir: string, imagePath: string, marks: string | undefined): string[] {
  const image = relative(dataDir, imagePath).split(sep).join('/');
  const skip = new Set([image, `${image}.lock`, `${image}.lock.json`]);
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (TEMPORARY.test(entry.name) || skip.has(path) || isUnder(path, marks)) continue;
      if (entry.isDirectory()) {
        if (!(rel === '' && LEFT_OUT_DIRS.has(entry.name))) walk(join(dir, entry.name), path);
      } else if (entry.isFile() && !(rel === '' && LEFT_OUT.has(entry.name))) {
        out.push(path);
      }
    }
  };
  if (existsSync(dataDir)) walk(dataDir, '');
  return out.sort();
}

/** A consistent copy of a SQLite database that may be in use; undefined when it vanished. */
async function sqliteSnapshot(database: string, copy: string): Promise<string | undefined> {
  if (!existsSync(database)) return undefined;
  const db = new Database(database, { readonly: true, fileMustExist: true });
  try {
    await db.backup(copy);
    chmodSync(copy, statSync(database).mode & 0o7777);
    return copy;
  } finally {
    db.close();
  }
}

/**
 * One file stored under `path` in the archive, read from `file` through one descriptor (a file
 * replaced by rename meanwhile is read whole).
 */
async function addDataFile(
  writer: TarGzWriter,
  file: string,
  path: string,
): Promise<BackupManifest['files'][number] | undefined> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined; // removed since it was listed
  }
  const stat = fstatSync(fd);
  const mode = stat.mode & 0o7777;
  const source =
    stat.size === 0 ? [] : createReadStream('', { fd, start: 0, end: stat.size - 1, autoClose: false });
  try {
    const sha256 = await writer.addFile(`${FILES_PREFIX}${path}`, stat.size, source, mode, stat.mtimeMs);
    return { path, bytes: stat.size, sha256, mode };
  } finally {
    closeSync(fd);
  }
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
