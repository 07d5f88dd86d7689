import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allResultCodes } from '../core/result-codes.js';
import { renderErrorsDoc } from './errors-doc.js';

describe('docs/errors.md', () => {
  it('documents every result code and is current (regenerate: npx tsx scripts/gen-errors-doc.ts)', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(doc).toBe(renderErrorsDoc());
    for (const { code, name } of allResultCodes()) expect(doc).toContain(`| ${code} | \`${name}\` |`);
  });
});
