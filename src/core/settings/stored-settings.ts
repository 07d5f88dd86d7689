/**
 * The stored settings the core reads, in ONE typed place: each key's type, default and the rule
 * a stored value must meet. Values live in the journal as `settings` records (merged by the index,
 * `JournalIndex.settings()`); a key never stored — or stored with a value that does not fit its
 * type — reads as its default. The HTTP endpoint that changes them comes later (its schema is to
 * be built from this table); until then a settings record in the CHDÚ is the only way to change one.
 */
export interface StoredSettings {
  /**
   * Send VK/VY to the SFS. The API v1.7 text says they are sent (default true); Act 384/2025
   * ended sending them from 1 Jan 2026, so a shop may switch it off (docs/documents.md).
   */
  sendCashDocuments: boolean;
  /**
   * Payment names (keys of `payments`) that mean cash. Only a cash payment may carry the 5-cent
   * rounding (Act 18/1996 Z. z. on prices, § 3(4); ADR 0420). Compared without regard to case or
   * surrounding spaces; diacritics count, so both spellings are listed.
   */
  cashPaymentNames: readonly string[];
}

export interface StoredSettingSpec<T> {
  readonly defaultValue: T;
  /** The value when `raw` is a valid stored value, else undefined (then the default applies). */
  parse(raw: unknown): T | undefined;
}

const PAYMENT_NAME_MAX_CHARS = 50;
const MAX_CASH_NAMES = 20;

export const STORED_SETTINGS: { readonly [K in keyof StoredSettings]: StoredSettingSpec<StoredSettings[K]> } =
  {
    sendCashDocuments: {
      defaultValue: true,
      parse: (raw) => (typeof raw === 'boolean' ? raw : undefined),
    },
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
  };

/** The value of one stored setting: the stored one when it fits its type, else the default. */
export function readStoredSetting<K extends keyof StoredSettings>(
  stored: Readonly<Record<string, unknown>>,
  key: K,
): StoredSettings[K] {
  const spec = STORED_SETTINGS[key];
  return spec.parse(stored[key]) ?? spec.defaultValue;
}
