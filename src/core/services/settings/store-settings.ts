import { invalidInput } from '../../fiscal-error.js';
import type { Journal } from '../../ports/journal.js';
import type { PreparedSettingsChange, SettingsApplier } from '../../ports/settings-applier.js';
import type { LiveSettings } from '../../settings/live-settings.js';
import {
  parseSettingValue,
  SETTING_KEYS,
  SETTINGS_SHAPE,
  type SettingKey,
  type Settings,
  sameSettingValue,
  settingsConflict,
} from '../../settings/settings-schema.js';
import type { WriteLock } from '../write-lock.js';
import { type SettingsView, settingsView } from './get-settings.js';

export interface StoreSettingsDeps {
  journal: Journal;
  lock: WriteLock;
  settings: LiveSettings;
  appliers: readonly SettingsApplier[];
}

/**
 * `PUT /api/settings/store {settings: {...any subset}}` (capability 12, ADR 1001, 1003). Every key is
 * checked before anything happens: an unknown key or a bad value is 701 naming `settings.<key>`;
 * a key fixed by a flag may be sent only with the value in force (so sending back exactly what
 * `GET /api/settings/get` returned is always accepted). The keys whose value changes are written
 * as one `settings` record into the CHDÚ (the index follows, so they survive a restart and a
 * reindex) and take effect at once: a new printer or SFS target is opened first, and one that
 * cannot be opened is 701 naming its key with nothing written and the old one kept.
 *
 * It is a CHDÚ write, so it holds the one-writer lock (300 while another writer runs), which also
 * means no fiscal request is half-way through when the printer or the SFS client changes. It is
 * not held back by an unprinted (508) or stuck (501) document: changing the printer or the SFS is
 * how such a block is often cleared (ADR 1003).
 */
export class StoreSettings {
  constructor(private readonly deps: StoreSettingsDeps) {}

  async execute(patch: unknown): Promise<SettingsView & { changed: SettingKey[] }> {
    const values = readPatch(patch);
    return this.deps.lock.run('settings/store', async () => {
      const live = this.deps.settings;
      const previous = live.current();
      const changes: Partial<Record<SettingKey, unknown>> = {};
      for (const key of Object.keys(values) as SettingKey[]) {
        const value = values[key];
        if (sameSettingValue(value, previous[key])) continue;
        const by = live.fixedBy(key);
        if (by !== undefined) {
          throw invalidInput(
            `settings.${key}`,
            `is fixed by ${by} for as long as kasa runs; change it there (or start without it), or send the value in force`,
            { fixedBy: by },
          );
        }
        changes[key] = value;
      }
      const changed = Object.keys(changes) as SettingKey[];
      if (changed.length === 0) return { ...settingsView(live), changed };
      const next = { ...previous, ...changes } as Settings;
      const conflict = settingsConflict(next);
      if (conflict) throw invalidInput(`settings.${conflict[0]}`, conflict[1]);

      const prepared: PreparedSettingsChange[] = [];
      const abortAll = () => Promise.all(prepared.map((p) => p.abort().catch(() => undefined)));
      try {
        for (const applier of this.deps.appliers) {
          const change = await applier.prepare(previous, next);
          if (change) prepared.push(change);
        }
        await this.deps.journal.append({ type: 'settings', body: { changes } });
      } catch (e) {
        await abortAll();
        throw e;
      }
      for (const change of prepared) change.commit();
      return { ...settingsView(live), changed };
    });
  }
}

/** The `settings` member: an object of known keys with valid values, else 701 naming the key. */
function readPatch(patch: unknown): Partial<Settings> {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw invalidInput('settings', 'must be an object of setting keys and values');
  }
  const out: Partial<Record<SettingKey, unknown>> = {};
  for (const [key, raw] of Object.entries(patch)) {
    if (!(SETTING_KEYS as string[]).includes(key)) {
      throw invalidInput(`settings.${key}`, 'is not a setting; GET /api/settings/get lists them');
    }
    const k = key as SettingKey;
    const value = parseSettingValue(k, raw);
    if (value === undefined) {
      const issue = SETTINGS_SHAPE[k].safeParse(raw).error?.issues[0]?.message ?? 'is not valid';
      throw invalidInput(`settings.${key}`, raw === undefined ? 'must have a value' : issue);
    }
    out[k] = value;
  }
  return out as Partial<Settings>;
}
