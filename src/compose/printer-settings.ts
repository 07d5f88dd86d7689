import type { Sleep } from '../adapters/printer/print-pacing.js';
import type { ChduTarget, PrinterTarget } from '../config/targets.js';
import { UsageError } from '../config/usage-error.js';
import { invalidInput } from '../core/fiscal-error.js';
import type { Chdu } from '../core/ports/chdu.js';
import type { Journal } from '../core/ports/journal.js';
import type { SettingsApplier } from '../core/ports/settings-applier.js';
import { SETTING_INFO, type SettingKey, type Settings } from '../core/settings/settings-schema.js';
import { checkPrinterTarget, openPrinter } from './open-printer.js';
import { printerTargetFromSettings, profileFromSettings } from './settings-baseline.js';
import type { OpenedPrinter, SwappablePrinter } from './swappable-printer.js';

export interface PrinterSettingsDeps {
  dataDir: string;
  /** The CHDÚ target (`chdu` printing needs a CHDU Lite) and, once open, the CHDÚ itself. */
  chduTarget: ChduTarget;
  chdu?: { chdu: Chdu; journal: Journal };
  /** Limit for opening a new TCP, serial or USB printer (default 3000 ms). */
  connectTimeoutMs?: number;
  /** The pause between print windows (tests: a gate or a recorder; default: a timer). */
  sleep?: Sleep;
}

const PRINTER_KEYS = (Object.keys(SETTING_INFO) as SettingKey[]).filter(
  (k) => SETTING_INFO[k].flag === '--printer',
);

/** True when `a` and `b` differ in the printer's target or profile. */
export function printerChanged(a: Settings, b: Settings): boolean {
  return PRINTER_KEYS.some((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/**
 * Opens the printer the settings name. `lazy`: a device printer's line is opened on first use
 * (the printer the stored settings name at start may be switched off; the register still starts
 * and reports it, ADR 1004). A target that cannot be used is 701 naming `settings.printerTarget`.
 */
export async function openSettingsPrinter(
  settings: Settings,
  deps: PrinterSettingsDeps,
  lazy: boolean,
): Promise<OpenedPrinter> {
  const target: PrinterTarget = printerTargetFromSettings(settings);
  try {
    checkPrinterTarget(target, deps.chduTarget);
    const printer = await openPrinter(target, {
      dataDir: deps.dataDir,
      ...(deps.chdu ? { chdu: deps.chdu } : {}),
      ...(deps.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: deps.connectTimeoutMs }),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      lazy,
    });
    return { printer, profile: profileFromSettings(settings) };
  } catch (e) {
    if (e instanceof UsageError) {
      throw invalidInput(
        'settings.printerTarget',
        // The flag's wording names `--printer` and the target with its profile query; a setting
        // was given here, so only the cause follows the target as it was stored.
        `${settings.printerTarget}: ${e.message.replace(/^--printer \S+: /, '')}`,
      );
    }
    throw e;
  }
}

/**
 * Applies printer settings (ADR 1003): a new target is opened first (one that cannot be opened is
 * 701 and the old printer stays); a new profile on the same printer gets an adapter that opens the
 * line on first use, after the old one has let go of it.
 */
export function printerSettingsApplier(holder: SwappablePrinter, deps: PrinterSettingsDeps): SettingsApplier {
  return {
    async prepare(previous, next) {
      if (!printerChanged(previous, next)) return undefined;
      const sameDevice = previous.printerTarget === next.printerTarget;
      const opened = await openSettingsPrinter(next, deps, sameDevice);
      return {
        commit: () => holder.swap(opened),
        abort: () => opened.printer.close(),
      };
    },
  };
}
