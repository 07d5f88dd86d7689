import {
  closeSync,
  fchownSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { BackupLog, LastBackup } from '../../core/ports/backup-log.js';

/** The note's file in the data dir; `kasa backup` never copies it into a backup. */
export const BACKUP_LOG_FILE = 'last-backup.json';

const Note = z.object({
  takenAt: z.iso.datetime(),
  recordNo: z.number().int().min(0),
  chainHash: z.string(),
  file: z.string(),
  bytes: z.number().int().min(0),
});

/** {@link BackupLog} as `<data-dir>/last-backup.json`, replaced atomically (ADR 0804). */
export class FileBackupLog implements BackupLog {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, BACKUP_LOG_FILE);
  }

  last(): LastBackup | undefined {
    try {
      const parsed = Note.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  record(backup: LastBackup): void {
    const tmp = `${this.path}.tmp-${process.pid}`;
    const fd = openSync(tmp, 'w', 0o644);
    try {
      writeSync(fd, `${JSON.stringify(Note.parse(backup), null, 2)}\n`);
      ownLikeDataDir(fd, dirname(this.path));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
  }
}

/**
 * A `sudo kasa backup` (root) on the service's data dir: the note gets the data dir's owner, as
 * everything else in it has, so the service's user can still read and write it at its next start
 * (a root-owned note stops `kasa serve` with exit 2). Any other caller cannot give files away and
 * needs not: its file is its own.
 */
function ownLikeDataDir(fd: number, dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  const dir = statSync(dataDir);
  if (dir.uid !== 0 || dir.gid !== 0) fchownSync(fd, dir.uid, dir.gid);
}
