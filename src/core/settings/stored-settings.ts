import { isValidIban, normalizeIban } from '../qr-payments/iban.js';
import { foldPaymeText } from '../qr-payments/payme-text.js';

/**
 * The stored settings the core reads, in ONE typed place: each key's type, default and the rule
 * a stored value must meet. Values live in the journal as `settings` records (merged by the index,
 * `JournalIndex.settings()`); a key never stored — or stored with a value that does not fit its
 * type — reads as its default. The HTTP endpoint that changes them comes later (its schema is to
 * be built from this table); until then a settings record in the CHDÚ is the only way to change one.
 */
export interface StoredSettings {
  /**
   * Send VK/VY created on or after 1 January 2026 although Act 384/2025 ended sending them (test
   * environments only; ADR 0704, docs/offline.md). Before that date they are always sent.
   */
  forceSendCashDocuments: boolean;
  /** First wait before the offline sender tries again after a failed try, ms (ADR 0710). */
  resendIntervalMs: number;
  /** The longest wait between two tries; the wait doubles up to it, ms. */
  resendMaxIntervalMs: number;
  /** Documents and locations one batch of the offline sender sends at most. */
  resendBatchLimit: number;
  /** Hours from the first attempt within which a stored message must reach the SFS (ADR 0702). */
  resendDeadlineHours: number;
  /**
   * Payment names (keys of `payments`) that mean cash. Only a cash payment may carry the 5-cent
   * rounding (Act 18/1996 Z. z. on prices, § 3(4); ADR 0420). Compared without regard to case or
   * surrounding spaces; diacritics count, so both spellings are listed.
   */
  cashPaymentNames: readonly string[];
  /** QR payments through NOP: `off`, `int` (FS integration environment) or `prod` (ADR 0903). */
  nopEnvironment: 'off' | 'int' | 'prod';
  /** The merchant's notification-enabled account (IBAN, mod-97 checked, kept without spaces). */
  nopIban: string | undefined;
  /** Payme `CN` (≤ 70 after folding to ASCII); undefined = the merchant's name. */
  nopCreditorName: string | undefined;
  /** Payme `MSG` (≤ 140 after folding), e.g. shop and branch; undefined = none. */
  nopMessage: string | undefined;
  /** Payme link type: `m` (dynamic QR at the point of sale) or `p` (ADR 0902). */
  nopPaymeType: 'm' | 'p';
  /** Seconds a new QR payment waits for the money before it expires (30–1800). */
  nopExpirySeconds: number;
  /** The `payments` name receipts use for QR payments (1–50 characters). */
  nopTenderName: string;
}

export interface StoredSettingSpec<T> {
  readonly defaultValue: T;
  /** The value when `raw` is a valid stored value, else undefined (then the default applies). */
  parse(raw: unknown): T | undefined;
}

const integerIn =
  (min: number, max: number) =>
  (raw: unknown): number | undefined =>
    typeof raw === 'number' && Number.isInteger(raw) && raw >= min && raw <= max ? raw : undefined;

const foldedText =
  (max: number) =>
  (raw: unknown): string | undefined => {
    if (typeof raw !== 'string') return undefined;
    const folded = foldPaymeText(raw);
    return folded.length >= 1 && folded.length <= max ? folded : undefined;
  };

const PAYMENT_NAME_MAX_CHARS = 50;
const MAX_CASH_NAMES = 20;

export const STORED_SETTINGS: { readonly [K in keyof StoredSettings]: StoredSettingSpec<StoredSettings[K]> } =
  {
    forceSendCashDocuments: {
      defaultValue: false,
      parse: (raw) => (typeof raw === 'boolean' ? raw : undefined),
    },
    resendIntervalMs: { defaultValue: 30_000, parse: integerIn(100, 3_600_000) },
    resendMaxIntervalMs: { defaultValue: 600_000, parse: integerIn(100, 86_400_000) },
    resendBatchLimit: { defaultValue: 100, parse: integerIn(1, 1000) },
    resendDeadlineHours: { defaultValue: 96, parse: integerIn(1, 8760) },
    cashPaymentNames: {
      defaultValue: Object.freeze(['Hotovosť', 'Hotovost', 'Cash']),
      parse: (raw) => {
        if (!Array.isArray(raw) || raw.length > MAX_CASH_NAMES) return undefined;
        const names = raw.filter(
          (n): n is string =>
            typeof n === 'string' && n.trim().length > 0 && [...n].length <= PAYMENT_NAME_MAX_CHARS,
        );
        return names.length === raw.length ? Object.freeze([...names]) : undefined;
      },
    },
    nopEnvironment: {
      defaultValue: 'off',
      parse: (raw) => (raw === 'off' || raw === 'int' || raw === 'prod' ? raw : undefined),
    },
    nopIban: {
      defaultValue: undefined,
      parse: (raw) => {
        if (typeof raw !== 'string') return undefined;
        const iban = normalizeIban(raw);
        return isValidIban(iban) ? iban : undefined;
      },
    },
    nopCreditorName: { defaultValue: undefined, parse: foldedText(70) },
    nopMessage: { defaultValue: undefined, parse: foldedText(140) },
    nopPaymeType: { defaultValue: 'm', parse: (raw) => (raw === 'm' || raw === 'p' ? raw : undefined) },
    nopExpirySeconds: { defaultValue: 300, parse: integerIn(30, 1800) },
    nopTenderName: {
      defaultValue: 'QR platba',
      parse: (raw) =>
        typeof raw === 'string' && raw.trim() !== '' && [...raw].length <= PAYMENT_NAME_MAX_CHARS
          ? raw
          : undefined,
    },
  };

/** The value of one stored setting: the stored one when it fits its type, else the default. */
export function readStoredSetting<K extends keyof StoredSettings>(
  stored: Readonly<Record<string, unknown>>,
  key: K,
): StoredSettings[K] {
  const spec = STORED_SETTINGS[key];
  return spec.parse(stored[key]) ?? spec.defaultValue;
}
