// Writes docs/errors.md from the result-code table and the one HTTP mapping, so the document can
// never drift from the code (a test compares them). Run: npx tsx scripts/gen-errors-doc.ts
import { writeFileSync } from 'node:fs';
import { renderErrorsDoc } from '../src/http/errors-doc.js';

writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
