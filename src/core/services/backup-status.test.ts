import { describe, expect, it } from 'vitest';
import type { BackupLog, LastBackup } from '../ports/backup-log.js';
import { BACKUP_WARNING_AGE_MS, backupProbe } from './backup-status.js';

const now = new Date('2026-03-10T12:00:00Z');
const logOf = (last: LastBackup | undefined): BackupLog => ({ last: () => last, record: () => undefined });
const taken = (msAgo: number): LastBackup => ({
  takenAt: new Date(now.getTime() - msAgo).toISOString(),
  recordNo: 42,
  chainHash: 'ab'.repeat(32),
  file: '/backup/till.tar.gz',
  bytes: 1000,
});

describe('BACKUP status', () => {
  it('warns when no backup was ever taken', () => {
    expect(backupProbe(logOf(undefined), () => now, true).check()).toMatchObject({
      component: 'BACKUP',
      state: 'WARNING',
    });
  });

  it('shows the age of a recent backup', () => {
    expect(backupProbe(logOf(taken(3 * 3600_000)), () => now, true).check()).toMatchObject({
      state: 'OK',
      reason: 'Last backup 3 h ago, up to record 42.',
      details: { ageSeconds: 3 * 3600, recordNo: 42, file: '/backup/till.tar.gz' },
    });
  });

  it('warns when the last backup is older than a week', () => {
    const s = backupProbe(logOf(taken(BACKUP_WARNING_AGE_MS + 86_400_000)), () => now, true).check();
    expect(s).toMatchObject({ state: 'WARNING', reason: expect.stringContaining('8 days old') });
  });

  it('is not configured for a CHDU Lite device, which keeps the memory itself', () => {
    expect(backupProbe(logOf(undefined), () => now, false).check()).toMatchObject({
      state: 'NOT_CONFIGURED',
    });
  });
});
