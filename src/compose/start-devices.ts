import type { Logger } from 'pino';
import { UsageError } from '../config/usage-error.js';
import { FiscalError } from '../core/fiscal-error.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';
import type { Settings } from '../core/settings/settings-schema.js';
import type { SfsConnection } from './open-tax-authority.js';
import { openSettingsPrinter, type PrinterSettingsDeps, printerChanged } from './printer-settings.js';
import { profileFromSettings } from './settings-baseline.js';
import { openSettingsSfs, type SfsSettingsDeps } from './sfs-settings.js';
import type { OpenedPrinter } from './swappable-printer.js';

/**
 * The printer at start (ADR 1004): the configuration's, opened before the CHDÚ, when the stored
 * settings leave it as it is; with other paper settings for it, a new adapter whose line opens on
 * first use; another stored printer is opened now — one that cannot be opened now (switched off)
 * is kept and opened on first use (the register starts and reports it), one that can never work
 * with this CHDÚ stops the start (exit 2).
 */
export async function startPrinter(
  baseline: Settings,
  initial: Settings,
  deps: PrinterSettingsDeps,
  early: ReceiptPrinter | undefined,
  logger: Logger,
): Promise<OpenedPrinter> {
  if (early !== undefined && !printerChanged(baseline, initial)) {
    return { printer: early, profile: profileFromSettings(initial) };
  }
  const sameDevice = early !== undefined && baseline.printerTarget === initial.printerTarget;
  await early?.close();
  if (sameDevice) return openSettingsPrinter(initial, deps, true);
  try {
    return await openSettingsPrinter(initial, deps, false);
  } catch (e) {
    if (!FiscalError.is(e, 'INVALID_INPUT')) throw e;
    try {
      const lazy = await openSettingsPrinter(initial, deps, true);
      logger.warn(
        { printer: initial.printerTarget },
        `the printer of the stored settings cannot be opened now (${e.message}); it is tried again on the next print`,
      );
      return lazy;
    } catch (again) {
      throw new UsageError(
        `stored setting ${(again as Error).message}; start with --printer to override it, then fix it in the settings`,
      );
    }
  }
}

/** The SFS connection the stored settings name; a broken one stops the start (exit 2, ADR 1004). */
export async function startSfs(initial: Settings, deps: SfsSettingsDeps): Promise<SfsConnection> {
  try {
    return await openSettingsSfs(initial, deps);
  } catch (e) {
    if (!FiscalError.is(e, 'INVALID_INPUT')) throw e;
    throw new UsageError(
      `stored setting ${e.message}; start with --sfs-url and --sfs-trust to override it, then fix it in the settings`,
    );
  }
}
