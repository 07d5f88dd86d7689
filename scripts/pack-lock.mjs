#!/usr/bin/env node
// `npm pack` ships the tested dependency tree: prepack copies package-lock.json to
// npm-shrinkwrap.json (which npm puts into the tarball and honours when the tarball is installed,
// also with `npm install -g`), postpack removes the copy again. Without it an installed kasa would
// resolve its dependencies afresh and ignore this package's `overrides` (ADR 0801).
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shrinkwrap = join(root, 'npm-shrinkwrap.json');
if (process.argv[2] === 'add') copyFileSync(join(root, 'package-lock.json'), shrinkwrap);
else if (process.argv[2] === 'remove') rmSync(shrinkwrap, { force: true });
else {
  process.stderr.write('usage: node scripts/pack-lock.mjs add|remove\n');
  process.exit(2);
}
