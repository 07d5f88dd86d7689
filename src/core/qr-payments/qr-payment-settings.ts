import { readStoredSetting, STORED_SETTINGS, type StoredSettings } from '../settings/stored-settings.js';

/**
 * The QR payment settings in force (ADR 0903). Their types, defaults and rules live with every
 * other stored setting in `src/core/settings/stored-settings.ts` (the ONE typed place); this adds
 * the two overlays that are QR payments' own: the demo defaults with the embedded simulator
 * (ADR 0904) and the values fixed by `--nop-env`, `--nop-iban` and `--nop-creditor-name`
 * (ADR 0008 §2).
 */
export type NopEnvironment = StoredSettings['nopEnvironment'];
export type PaymeType = StoredSettings['nopPaymeType'];

const KEYS = [
  'nopEnvironment',
  'nopIban',
  'nopCreditorName',
  'nopMessage',
  'nopPaymeType',
  'nopExpirySeconds',
  'nopTenderName',
] as const;

export type QrPaymentSettings = Pick<StoredSettings, (typeof KEYS)[number]>;

export const QR_PAYMENT_SETTING_DEFAULTS: QrPaymentSettings = Object.fromEntries(
  KEYS.map((k) => [k, STORED_SETTINGS[k].defaultValue]),
) as unknown as QrPaymentSettings;

/**
 * Demo mode: with the embedded NOP simulator a fresh register takes a QR payment end to end, so
 * the environment and the account get demo values unless stored ones say otherwise. The IBAN is
 * the published test vector's account (research §2.6), not a real shop's.
 */
export const QR_PAYMENT_DEMO_DEFAULTS: Partial<QrPaymentSettings> = {
  nopEnvironment: 'int',
  nopIban: 'SK4811000000002944116480',
  nopCreditorName: 'kasa DEMO',
};

/**
 * Each stored value when valid, else the (demo) default; keys in `fixed` (given by flag) win over
 * both.
 */
export function readQrPaymentSettings(
  stored: Readonly<Record<string, unknown>>,
  options: { demo?: boolean; fixed?: Partial<QrPaymentSettings> } = {},
): QrPaymentSettings {
  const out = {} as Record<string, unknown>;
  for (const key of KEYS) {
    if (options.fixed !== undefined && key in options.fixed) {
      out[key] = options.fixed[key];
      continue;
    }
    const parsed = STORED_SETTINGS[key].parse(stored[key]);
    out[key] =
      parsed !== undefined
        ? parsed
        : options.demo && key in QR_PAYMENT_DEMO_DEFAULTS
          ? QR_PAYMENT_DEMO_DEFAULTS[key]
          : readStoredSetting({}, key);
  }
  return out as unknown as QrPaymentSettings;
}

export const NOP_ENVIRONMENTS: readonly NopEnvironment[] = ['off', 'int', 'prod'];
