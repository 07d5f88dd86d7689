import { readStoredSetting, STORED_SETTINGS } from '../settings/stored-settings.js';

/**
 * The stored settings of offline sending (capability 10). Their types, defaults and accepted values are
 * in the one table of stored settings (`core/settings/stored-settings.ts`); this reads them
 * together, with the one rule between two of them. docs/offline.md lists them.
 */
export interface OfflineSettings {
  resendIntervalMs: number;
  resendMaxIntervalMs: number;
  resendBatchLimit: number;
  resendDeadlineHours: number;
  forceSendCashDocuments: boolean;
}

export const OFFLINE_SETTING_DEFAULTS: OfflineSettings = {
  resendIntervalMs: STORED_SETTINGS.resendIntervalMs.defaultValue,
  resendMaxIntervalMs: STORED_SETTINGS.resendMaxIntervalMs.defaultValue,
  resendBatchLimit: STORED_SETTINGS.resendBatchLimit.defaultValue,
  resendDeadlineHours: STORED_SETTINGS.resendDeadlineHours.defaultValue,
  forceSendCashDocuments: STORED_SETTINGS.forceSendCashDocuments.defaultValue,
};

/** The offline settings in force: each stored value when valid, else the default. */
export function readOfflineSettings(stored: Readonly<Record<string, unknown>>): OfflineSettings {
  const interval = readStoredSetting(stored, 'resendIntervalMs');
  return {
    resendIntervalMs: interval,
    // A maximum below the first wait would shorten the first wait: the larger of the two.
    resendMaxIntervalMs: Math.max(interval, readStoredSetting(stored, 'resendMaxIntervalMs')),
    resendBatchLimit: readStoredSetting(stored, 'resendBatchLimit'),
    resendDeadlineHours: readStoredSetting(stored, 'resendDeadlineHours'),
    forceSendCashDocuments: readStoredSetting(stored, 'forceSendCashDocuments'),
  };
}
