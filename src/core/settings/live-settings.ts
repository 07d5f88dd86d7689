import {
  parseSettingValue,
  SETTING_KEYS,
  type SettingKey,
  type Settings,
  settingsConflict,
} from './settings-schema.js';

/** Why a key cannot be changed through the settings: the flag or variable that fixed it. */
export interface FixedSetting {
  key: SettingKey;
  /** `--printer`, `KASA_SFS_URL`, … */
  by: string;
}

export interface LiveSettingsSources {
  /**
   * The values before any stored setting: the built-in defaults, with what the command line gave
   * (or what embedding code composed the register with) in their place.
   */
  baseline: Settings;
  /** Keys a flag or `KASA_*` variable gave explicitly: always their baseline value (ADR 1001). */
  fixed: readonly FixedSetting[];
  /** The stored settings (`JournalIndex.settings()`: every `settings` record merged in order). */
  stored(): Readonly<Record<string, unknown>>;
}

/**
 * The settings in force, read afresh on every call so that a stored change — through
 * `PUT /api/settings/store` or a `settings` record found by a reindex — applies at once. For each
 * key: the fixed value, else the stored one when valid, else the baseline. Stored values that
 * break a rule between keys (e.g. a line width the paper cannot hold) give way to the baseline of
 * the keys involved, so the register never runs with a combination `PUT` would refuse.
 */
export class LiveSettings {
  readonly #fixed: ReadonlyMap<SettingKey, string>;

  constructor(private readonly sources: LiveSettingsSources) {
    this.#fixed = new Map(sources.fixed.map((f) => [f.key, f.by]));
  }

  current(): Settings {
    const stored = this.sources.stored();
    const out = { ...this.sources.baseline } as Record<SettingKey, unknown>;
    for (const key of SETTING_KEYS) {
      if (this.#fixed.has(key)) continue;
      const value = parseSettingValue(key, stored[key]);
      if (value !== undefined) out[key] = value;
    }
    const settings = out as Settings;
    const conflict = settingsConflict(settings);
    if (conflict === undefined) return settings;
    return this.#withoutConflict(settings, conflict[0]);
  }

  /** The keys fixed for this process, with what fixed them. */
  fixed(): FixedSetting[] {
    return [...this.#fixed].map(([key, by]) => ({ key, by }));
  }

  isFixed(key: SettingKey): boolean {
    return this.#fixed.has(key);
  }

  fixedBy(key: SettingKey): string | undefined {
    return this.#fixed.get(key);
  }

  /** The baseline of the keys a broken rule involves (their group), fixed keys untouched. */
  #withoutConflict(settings: Settings, key: SettingKey): Settings {
    const group: SettingKey[] =
      key === 'printerCharsPerLine'
        ? ['printerCharsPerLine', 'printerPaperWidthDots']
        : ['sfsUrl', 'sfsTrust'];
    const out = { ...settings } as Record<SettingKey, unknown>;
    for (const k of group) if (!this.#fixed.has(k)) out[k] = this.sources.baseline[k];
    return out as Settings;
  }
}
