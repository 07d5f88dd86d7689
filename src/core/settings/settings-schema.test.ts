import { describe, expect, it } from 'vitest';
import {
  parseSettingValue,
  SETTING_DEFAULTS,
  SETTING_INFO,
  SETTING_KEYS,
  SettingsPatchSchema,
  SettingsSchema,
  settingsConflict,
  WIDTHS_BY_PAPER,
} from './settings-schema.js';

describe('the one settings schema', () => {
  it('every default is a valid value of its key, and the defaults break no rule between keys', () => {
    expect(SettingsSchema.parse(SETTING_DEFAULTS)).toEqual(SETTING_DEFAULTS);
    expect(settingsConflict(SETTING_DEFAULTS)).toBeUndefined();
    expect(Object.keys(SETTING_DEFAULTS).sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('every key says where it belongs and how it applies', () => {
    for (const key of SETTING_KEYS) {
      expect(SETTING_INFO[key].live.length, key).toBeGreaterThan(3);
      expect(SettingsSchema.shape[key].description, key).toBeTruthy();
    }
  });

  it('a patch takes any subset and refuses an unknown key', () => {
    expect(SettingsPatchSchema.safeParse({}).success).toBe(true);
    expect(SettingsPatchSchema.safeParse({ logoEnabled: false }).success).toBe(true);
    const unknown = SettingsPatchSchema.safeParse({ logoEnabled: false, printerWidth: 32 });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('reads a stored value only when it fits its type', () => {
    expect(parseSettingValue('printerCharsPerLine', 42)).toBe(42);
    expect(parseSettingValue('printerCharsPerLine', 40)).toBeUndefined();
    expect(parseSettingValue('printerCharsPerLine', '42')).toBeUndefined();
    expect(parseSettingValue('receiptFooter', 'Ďakujeme\nza nákup')).toBe('Ďakujeme\nza nákup');
    expect(parseSettingValue('receiptFooter', 'bell\u0007')).toBeUndefined();
    expect(parseSettingValue('receiptFooter', 'x'.repeat(501))).toBeUndefined();
    expect(parseSettingValue('sfsUrl', 'ftp://x')).toBeUndefined();
    expect(parseSettingValue('sfsUrl', 'https://ekasa.financnasprava.sk/mdu/soap/services/v2')).toBeTruthy();
    expect(parseSettingValue('sfsTrust', ['relative.pem'])).toBeUndefined();
    expect(parseSettingValue('sfsTrust', ['/etc/kasa/sfs.pem'])).toEqual(['/etc/kasa/sfs.pem']);
    expect(parseSettingValue('cashPaymentNames', ['  '])).toBeUndefined();
    expect(parseSettingValue('resendIntervalMs', 1.5)).toBeUndefined();
    expect(parseSettingValue('printerTarget', 'tcp://10.0.0.5:9100')).toBe('tcp://10.0.0.5:9100');
    expect(parseSettingValue('printerTarget', 'tcp://a b')).toBeUndefined();
  });

  it('the line width must fit the paper (font A or B), and an SFS URL needs trust', () => {
    for (const [dots, widths] of Object.entries(WIDTHS_BY_PAPER)) {
      for (const chars of [32, 42, 48, 56, 64] as const) {
        const s = {
          ...SETTING_DEFAULTS,
          printerPaperWidthDots: Number(dots) as 576,
          printerCharsPerLine: chars,
        };
        expect(settingsConflict(s)?.[0], `${chars} on ${dots}`).toBe(
          widths.includes(chars) ? undefined : 'printerCharsPerLine',
        );
      }
    }
    expect(settingsConflict({ ...SETTING_DEFAULTS, sfsUrl: 'https://sfs.example/soap' })?.[0]).toBe(
      'sfsTrust',
    );
    expect(
      settingsConflict({ ...SETTING_DEFAULTS, sfsUrl: 'https://sfs.example/soap', sfsTrust: ['/x.pem'] }),
    ).toBeUndefined();
  });
});
