#!/usr/bin/env node
// `kasa` as an installed command (npm install -g, npm link, the packed tarball): runs the compiled
// JavaScript in dist/, which `npm install` builds (prepare) and the packed tarball ships (ADR 0800).
// TypeScript through tsx is for development only (`npm run kasa -- …`, the tests).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    `kasa: ${fileURLToPath(entry)} is missing. In a kasa checkout run \`npm install\` (or \`npm run build\`); otherwise reinstall the package.\n`,
  );
  process.exit(1);
}
await import(entry.href);
