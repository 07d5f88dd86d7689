/** The settings role of the journal index. */
export interface SettingsIndex {
  /** Stored settings: all settings records merged in order (a later value wins; `null` removes the key). */
  settings(): Record<string, unknown>;
}
