import type { FixedSetting, LiveSettings } from '../../settings/live-settings.js';
import type { Settings } from '../../settings/settings-schema.js';

/** What `GET /api/settings/get` answers (the shape of ADR 0008 §3, recorded in ADR 1001). */
export interface SettingsView {
  resultCode: 0;
  settings: Settings;
  /** Keys a flag or `KASA_*` variable fixed for this process. */
  fixed: string[];
  /** For each fixed key, what fixed it (`--printer`, `KASA_SFS_URL`): kasa's addition. */
  fixedBy: Record<string, string>;
}

export function settingsView(live: LiveSettings): SettingsView {
  const fixed: FixedSetting[] = live.fixed();
  return {
    resultCode: 0,
    settings: live.current(),
    fixed: fixed.map((f) => f.key),
    fixedBy: Object.fromEntries(fixed.map((f) => [f.key, f.by])),
  };
}
