import {
  DEFAULT_PROFILE,
  EPSON_CODEPAGE_NUMBERS,
  type PaperWidthDots,
  PROFILE_WIDTHS,
  type PrinterProfile,
} from '../config/printer-profile.js';
import type { ServeConfig, ServeKey } from '../config/serve-config.js';
import { describePrinterTarget, type PrinterTarget, parsePrinterTarget } from '../config/targets.js';
import { invalidInput } from '../core/fiscal-error.js';
import { QR_PAYMENT_DEMO_DEFAULTS } from '../core/qr-payments/qr-payment-settings.js';
import type { FixedSetting } from '../core/settings/live-settings.js';
import { SETTING_DEFAULTS, type SettingKey, type Settings } from '../core/settings/settings-schema.js';

const PROFILE_KEYS = [
  'printerPaperWidthDots',
  'printerCharsPerLine',
  'printerCodepage',
  'printerCodepageNumber',
  'printerQr',
  'printerModel',
  'printerConfirm',
  'printerBufferBytes',
] as const satisfies readonly SettingKey[];

/**
 * The settings before any stored value (ADR 1001): the built-in defaults with the values of the
 * configuration in place of those the configuration has — for `kasa serve` these equal the
 * defaults unless a flag gave them; embedding code (tests) composes with its own. The keys a flag
 * or `KASA_*` variable gave are fixed: `--printer` fixes `printerTarget`, and the paper and code
 * page keys too when its target names a profile (`?chars=42…`); `--sfs-url`, `--sfs-trust`,
 * `--sfs-timeout-ms`, `--nop-env`, `--nop-iban` and `--nop-creditor-name` fix their keys.
 */
export function settingsBaseline(
  config: ServeConfig,
  options: { qrDemo?: boolean } = {},
): { baseline: Settings; fixed: FixedSetting[] } {
  const profile = config.printer.profile ?? DEFAULT_PROFILE;
  // ADR 0904: with the embedded NOP simulator, QR payments work out of the box (demo values).
  const qr = options.qrDemo ? QR_PAYMENT_DEMO_DEFAULTS : {};
  const baseline: Settings = {
    ...SETTING_DEFAULTS,
    printerTarget: describePrinterTarget(withoutProfile(config.printer)),
    ...profileSettings(profile),
    sfsUrl: config.sfsUrl ?? null,
    sfsTrust: [...config.sfsTrust],
    sfsTimeoutMs: config.sfsTimeoutMs,
    nopEnvironment: config.nopEnv ?? qr.nopEnvironment ?? SETTING_DEFAULTS.nopEnvironment,
    nopIban: config.nopIban ?? qr.nopIban ?? SETTING_DEFAULTS.nopIban,
    nopCreditorName: config.nopCreditorName ?? qr.nopCreditorName ?? SETTING_DEFAULTS.nopCreditorName,
  };
  const fixed: FixedSetting[] = [];
  const by = (key: ServeKey): string | undefined =>
    config.fixed.has(key) ? (config.fixedBy?.get(key) ?? `the ${key} configuration`) : undefined;
  const fix = (key: SettingKey, from: ServeKey) => {
    const reason = by(from);
    if (reason !== undefined) fixed.push({ key, by: reason });
  };
  fix('printerTarget', 'printer');
  if (config.printer.profile !== undefined) for (const key of PROFILE_KEYS) fix(key, 'printer');
  fix('sfsUrl', 'sfsUrl');
  fix('sfsTrust', 'sfsTrust');
  fix('sfsTimeoutMs', 'sfsTimeoutMs');
  fix('nopEnvironment', 'nopEnv');
  fix('nopIban', 'nopIban');
  fix('nopCreditorName', 'nopCreditorName');
  return { baseline, fixed };
}

function withoutProfile(target: PrinterTarget): PrinterTarget {
  const { profile: _profile, ...rest } = target;
  return rest as PrinterTarget;
}

/** The settings that describe a printer profile. */
export function profileSettings(p: PrinterProfile): Pick<Settings, (typeof PROFILE_KEYS)[number]> {
  const epson = p.codepage === 'raster' ? 0 : EPSON_CODEPAGE_NUMBERS[p.codepage];
  return {
    printerPaperWidthDots: p.paperWidthDots,
    printerCharsPerLine: p.charsPerLine as Settings['printerCharsPerLine'],
    printerCodepage: p.codepage,
    printerCodepageNumber: p.codepageNumber === epson ? null : p.codepageNumber,
    printerQr: p.qr,
    printerModel: p.model ?? null,
    printerConfirm: p.confirm,
    printerBufferBytes: p.bufferBytes,
  };
}

/** The printer profile the settings describe (the font follows from width and paper, ADR 1002). */
export function profileFromSettings(s: Settings): PrinterProfile {
  const width = PROFILE_WIDTHS.find(
    (w) => w.dots === (s.printerPaperWidthDots as PaperWidthDots) && w.chars === s.printerCharsPerLine,
  );
  if (!width) {
    throw invalidInput(
      'settings.printerCharsPerLine',
      `${s.printerCharsPerLine} characters do not fit ${s.printerPaperWidthDots} dots`,
    );
  }
  const epson = s.printerCodepage === 'raster' ? 0 : EPSON_CODEPAGE_NUMBERS[s.printerCodepage];
  return Object.freeze({
    charsPerLine: width.chars,
    font: width.font,
    paperWidthDots: width.dots,
    codepage: s.printerCodepage,
    codepageNumber: s.printerCodepageNumber ?? epson,
    qr: s.printerQr,
    confirm: s.printerConfirm,
    bufferBytes: s.printerBufferBytes,
    ...(s.printerModel === null ? {} : { model: s.printerModel }),
  });
}

/**
 * The printer target the settings name, with their profile. Its syntax is the `--printer`
 * syntax without the profile query (paper and code page are keys of their own); a wrong one is
 * 701 naming `settings.printerTarget`.
 */
export function printerTargetFromSettings(s: Settings): PrinterTarget {
  let target: PrinterTarget;
  try {
    target = parsePrinterTarget(s.printerTarget);
  } catch (e) {
    throw invalidInput('settings.printerTarget', (e as Error).message);
  }
  if (target.profile !== undefined) {
    throw invalidInput(
      'settings.printerTarget',
      'give paper and code page with printerPaperWidthDots, printerCharsPerLine, printerCodepage…, not in the target',
    );
  }
  return { ...target, profile: profileFromSettings(s) };
}
