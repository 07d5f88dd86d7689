import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSettingsTable } from './settings-doc.js';
import { settingsSection } from './settings-doc-section.js';
import { SETTING_KEYS } from './settings-schema.js';

describe('docs/settings.md', () => {
  it('lists every key exactly as the schema says (regenerate: npx tsx scripts/gen-settings-doc.ts)', () => {
    const doc = readFileSync(new URL('../../../docs/settings.md', import.meta.url), 'utf8');
    expect(settingsSection(doc)).toBe(renderSettingsTable().trim());
    for (const key of SETTING_KEYS) expect(doc).toContain(`\`${key}\``);
  });

  it('the admin page has a label for every key in both languages', () => {
    const i18n = readFileSync(new URL('../../web/admin/i18n.js', import.meta.url), 'utf8');
    for (const key of SETTING_KEYS) {
      expect(i18n.split(`'set.${key}':`).length - 1, key).toBe(2);
    }
  });
});
