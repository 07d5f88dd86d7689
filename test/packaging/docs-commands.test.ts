import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * Capability 14: `npm install -g .` / `npm link` put `kasa` on the PATH, and every user doc uses that
 * form. `npm run kasa -- …` (tsx, the sources) is a contributor's tool: CONTRIBUTING.md and the
 * ADR that decides it may name it, a user doc may not.
 */
const userDocs = [
  'README.md',
  'examples/README.md',
  'clients/typescript/README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('user docs run kasa as the installed command', () => {
  it.each(userDocs)('%s', (doc) => {
    const text = readFileSync(join(repoRoot, doc), 'utf8');
    const lines = text.split('\n').filter((l) => /npm run kasa\b|tsx src\/main\.ts/.test(l));
    expect(lines).toEqual([]);
  });
});
