import { z } from 'zod';
import {
  SETTING_DEFAULTS,
  SettingsPatchSchema,
  SettingsSchema,
} from '../../core/settings/settings-schema.js';
import { strictRequest } from './strict-request.js';

/** The settings object in answers: every key, from the one schema in core/settings (ADR 1000). */
export const SettingsObject = SettingsSchema.meta({
  id: 'Settings',
  description: 'Every setting of the register (docs/settings.md). Each applies at once, without a restart.',
});

const fixedMembers = {
  fixed: z
    .array(z.string())
    .describe(
      'Keys fixed for this process by a flag or KASA_* variable: PUT may send them only with the value in force.',
    ),
  fixedBy: z
    .record(z.string(), z.string())
    .describe('For each fixed key, the flag or variable that fixed it (kasa addition).'),
};

const EXAMPLE_SETTINGS = { ...SETTING_DEFAULTS, printerCharsPerLine: 48, receiptFooter: 'Ďakujeme za nákup' };

export const SettingsResponse = z
  .object({ resultCode: z.literal(0), settings: SettingsObject, ...fixedMembers })
  .meta({
    id: 'SettingsResponse',
    examples: [
      {
        resultCode: 0,
        settings: EXAMPLE_SETTINGS,
        fixed: ['printerTarget'],
        fixedBy: { printerTarget: '--printer' },
      },
    ],
  });

export const StoreSettingsRequest = strictRequest({
  settings: SettingsPatchSchema.describe(
    'Any subset of the keys of Settings. An unknown key or a bad value is 701 naming it; a fixed key only with its value in force.',
  ),
}).meta({
  id: 'StoreSettingsRequest',
  examples: [
    { settings: { printerCharsPerLine: 42, printerPaperWidthDots: 512 } },
    { settings: { logoEnabled: false } },
  ],
});

export const StoreSettingsResponse = z
  .object({
    resultCode: z.literal(0),
    settings: SettingsObject,
    ...fixedMembers,
    changed: z.array(z.string()).describe('The keys this request changed (empty: nothing was written).'),
  })
  .meta({
    id: 'StoreSettingsResponse',
    examples: [
      { resultCode: 0, settings: EXAMPLE_SETTINGS, fixed: [], fixedBy: {}, changed: ['receiptFooter'] },
    ],
  });
