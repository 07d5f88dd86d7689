import { parseSettingValue, SETTING_DEFAULTS, type Settings } from './settings-schema.js';

/**
 * The stored settings the core reads straight from the index (`JournalIndex.settings()`, the
 * `settings` records merged), typed by the one settings schema (`settings-schema.ts`). A key never
 * stored — or stored with a value that does not fit its type — reads as its default. Keys a flag
 * can fix (printer, SFS) are read through `LiveSettings` instead, which knows the flags.
 */
export type StoredSettings = Pick<
  Settings,
  | 'forceSendCashDocuments'
  | 'resendIntervalMs'
  | 'resendMaxIntervalMs'
  | 'resendBatchLimit'
  | 'resendDeadlineHours'
  | 'cashPaymentNames'
>;

export interface StoredSettingSpec<T> {
  readonly defaultValue: T;
  /** The value when `raw` is a valid stored value, else undefined (then the default applies). */
  parse(raw: unknown): T | undefined;
}

const spec = <K extends keyof StoredSettings>(key: K): StoredSettingSpec<StoredSettings[K]> => ({
  defaultValue: SETTING_DEFAULTS[key],
  parse: (raw) => parseSettingValue(key, raw),
});

export const STORED_SETTINGS: { readonly [K in keyof StoredSettings]: StoredSettingSpec<StoredSettings[K]> } =
  {
    forceSendCashDocuments: spec('forceSendCashDocuments'),
    resendIntervalMs: spec('resendIntervalMs'),
    resendMaxIntervalMs: spec('resendMaxIntervalMs'),
    resendBatchLimit: spec('resendBatchLimit'),
    resendDeadlineHours: spec('resendDeadlineHours'),
    cashPaymentNames: spec('cashPaymentNames'),
  };

/** The value of one stored setting: the stored one when it fits its type, else the default. */
export function readStoredSetting<K extends keyof StoredSettings>(
  stored: Readonly<Record<string, unknown>>,
  key: K,
): StoredSettings[K] {
  const s = STORED_SETTINGS[key];
  return s.parse(stored[key]) ?? s.defaultValue;
}
