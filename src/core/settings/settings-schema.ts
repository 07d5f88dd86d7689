import { z } from 'zod';
import { isSafeText } from '../documents/text-rules.js';
import { MAX_PRINT_DELAY_MS, MIN_WINDOW_BYTES } from '../printing/print-pacing.js';
import { isValidIban, normalizeIban } from '../qr-payments/iban.js';
import { foldPaymeText } from '../qr-payments/payme-text.js';

/**
 * Every setting of the register in ONE typed schema (capability 12, ADR 1000): the zod schema gives
 * the TypeScript type, the validation of `PUT /api/settings/store` and of stored values, and the
 * OpenAPI schema; `SETTING_INFO` says what each key does and where it applies. Values live in the
 * CHDÚ as `settings` records (merged by the index); a flag or `KASA_*` variable fixes its key for
 * the process lifetime (ADR 1001). docs/settings.md is generated from this file.
 */

/** Characters per line a printer can print at normal size (font A or B, ESC/POS at 203 dpi). */
export const CHARS_PER_LINE = [32, 42, 48, 56, 64] as const;
/** Printable width in dots: 58 mm paper (48 mm printable), 72 mm and 80 mm printers. */
export const PAPER_WIDTH_DOTS = [384, 512, 576] as const;

/**
 * The line widths each paper width gives: font A (12 dots) first, font B (9 dots) second. The
 * font follows from the pair, so it is not a setting of its own (ADR 1002).
 */
export const WIDTHS_BY_PAPER: Readonly<Record<(typeof PAPER_WIDTH_DOTS)[number], readonly [number, number]>> =
  {
    384: [32, 42],
    512: [42, 56],
    576: [48, 64],
  };

/** The longest receipt header or footer (the same limit as a document's own, LIMITS). */
export const RECEIPT_TEXT_MAX_CHARS = 500;
const MAX_TRUST_FILES = 10;
const PAYMENT_NAME_MAX_CHARS = 50;
const MAX_CASH_NAMES = 20;
const DEFAULT_CASH_PAYMENT_NAMES: readonly string[] = Object.freeze(['Hotovosť', 'Hotovost', 'Cash']);

/** Text the Payme link carries after folding to its ASCII set (ADR 0903): 1 to `max` characters. */
const paymeText = (max: number) =>
  z.string().refine(
    (t) => {
      const folded = foldPaymeText(t);
      return folded.length >= 1 && folded.length <= max;
    },
    { message: `1-${max} characters once folded to the QR code's letters` },
  );

/**
 * One of a few numbers. The refusal lists them (a union alone says only "Invalid input"), like the
 * string enums' "expected one of …".
 */
const literals = <T extends readonly [number, ...number[]]>(values: T) =>
  z.union(values.map((v) => z.literal(v)) as unknown as [z.ZodLiteral<T[number]>, z.ZodLiteral<T[number]>], {
    error: `must be one of ${values.join(', ')}`,
  });

/** Printable text without control characters other than line breaks (what a receipt may print). */
const printedText = (max: number) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((t) => isSafeText(t, { allowTab: false, allowNewlines: true }), {
      message: 'only printable characters and line breaks',
    });

const absolutePath = z
  .string()
  .min(2)
  .max(1000)
  .refine((p) => p.startsWith('/') && isSafeText(p, { allowTab: false, allowNewlines: false }), {
    message: 'must be an absolute file path',
  });

const httpUrl = z
  .string()
  .max(2000)
  .refine(
    (text) => {
      try {
        const u = new URL(text);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http:// or https:// URL' },
  );

/** The shape of every setting: its type, accepted values and description (defaults below). */
export const SETTINGS_SHAPE = {
  printerTarget: z
    .string()
    .min(1)
    .max(300)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
    .describe(
      'Where receipts are printed: virtual, none, chdu, tcp://HOST:PORT, serial:///dev/X?baudRate=N or usb:///dev/usb/lp0, whose path must be a character device (paper and code page are the printer* keys below).',
    ),
  printerPaperWidthDots: literals(PAPER_WIDTH_DOTS).describe(
    'Printable width in dots at 203 dpi: 384 (58 mm paper), 512 (72 mm), 576 (80 mm).',
  ),
  printerCharsPerLine: literals(CHARS_PER_LINE).describe(
    'Characters per line: 32 or 42 on 384 dots, 42 or 56 on 512, 48 or 64 on 576 (the smaller is font A, the larger font B).',
  ),
  printerCodepage: z
    .enum(['cp852', 'cp1250', 'raster'])
    .describe('How text is sent: code page PC852 or Windows-1250, or raster (text printed as pictures).'),
  printerCodepageNumber: z
    .number()
    .int()
    .min(0)
    .max(255)
    .nullable()
    .describe('The ESC t number selecting the code page on this model; null = the Epson number (18 / 45).'),
  printerQr: z
    .enum(['raster', 'native'])
    .describe("raster: kasa draws the QR code; native: the printer's own QR command."),
  printerModel: z
    .string()
    .regex(/^[\x20-\x7e]{1,40}$/, '1-40 printable ASCII characters')
    .nullable()
    .describe('Printer model name shown by GET /api/printer; null = the adapter name.'),
  printerConfirm: z
    .enum(['received', 'printed'])
    .describe(
      'How a printed line counts as on paper (ADR 0507): received — the printer confirmed its arrival (a resumed print may repeat lines of the receive buffer); printed — Epson process IDs (GS ( H) confirm printing, a resumed print is exact.',
    ),
  printerBufferBytes: z
    .number()
    .int()
    .min(256)
    .max(1_048_576)
    .describe(
      "The printer's receive buffer in bytes (256-1048576): how far back a resumed print starts when only arrival is confirmed.",
    ),
  // The same bounds as a request's Printer object (ADR 0516): a default must be a value a request may send.
  printWindowSize: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .refine((n) => n === 0 || n >= MIN_WINDOW_BYTES, {
      message: `must be 0 (one window) or at least ${MIN_WINDOW_BYTES} bytes`,
    })
    .describe(
      `Default pacing of long prints: bytes of printer data per window, 0 (one window) or ${MIN_WINDOW_BYTES}-10000000; windows widen so the pauses of one print add up to at most 120 s. A request Printer object overrides it.`,
    ),
  printDelay: z
    .number()
    .int()
    .min(0)
    .max(MAX_PRINT_DELAY_MS)
    .describe(
      `Default pause between two print windows, milliseconds (0-${MAX_PRINT_DELAY_MS}). A request Printer object overrides it.`,
    ),
  logoEnabled: z
    .boolean()
    .describe('Head paper and electronic receipts with the stored logo (POST /api/image/store).'),
  receiptHeader: printedText(RECEIPT_TEXT_MAX_CHARS)
    .nullable()
    .describe('Header text for PD, UF and ND documents whose request has no header; null = none.'),
  receiptFooter: printedText(RECEIPT_TEXT_MAX_CHARS)
    .nullable()
    .describe('Footer text for PD, UF and ND documents whose request has no footer; null = none.'),
  sfsUrl: httpUrl
    .nullable()
    .describe('The SFS SOAP endpoint; null = the simulator embedded in kasa (demo and tests).'),
  sfsTrust: z
    .array(absolutePath)
    .max(MAX_TRUST_FILES)
    .describe(
      'PEM files (absolute paths; regular files of at most 1 MiB each) with the certificates, or their CA, trusted to sign SFS answers; needed with sfsUrl.',
    ),
  sfsTimeoutMs: z
    .number()
    .int()
    .min(50)
    .max(600_000)
    .describe('The online limit in milliseconds: past it a document is issued offline and sent later.'),
  resendIntervalMs: z
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .describe(
      'Offline sending: the first wait after a failed try, milliseconds; it doubles up to resendMaxIntervalMs.',
    ),
  resendMaxIntervalMs: z
    .number()
    .int()
    .min(100)
    .max(86_400_000)
    .describe(
      'Offline sending: the longest wait between two tries, milliseconds (at least resendIntervalMs is used).',
    ),
  resendBatchLimit: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .describe('Offline sending: documents and locations one batch sends at most.'),
  resendDeadlineHours: z
    .number()
    .int()
    .min(1)
    .max(8760)
    .describe('Hours from the first attempt within which a stored message must reach the SFS (96 by law).'),
  forceSendCashDocuments: z
    .boolean()
    .describe(
      'Send deposits (VK) and withdrawals (VY) created from 1 January 2026 although Act 384/2025 ended sending them (test environments only). Before that date they are always sent.',
    ),
  cashPaymentNames: z
    .array(
      z
        .string()
        .max(PAYMENT_NAME_MAX_CHARS, `at most ${PAYMENT_NAME_MAX_CHARS} characters`)
        .refine((n) => n.trim().length > 0, { message: 'must not be blank' }),
    )
    .max(MAX_CASH_NAMES)
    .describe(
      'Payment names (keys of payments) that mean cash: only they may carry the 5-cent rounding. Case and surrounding spaces do not matter; diacritics do.',
    ),
  nopEnvironment: z
    .enum(['off', 'int', 'prod'])
    .describe("QR payments through NOP: off, int (the tax authority's integration environment) or prod."),
  nopIban: z
    .string()
    .max(50)
    .refine((t) => isValidIban(normalizeIban(t)), { message: 'must be an IBAN (check digits verified)' })
    .nullable()
    .describe("The merchant's notification-enabled account (IBAN; spaces allowed); null = not set up."),
  nopCreditorName: paymeText(70)
    .nullable()
    .describe("Creditor name in the QR code (at most 70 once folded); null = the merchant's name."),
  nopMessage: paymeText(140)
    .nullable()
    .describe(
      'Message in the QR code for the payer (at most 140 once folded), e.g. shop and branch; null = none.',
    ),
  nopPaymeType: z.enum(['m', 'p']).describe('Payme link type: m (dynamic QR at the point of sale) or p.'),
  nopExpirySeconds: z
    .number()
    .int()
    .min(30)
    .max(1800)
    .describe('Seconds a new QR payment waits for the money before it expires.'),
  nopTenderName: z
    .string()
    .max(PAYMENT_NAME_MAX_CHARS, `at most ${PAYMENT_NAME_MAX_CHARS} characters`)
    .refine((n) => n.trim().length > 0, { message: 'must not be blank' })
    .describe('The payments name receipts use for QR payments (e.g. {"QR platba": 12.50}).'),
  adminLanguage: z
    .enum(['sk', 'en'])
    .describe('Language of the admin page (each browser can switch for itself).'),
  adminRefreshSeconds: z
    .number()
    .int()
    .min(2)
    .max(300)
    .describe('How often the admin page refreshes status and the document list, seconds.'),
};

export type SettingKey = keyof typeof SETTINGS_SHAPE;
export type Settings = { [K in SettingKey]: z.output<(typeof SETTINGS_SHAPE)[K]> };

export const SETTING_KEYS = Object.keys(SETTINGS_SHAPE) as SettingKey[];

/** The complete settings object (every key present): what `GET /api/settings/get` answers. */
export const SettingsSchema = z.object(SETTINGS_SHAPE);

/** Any subset of the keys, nothing else: what `PUT /api/settings/store` takes. */
export const SettingsPatchSchema = z.strictObject(SETTINGS_SHAPE).partial();

/** Where a key takes effect. Every key applies at once, without a restart (capability 12). */
export interface SettingInfo {
  group: 'printer' | 'receipt' | 'sfs' | 'offline' | 'documents' | 'qr' | 'admin';
  /** What a change does at once (docs/settings.md). */
  live: string;
  /** The `kasa serve` flag that fixes it, if any. */
  flag?: string;
}

export const SETTING_INFO: { readonly [K in SettingKey]: SettingInfo } = {
  printerTarget: {
    group: 'printer',
    flag: '--printer',
    live: 'the printer is swapped between requests; a print in flight ends on the old one',
  },
  printerPaperWidthDots: { group: 'printer', flag: '--printer', live: 'next print and electronic receipt' },
  printerCharsPerLine: { group: 'printer', flag: '--printer', live: 'next print and electronic receipt' },
  printerCodepage: { group: 'printer', flag: '--printer', live: 'next print' },
  printerCodepageNumber: { group: 'printer', flag: '--printer', live: 'next print' },
  printerQr: { group: 'printer', flag: '--printer', live: 'next print' },
  printerModel: { group: 'printer', flag: '--printer', live: 'next GET /api/printer' },
  printerConfirm: { group: 'printer', flag: '--printer', live: 'next print' },
  printerBufferBytes: { group: 'printer', flag: '--printer', live: 'next print' },
  printWindowSize: { group: 'printer', live: 'next print' },
  printDelay: { group: 'printer', live: 'next print' },
  logoEnabled: { group: 'receipt', live: 'next receipt' },
  receiptHeader: { group: 'receipt', live: 'next document' },
  receiptFooter: { group: 'receipt', live: 'next document' },
  sfsUrl: {
    group: 'sfs',
    flag: '--sfs-url',
    live: 'the SFS client is swapped between requests; a send in flight ends on the old one',
  },
  sfsTrust: { group: 'sfs', flag: '--sfs-trust', live: 'with the SFS client (next send)' },
  sfsTimeoutMs: { group: 'sfs', flag: '--sfs-timeout-ms', live: 'next send attempt' },
  resendIntervalMs: { group: 'offline', live: 'next wait of the offline sender' },
  resendMaxIntervalMs: { group: 'offline', live: 'next wait of the offline sender' },
  resendBatchLimit: { group: 'offline', live: 'next batch of the offline sender' },
  resendDeadlineHours: { group: 'offline', live: 'status and the offline sender at once' },
  forceSendCashDocuments: { group: 'documents', live: 'next cash document' },
  cashPaymentNames: { group: 'documents', live: 'next document' },
  nopEnvironment: { group: 'qr', flag: '--nop-env', live: 'next QR payment' },
  nopIban: { group: 'qr', flag: '--nop-iban', live: 'next QR payment' },
  nopCreditorName: { group: 'qr', flag: '--nop-creditor-name', live: 'next QR payment' },
  nopMessage: { group: 'qr', live: 'next QR payment' },
  nopPaymeType: { group: 'qr', live: 'next QR payment' },
  nopExpirySeconds: { group: 'qr', live: 'next QR payment' },
  nopTenderName: { group: 'qr', live: 'next document paid by QR' },
  adminLanguage: { group: 'admin', live: 'next page load' },
  adminRefreshSeconds: { group: 'admin', live: 'next page load' },
};

/** The built-in defaults (docs/settings.md). */
export const SETTING_DEFAULTS: Settings = Object.freeze({
  printerTarget: 'virtual',
  printerPaperWidthDots: 576,
  printerCharsPerLine: 48,
  printerCodepage: 'cp852',
  printerCodepageNumber: null,
  printerQr: 'raster',
  printerModel: null,
  printerConfirm: 'received',
  printerBufferBytes: 4096,
  printWindowSize: 0,
  printDelay: 0,
  logoEnabled: true,
  receiptHeader: null,
  receiptFooter: null,
  sfsUrl: null,
  sfsTrust: [],
  sfsTimeoutMs: 5000,
  resendIntervalMs: 30_000,
  resendMaxIntervalMs: 600_000,
  resendBatchLimit: 100,
  resendDeadlineHours: 96,
  forceSendCashDocuments: false,
  cashPaymentNames: [...DEFAULT_CASH_PAYMENT_NAMES],
  nopEnvironment: 'off',
  nopIban: null,
  nopCreditorName: null,
  nopMessage: null,
  nopPaymeType: 'm',
  nopExpirySeconds: 300,
  nopTenderName: 'QR platba',
  adminLanguage: 'sk',
  adminRefreshSeconds: 5,
});

/** A valid value for `key`, or undefined (then the value below it in precedence applies). */
export function parseSettingValue<K extends SettingKey>(key: K, raw: unknown): Settings[K] | undefined {
  if (raw === undefined) return undefined;
  const result = SETTINGS_SHAPE[key].safeParse(raw);
  return result.success ? (result.data as Settings[K]) : undefined;
}

/** The rules between keys: the first broken one as `[key, rule]`, or undefined. */
export function settingsConflict(s: Settings): [SettingKey, string] | undefined {
  const widths = WIDTHS_BY_PAPER[s.printerPaperWidthDots];
  if (!widths.includes(s.printerCharsPerLine)) {
    return [
      'printerCharsPerLine',
      `${s.printerCharsPerLine} characters do not fit ${s.printerPaperWidthDots} dots; use ${widths.join(' or ')}`,
    ];
  }
  if (s.sfsUrl !== null && s.sfsTrust.length === 0) {
    return ['sfsTrust', 'an SFS URL needs at least one trusted certificate file (PEM)'];
  }
  return undefined;
}

/** Deep equality of two setting values (JSON values: scalars, null, arrays of strings). */
export function sameSettingValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
