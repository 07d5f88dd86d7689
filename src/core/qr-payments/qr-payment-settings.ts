import { isValidIban, normalizeIban } from './iban.js';
import { foldPaymeText } from './payme-text.js';

/**
 * The stored settings of QR payments through NOP, in ONE typed place (ADR 0903). Each key is read
 * from the stored settings (the `settings` records of the CHDÚ, merged by the index) and falls back
 * to its default when absent or invalid; the settings endpoint (issue 12) validates with the same
 * rules. docs/qr-payments.md lists them.
 */
export type NopEnvironment = 'off' | 'int' | 'prod';
export const NOP_ENVIRONMENTS: readonly NopEnvironment[] = ['off', 'int', 'prod'];

/** Payme v2 link types a register may use: `m` dynamic QR at the point of sale (the FS client's). */
export type PaymeType = 'm' | 'p';

export interface QrPaymentSettings {
  /** `off` (default): no QR payments; `int` / `prod`: the FS integration or production NOP. */
  nopEnvironment: NopEnvironment;
  /** The merchant's notification-enabled account, normalised; undefined = not set up. */
  nopIban: string | undefined;
  /** Payme `CN` (≤ 70, folded); undefined = the merchant's name, folded. */
  nopCreditorName: string | undefined;
  /** Payme `MSG` (≤ 140, folded), e.g. the shop and branch; undefined = none. */
  nopMessage: string | undefined;
  nopPaymeType: PaymeType;
  /** How long a new intent waits for the money before it expires, seconds. */
  nopExpirySeconds: number;
  /** The `payments` name a receipt pays QR payments under (`{"QR platba": 12.50}`). */
  nopTenderName: string;
}

interface SettingRule<T> {
  default: T;
  description: string;
  /** The value as used, or undefined when the stored value is not acceptable. */
  read(value: unknown): T | undefined;
}

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): T | undefined =>
    typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;

const foldedText =
  (max: number) =>
  (value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    const folded = foldPaymeText(value);
    return folded.length >= 1 && folded.length <= max ? folded : undefined;
  };

/** Every key with its default, the accepted values, and what it does. */
export const QR_PAYMENT_SETTING_RULES: {
  readonly [K in keyof QrPaymentSettings]: SettingRule<QrPaymentSettings[K]>;
} = {
  nopEnvironment: {
    default: 'off',
    description: 'QR payments through NOP: off, int (FS integration environment) or prod.',
    read: oneOf(NOP_ENVIRONMENTS),
  },
  nopIban: {
    default: undefined,
    description: "The merchant's notification-enabled account (IBAN, mod-97 checked; spaces allowed).",
    read: (value) => {
      if (typeof value !== 'string') return undefined;
      const iban = normalizeIban(value);
      return isValidIban(iban) ? iban : undefined;
    },
  },
  nopCreditorName: {
    default: undefined,
    description: "Creditor name in the QR (≤ 70 after folding to ASCII); default the merchant's name.",
    read: foldedText(70),
  },
  nopMessage: {
    default: undefined,
    description: 'Message in the QR for the payer (≤ 140 after folding), e.g. shop and branch.',
    read: foldedText(140),
  },
  nopPaymeType: {
    default: 'm',
    description: 'Payme link type: m (dynamic QR at the point of sale, default) or p.',
    read: oneOf<PaymeType>(['m', 'p']),
  },
  nopExpirySeconds: {
    default: 300,
    description: 'Seconds a new QR payment waits for the money before it expires (30–1800).',
    read: (value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= 30 && value <= 1800
        ? value
        : undefined,
  },
  nopTenderName: {
    default: 'QR platba',
    description: 'The payments name receipts use for QR payments (1–50 characters).',
    read: (value) =>
      typeof value === 'string' && value.trim() !== '' && [...value].length <= 50 ? value : undefined,
  },
};

export const QR_PAYMENT_SETTING_DEFAULTS: QrPaymentSettings = {
  nopEnvironment: 'off',
  nopIban: undefined,
  nopCreditorName: undefined,
  nopMessage: undefined,
  nopPaymeType: 'm',
  nopExpirySeconds: 300,
  nopTenderName: 'QR platba',
};

/**
 * Demo mode (ADR 0006, ADR 0904): with the embedded NOP simulator a fresh register takes a QR
 * payment end to end, so the environment and the account get demo values unless stored ones say
 * otherwise. The IBAN is the published test vector's account (not a real shop's).
 */
export const QR_PAYMENT_DEMO_DEFAULTS: Partial<QrPaymentSettings> = {
  nopEnvironment: 'int',
  nopIban: 'SK4811000000002944116480',
  nopCreditorName: 'kasa DEMO',
};

/**
 * The QR payment settings in force: each stored value when valid, else the (demo) default; keys in
 * `fixed` (given by flag, DECISIONS 2) win over both.
 */
export function readQrPaymentSettings(
  stored: Record<string, unknown>,
  options: { demo?: boolean; fixed?: Partial<QrPaymentSettings> } = {},
): QrPaymentSettings {
  const defaults = { ...QR_PAYMENT_SETTING_DEFAULTS, ...(options.demo ? QR_PAYMENT_DEMO_DEFAULTS : {}) };
  const pick = <K extends keyof QrPaymentSettings>(key: K): QrPaymentSettings[K] => {
    if (options.fixed !== undefined && key in options.fixed)
      return options.fixed[key] as QrPaymentSettings[K];
    const value = QR_PAYMENT_SETTING_RULES[key].read(stored[key]);
    return value === undefined ? defaults[key] : value;
  };
  return {
    nopEnvironment: pick('nopEnvironment'),
    nopIban: pick('nopIban'),
    nopCreditorName: pick('nopCreditorName'),
    nopMessage: pick('nopMessage'),
    nopPaymeType: pick('nopPaymeType'),
    nopExpirySeconds: pick('nopExpirySeconds'),
    nopTenderName: pick('nopTenderName'),
  };
}
