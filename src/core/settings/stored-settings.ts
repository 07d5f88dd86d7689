import { normalizeIban } from '../qr-payments/iban.js';
import { foldPaymeText } from '../qr-payments/payme-text.js';
import { parseSettingValue, SETTING_DEFAULTS } from './settings-schema.js';

/**
 * The stored settings the core reads straight from the index (`JournalIndex.settings()`, the
 * `settings` records merged), typed and checked by the one settings schema (`settings-schema.ts`,
 * ADR 1000): here in the form their users take them — QR texts folded, the IBAN without spaces,
 * "not set" as undefined. A key never stored, or stored with a value the schema refuses, reads as
 * its default. Keys a flag can fix (printer, SFS) are read through `LiveSettings`, which knows the
 * flags.
 */
export interface StoredSettings {
  /** Send VK/VY created on or after 1 January 2026 (Act 384/2025; test environments; ADR 0704). */
  forceSendCashDocuments: boolean;
  /** First wait before the offline sender tries again after a failed try, ms (ADR 0710). */
  resendIntervalMs: number;
  /** The longest wait between two tries; the wait doubles up to it, ms. */
  resendMaxIntervalMs: number;
  /** Documents and locations one batch of the offline sender sends at most. */
  resendBatchLimit: number;
  /** Hours from the first attempt within which a stored message must reach the SFS (ADR 0702). */
  resendDeadlineHours: number;
  /** Payment names that mean cash (ADR 0420). */
  cashPaymentNames: readonly string[];
  /** QR payments through NOP: `off`, `int` or `prod` (ADR 0903). */
  nopEnvironment: 'off' | 'int' | 'prod';
  /** The merchant's notification-enabled account, without spaces. */
  nopIban: string | undefined;
  /** Payme `CN`, folded; undefined = the merchant's name. */
  nopCreditorName: string | undefined;
  /** Payme `MSG`, folded; undefined = none. */
  nopMessage: string | undefined;
  /** Payme link type (ADR 0902). */
  nopPaymeType: 'm' | 'p';
  /** Seconds a new QR payment waits for the money (30–1800). */
  nopExpirySeconds: number;
  /** The `payments` name receipts use for QR payments. */
  nopTenderName: string;
}

export interface StoredSettingSpec<T> {
  readonly defaultValue: T;
  /** The value when `raw` is a valid stored value, else undefined (then the default applies). */
  parse(raw: unknown): T | undefined;
}

type Key = keyof StoredSettings;

/** A key read as the schema has it (null, "not set", reads as undefined), then put in its users' form. */
function spec<K extends Key>(
  key: K,
  form: (value: NonNullable<(typeof SETTING_DEFAULTS)[K]>) => StoredSettings[K] = (v) =>
    v as StoredSettings[K],
): StoredSettingSpec<StoredSettings[K]> {
  const defaultValue = SETTING_DEFAULTS[key];
  return {
    defaultValue: (defaultValue === null
      ? undefined
      : form(defaultValue as NonNullable<typeof defaultValue>)) as StoredSettings[K],
    parse: (raw) => {
      const value = parseSettingValue(key, raw);
      return value === undefined || value === null ? undefined : form(value as NonNullable<typeof value>);
    },
  };
}

export const STORED_SETTINGS: { readonly [K in Key]: StoredSettingSpec<StoredSettings[K]> } = {
  forceSendCashDocuments: spec('forceSendCashDocuments'),
  resendIntervalMs: spec('resendIntervalMs'),
  resendMaxIntervalMs: spec('resendMaxIntervalMs'),
  resendBatchLimit: spec('resendBatchLimit'),
  resendDeadlineHours: spec('resendDeadlineHours'),
  cashPaymentNames: spec('cashPaymentNames', (names) => Object.freeze([...names])),
  nopEnvironment: spec('nopEnvironment'),
  nopIban: spec('nopIban', normalizeIban),
  nopCreditorName: spec('nopCreditorName', foldPaymeText),
  nopMessage: spec('nopMessage', foldPaymeText),
  nopPaymeType: spec('nopPaymeType'),
  nopExpirySeconds: spec('nopExpirySeconds'),
  nopTenderName: spec('nopTenderName'),
};

/** The value of one stored setting: the stored one when it fits its type, else the default. */
export function readStoredSetting<K extends Key>(
  stored: Readonly<Record<string, unknown>>,
  key: K,
): StoredSettings[K] {
  const s = STORED_SETTINGS[key];
  return s.parse(stored[key]) ?? s.defaultValue;
}
