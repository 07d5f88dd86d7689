import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allResultCodes } from '../core/result-codes.js';
import { PROTOCOL_STATUSES } from './error-mapping.js';
import { renderErrorsDoc, statusRule } from './errors-doc.js';

describe('docs/errors.md', () => {
  it('documents every result code and is current (regenerate: npx tsx scripts/gen-errors-doc.ts)', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(doc).toBe(renderErrorsDoc());
    for (const { code, name } of allResultCodes()) expect(doc).toContain(`| ${code} | \`${name}\` |`);
  });

  it('docs/http-api.md states the status rule error-mapping.ts applies, every 404 code and route exception included (ADR 0010)', () => {
    const text = readFileSync(new URL('../../docs/http-api.md', import.meta.url), 'utf8').replace(
      /\s+/g,
      ' ',
    );
    expect(statusRule()).toContain('803');
    expect(statusRule()).toContain('POST /api/cash');
    expect(text).toContain(statusRule());
    expect(text).toContain(PROTOCOL_STATUSES.join('/'));
  });
});
