import type { BackupLog } from '../ports/backup-log.js';
import type { ComponentStatus, StatusProbe } from './register-status.js';

/** A register's image should be copied at least this often (docs/backup.md recommends daily). */
export const BACKUP_WARNING_AGE_MS = 7 * 24 * 3600_000;

/**
 * `BACKUP` of `GET /api/status/get` (ADR 0804): the age of the last `kasa backup`. Only an image
 * CHDÚ needs one — a CHDU Lite device keeps the fiscal memory itself (docs/backup.md).
 */
export function backupProbe(log: BackupLog, now: () => Date, chduIsImage: boolean): StatusProbe {
  return {
    component: 'BACKUP',
    check(): ComponentStatus {
      if (!chduIsImage) {
        return {
          component: 'BACKUP',
          state: 'NOT_CONFIGURED',
          reasonCode: 0,
          reason: 'The CHDU Lite device keeps the fiscal memory; kasa backup copies image CHDÚs only.',
        };
      }
      const last = log.last();
      if (!last) {
        return {
          component: 'BACKUP',
          state: 'WARNING',
          reasonCode: 0,
          reason: 'No backup of the CHDÚ image has been taken: run kasa backup --to FILE (docs/backup.md).',
        };
      }
      const ageMs = Math.max(0, now().getTime() - Date.parse(last.takenAt));
      const details = {
        lastBackupAt: last.takenAt,
        ageSeconds: Math.floor(ageMs / 1000),
        recordNo: last.recordNo,
        file: last.file,
        bytes: last.bytes,
      };
      const age = describeAge(ageMs);
      if (ageMs > BACKUP_WARNING_AGE_MS) {
        return {
          component: 'BACKUP',
          state: 'WARNING',
          reasonCode: 0,
          reason: `The last backup is ${age} old: take one with kasa backup --to FILE.`,
          details,
        };
      }
      return {
        component: 'BACKUP',
        state: 'OK',
        reasonCode: 0,
        reason: `Last backup ${age} ago, up to record ${last.recordNo}.`,
        details,
      };
    },
  };
}

function describeAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}
