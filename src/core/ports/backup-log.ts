/**
 * Where the last backup of the register is noted (ADR 0804): `kasa backup` records it after the
 * backup file is complete and fsynced; the status reads it (a file in the data dir, so a backup
 * taken by another process while `kasa serve` runs is seen at once).
 *
 * Neither member raises a result code: a missing or unreadable note reads as "no backup".
 */
export interface BackupLog {
  /** The last backup, or undefined when none is noted (or the note cannot be read). */
  last(): LastBackup | undefined;
  /** Notes a completed backup, replacing the previous note atomically. */
  record(backup: LastBackup): void;
}

export interface LastBackup {
  /** When the backup was completed (ISO 8601 UTC). */
  takenAt: string;
  /** The backup's point: the last journal record it holds (0 for an empty journal). */
  recordNo: number;
  /** The chain hash after that record (hex), empty for an empty journal. */
  chainHash: string;
  /** The backup file as it was written (absolute path). */
  file: string;
  bytes: number;
}
