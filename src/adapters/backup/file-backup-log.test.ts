import { chownSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_LOG_FILE, FileBackupLog } from './file-backup-log.js';

const note = {
  takenAt: '2026-03-01T10:00:00.000Z',
  recordNo: 5,
  chainHash: 'ab',
  file: '/x.tar.gz',
  bytes: 10,
};
const NOBODY = 65534;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-backup-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileBackupLog', () => {
  it('reads back what it recorded', () => {
    new FileBackupLog(dir).record(note);
    expect(new FileBackupLog(dir).last()).toEqual(note);
  });

  // M5 (shop review s12): `sudo kasa backup` on the service's data dir left a root-owned note,
  // and the service's next start exited 2 because its user could not write it.
  it.runIf(process.getuid?.() === 0)(
    'run as root on a data dir of another user, gives the note to that user',
    () => {
      chownSync(dir, NOBODY, NOBODY);
      new FileBackupLog(dir).record(note);
      const st = statSync(join(dir, BACKUP_LOG_FILE));
      expect([st.uid, st.gid]).toEqual([NOBODY, NOBODY]);
    },
  );

  it.runIf(process.getuid?.() === 0)('run as root on a data dir of root, leaves the note to root', () => {
    new FileBackupLog(dir).record(note);
    expect(statSync(join(dir, BACKUP_LOG_FILE)).uid).toBe(0);
  });
});
