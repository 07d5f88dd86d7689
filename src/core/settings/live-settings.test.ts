import { describe, expect, it } from 'vitest';
import { LiveSettings } from './live-settings.js';
import { SETTING_DEFAULTS } from './settings-schema.js';

function live(
  stored: Record<string, unknown>,
  fixed: Array<{ key: 'sfsTimeoutMs' | 'printerTarget'; by: string }> = [],
) {
  const baseline = { ...SETTING_DEFAULTS, sfsTimeoutMs: 1500, printerTarget: 'tcp://10.0.0.5:9100' };
  return new LiveSettings({ baseline, fixed, stored: () => stored });
}

describe('LiveSettings: flag, else stored, else baseline (ADR 1001)', () => {
  it('a stored value replaces the baseline; a value that does not fit its type is ignored', () => {
    const s = live({
      printerCharsPerLine: 64,
      logoEnabled: false,
      receiptHeader: 7,
      unknownKey: 1,
    }).current();
    expect(s.printerCharsPerLine).toBe(64);
    expect(s.logoEnabled).toBe(false);
    expect(s.receiptHeader).toBeNull();
    expect(s.sfsTimeoutMs).toBe(1500);
    expect('unknownKey' in s).toBe(false);
  });

  it('a fixed key keeps its baseline whatever is stored, and says why', () => {
    const settings = live({ sfsTimeoutMs: 9000, printerTarget: 'none' }, [
      { key: 'sfsTimeoutMs', by: '--sfs-timeout-ms' },
    ]);
    expect(settings.current().sfsTimeoutMs).toBe(1500);
    expect(settings.current().printerTarget).toBe('none');
    expect(settings.fixedBy('sfsTimeoutMs')).toBe('--sfs-timeout-ms');
    expect(settings.isFixed('printerTarget')).toBe(false);
    expect(settings.fixed()).toEqual([{ key: 'sfsTimeoutMs', by: '--sfs-timeout-ms' }]);
  });

  it('reads the store on every call: a new settings record applies at once', () => {
    const stored: Record<string, unknown> = {};
    const settings = new LiveSettings({ baseline: SETTING_DEFAULTS, fixed: [], stored: () => stored });
    expect(settings.current().printDelay).toBe(0);
    stored.printDelay = 250;
    expect(settings.current().printDelay).toBe(250);
  });

  it('stored values breaking a rule between keys give way to the baseline of those keys', () => {
    const s = live({ printerCharsPerLine: 32, logoEnabled: false }).current();
    expect(s.printerCharsPerLine).toBe(48);
    expect(s.printerPaperWidthDots).toBe(576);
    expect(s.logoEnabled).toBe(false);
    const sfs = live({ sfsUrl: 'https://sfs.example/soap' }).current();
    expect(sfs.sfsUrl).toBeNull();
  });
});
