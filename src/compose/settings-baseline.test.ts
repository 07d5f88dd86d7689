import { describe, expect, it } from 'vitest';
import { defaultServeConfig, type ServeKey } from '../config/serve-config.js';
import { parsePrinterTarget } from '../config/targets.js';
import { FiscalError } from '../core/fiscal-error.js';
import { SETTING_DEFAULTS } from '../core/settings/settings-schema.js';
import {
  printerTargetFromSettings,
  profileFromSettings,
  profileSettings,
  settingsBaseline,
} from './settings-baseline.js';

const flags = (printer: string, keys: ServeKey[]) =>
  defaultServeConfig('/srv/data', {
    printer: parsePrinterTarget(printer),
    fixed: new Set(keys),
    fixedBy: new Map(keys.map((k) => [k, `--${k}`])),
  });

describe('settings baseline from the configuration (ADR 1001)', () => {
  it('without flags nothing is fixed and the baseline is the defaults', () => {
    const { baseline, fixed } = settingsBaseline(defaultServeConfig('/srv/data'));
    expect(fixed).toEqual([]);
    expect(baseline).toEqual({ ...SETTING_DEFAULTS, sfsTrust: [] });
  });

  it('--printer fixes the target; its paper keys only when the target names a profile', () => {
    const plain = settingsBaseline(flags('tcp://10.0.0.5:9100', ['printer']));
    expect(plain.fixed.map((f) => f.key)).toEqual(['printerTarget']);
    expect(plain.baseline.printerTarget).toBe('tcp://10.0.0.5:9100');
    const withProfile = settingsBaseline(
      flags('tcp://10.0.0.5:9100?chars=42&font=B&codepage=cp1250', ['printer']),
    );
    expect(withProfile.fixed.map((f) => f.key).sort()).toEqual(
      [
        'printerTarget',
        'printerPaperWidthDots',
        'printerCharsPerLine',
        'printerCodepage',
        'printerCodepageNumber',
        'printerQr',
        'printerModel',
        'printerConfirm',
        'printerBufferBytes',
      ].sort(),
    );
    expect(withProfile.baseline).toMatchObject({
      printerTarget: 'tcp://10.0.0.5:9100',
      printerPaperWidthDots: 384,
      printerCharsPerLine: 42,
      printerCodepage: 'cp1250',
      printerCodepageNumber: null,
    });
  });

  it('--nop-env, --nop-iban and --nop-creditor-name fix their keys with the flag values (ADR 0903)', () => {
    const config = defaultServeConfig('/srv/data', {
      nopEnv: 'int',
      nopIban: 'SK3112000000198742637541',
      nopCreditorName: 'Kaviaren u Mosta',
      fixed: new Set<ServeKey>(['nopEnv', 'nopIban', 'nopCreditorName']),
      fixedBy: new Map<ServeKey, string>([
        ['nopEnv', '--nop-env'],
        ['nopIban', '--nop-iban'],
        ['nopCreditorName', '--nop-creditor-name'],
      ]),
    });
    const { baseline, fixed } = settingsBaseline(config);
    expect(fixed).toEqual([
      { key: 'nopEnvironment', by: '--nop-env' },
      { key: 'nopIban', by: '--nop-iban' },
      { key: 'nopCreditorName', by: '--nop-creditor-name' },
    ]);
    expect(baseline).toMatchObject({
      nopEnvironment: 'int',
      nopIban: 'SK3112000000198742637541',
      nopCreditorName: 'Kaviaren u Mosta',
    });
  });

  it('a profile goes to settings and back unchanged (the font follows from width and paper)', () => {
    for (const text of [
      'virtual?chars=32',
      'virtual?chars=56&font=B',
      'virtual?codepage=raster&qr=native&model=TM-T20',
      'virtual?confirm=printed&bufferBytes=8192',
    ]) {
      const profile = parsePrinterTarget(text).profile!;
      expect(profileFromSettings({ ...SETTING_DEFAULTS, ...profileSettings(profile) })).toEqual(profile);
    }
  });

  it('a stored target names no profile of its own (701 naming printerTarget)', () => {
    try {
      printerTargetFromSettings({ ...SETTING_DEFAULTS, printerTarget: 'tcp://h:9100?chars=42' });
      expect.unreachable();
    } catch (e) {
      expect(FiscalError.is(e) && e.details?.field).toBe('settings.printerTarget');
    }
    expect(printerTargetFromSettings({ ...SETTING_DEFAULTS, printerTarget: 'tcp://h:9100' })).toMatchObject({
      kind: 'tcp',
      profile: { charsPerLine: 48, font: 'A' },
    });
  });
});
