import type { z } from 'zod';
import {
  SETTING_DEFAULTS,
  SETTING_INFO,
  SETTING_KEYS,
  SETTINGS_SHAPE,
  type SettingKey,
} from './settings-schema.js';

const GROUP_TITLES: Record<string, string> = {
  printer: 'Printer',
  receipt: 'Receipt',
  sfs: 'SFS (eKasa server)',
  offline: 'Offline sending',
  documents: 'Documents and cash',
  qr: 'QR payments (NOP)',
  admin: 'Admin page',
};

/** The accepted values of a key, from its JSON schema. */
function valuesOf(key: SettingKey): string {
  const schema = (SETTINGS_SHAPE[key] as z.ZodType).toJSONSchema() as Record<string, unknown>;
  return describeJson(schema);
}

function describeJson(s: Record<string, unknown>): string {
  const anyOf = (s.anyOf ?? s.oneOf) as Array<Record<string, unknown>> | undefined;
  if (anyOf) {
    const consts = anyOf.filter((a) => 'const' in a).map((a) => String(a.const));
    const rest = anyOf.filter((a) => !('const' in a)).map(describeJson);
    return [...(consts.length ? [consts.join(', ')] : []), ...rest].join(' or ');
  }
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => `\`${String(v)}\``).join(', ');
  // `["string", "null"]`: zod 4 writes a nullable plain type as a list of types.
  if (Array.isArray(s.type)) {
    return (s.type as string[]).map((type) => describeJson({ ...s, type })).join(' or ');
  }
  switch (s.type) {
    case 'null':
      return '`null`';
    case 'boolean':
      return 'true / false';
    case 'integer':
    case 'number': {
      const min = s.minimum as number | undefined;
      const max = s.maximum as number | undefined;
      return min !== undefined && max !== undefined ? `whole number ${min}–${max}` : 'number';
    }
    case 'array':
      return `list${s.maxItems !== undefined ? ` of up to ${s.maxItems}` : ''}: ${describeJson((s.items ?? {}) as Record<string, unknown>)}`;
    case 'string':
      return s.maxLength !== undefined ? `text of up to ${s.maxLength} characters` : 'text';
    default:
      return 'value';
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The settings reference of docs/settings.md, generated from the one schema (a test keeps it equal). */
export function renderSettingsTable(): string {
  const out: string[] = [];
  for (const group of Object.keys(GROUP_TITLES)) {
    const keys = SETTING_KEYS.filter((k) => SETTING_INFO[k].group === group);
    if (keys.length === 0) continue;
    out.push(`### ${GROUP_TITLES[group]}`, '');
    out.push('| key | values | default | fixed by | applies |', '| --- | --- | --- | --- | --- |');
    for (const key of keys) {
      const info = SETTING_INFO[key];
      out.push(
        `| \`${key}\` | ${cell(valuesOf(key))} | \`${cell(JSON.stringify(SETTING_DEFAULTS[key]))}\` | ${info.flag ? `\`${info.flag}\`` : '—'} | ${cell(info.live)} |`,
      );
    }
    out.push('');
    for (const key of keys) out.push(`- \`${key}\`: ${cell(SETTINGS_SHAPE[key].description ?? '')}`);
    out.push('');
  }
  return out.join('\n');
}
