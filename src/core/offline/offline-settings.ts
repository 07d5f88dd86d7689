/**
 * The stored settings of offline sending, in ONE typed place (issue 10). Each key is read from the
 * stored settings (the `settings` records of the CHDÚ, merged by the index) and falls back to its
 * default when absent or invalid; the settings endpoint (a later issue) validates with the same
 * rules. docs/offline.md lists them.
 */
export interface OfflineSettings {
  /** First wait before the sender tries again after a failed attempt, ms. */
  resendIntervalMs: number;
  /** The longest wait between two tries; the wait doubles after each failed try up to this, ms. */
  resendMaxIntervalMs: number;
  /** Items one batch sends at most (the background sender runs batch after batch). */
  resendBatchLimit: number;
  /** Hours from the first attempt within which a stored message must reach the SFS (ADR 0702). */
  resendDeadlineHours: number;
  /**
   * Send VK/VY created on or after 1 January 2026 although Act 384/2025 ended sending them
   * (test environments only: ADR 0704).
   */
  forceSendCashDocuments: boolean;
}

interface SettingRule<T> {
  default: T;
  description: string;
  valid(value: unknown): value is T;
}

const integerIn =
  (min: number, max: number) =>
  (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/** Every key with its default, the accepted values, and what it does. */
export const OFFLINE_SETTING_RULES: {
  readonly [K in keyof OfflineSettings]: SettingRule<OfflineSettings[K]>;
} = {
  resendIntervalMs: {
    default: 30_000,
    description: 'First wait before retrying after a failed send, ms (100–3600000).',
    valid: integerIn(100, 3_600_000),
  },
  resendMaxIntervalMs: {
    default: 600_000,
    description: 'Longest wait between retries; the wait doubles up to it, ms (100–86400000).',
    valid: integerIn(100, 86_400_000),
  },
  resendBatchLimit: {
    default: 100,
    description: 'Documents and locations sent per batch (1–1000).',
    valid: integerIn(1, 1000),
  },
  resendDeadlineHours: {
    default: 96,
    description: 'Hours from the first attempt within which a stored message must be sent (1–8760).',
    valid: integerIn(1, 8760),
  },
  forceSendCashDocuments: {
    default: false,
    description:
      'Send deposits and withdrawals (VK/VY) created from 1 January 2026 although Act 384/2025 ended it (test environments).',
    valid: isBoolean,
  },
};

export const OFFLINE_SETTING_DEFAULTS: OfflineSettings = {
  resendIntervalMs: OFFLINE_SETTING_RULES.resendIntervalMs.default,
  resendMaxIntervalMs: OFFLINE_SETTING_RULES.resendMaxIntervalMs.default,
  resendBatchLimit: OFFLINE_SETTING_RULES.resendBatchLimit.default,
  resendDeadlineHours: OFFLINE_SETTING_RULES.resendDeadlineHours.default,
  forceSendCashDocuments: OFFLINE_SETTING_RULES.forceSendCashDocuments.default,
};

/** The offline settings in force: each stored value when valid, else the default. */
export function readOfflineSettings(stored: Record<string, unknown>): OfflineSettings {
  const pick = <K extends keyof OfflineSettings>(key: K): OfflineSettings[K] => {
    const value = stored[key];
    return OFFLINE_SETTING_RULES[key].valid(value)
      ? (value as OfflineSettings[K])
      : OFFLINE_SETTING_DEFAULTS[key];
  };
  const interval = pick('resendIntervalMs');
  return {
    resendIntervalMs: interval,
    // A maximum below the first wait would shorten the first wait: the larger of the two.
    resendMaxIntervalMs: Math.max(interval, pick('resendMaxIntervalMs')),
    resendBatchLimit: pick('resendBatchLimit'),
    resendDeadlineHours: pick('resendDeadlineHours'),
    forceSendCashDocuments: pick('forceSendCashDocuments'),
  };
}
