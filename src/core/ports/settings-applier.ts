import type { Settings } from '../settings/settings-schema.js';

/**
 * Puts changed settings into effect without a restart (capability 12, ADR 1003): the printer and the
 * SFS client are swapped between requests. A change is applied in two steps so that a target that
 * cannot be opened leaves everything as it was: `prepare` opens what the new values need, then —
 * only once the settings record is in the CHDÚ — `commit` makes it current. Implemented in the
 * composition root (it opens adapters).
 */
export interface SettingsApplier {
  /**
   * Readies `next`, when it differs from `previous` in a key this applier cares about.
   * @returns undefined when nothing of its concern changed.
   * @throws FiscalError INVALID_INPUT (701) naming `settings.<key>` when the new target cannot be
   *   opened or used (a printer that does not answer, an unreadable trust file); nothing changed.
   */
  prepare(previous: Settings, next: Settings): Promise<PreparedSettingsChange | undefined>;
}

export interface PreparedSettingsChange {
  /** Makes the prepared adapter current; the old one is closed once its work in flight ends. */
  commit(): void;
  /** Releases what `prepare` opened (the settings record could not be written). */
  abort(): Promise<void>;
}
