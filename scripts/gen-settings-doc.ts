// Writes the reference part of docs/settings.md (between its markers) from the one settings
// schema, so the document never drifts from the code (a test compares them).
// Run: npx tsx scripts/gen-settings-doc.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { renderSettingsTable } from '../src/core/settings/settings-doc.js';
import { replaceSettingsSection } from '../src/core/settings/settings-doc-section.js';

const file = new URL('../docs/settings.md', import.meta.url);
writeFileSync(file, replaceSettingsSection(readFileSync(file, 'utf8'), renderSettingsTable()));
