/**
 * `npm run generate [-- --from URL|FILE]` in clients/typescript: reads kasa's OpenAPI document from
 * a running register (default http://127.0.0.1:13083/api/openapi.json; `KASA_TOKEN` is sent when
 * set) or a file, and rewrites src/generated/api.ts. A test in the kasa repository fails while the
 * committed file differs from what the register describes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiToTs } from './openapi-to-ts.js';

export const GENERATED_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'generated',
  'api.ts',
);

async function main(): Promise<void> {
  const i = process.argv.indexOf('--from');
  const from = i >= 0 ? process.argv[i + 1] : 'http://127.0.0.1:13083/api/openapi.json';
  if (!from) throw new Error('--from needs a URL or a file');
  let doc: unknown;
  if (/^https?:\/\//.test(from)) {
    const token = process.env.KASA_TOKEN;
    const res = await fetch(from, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (!res.ok) throw new Error(`${from} answered HTTP ${res.status}`);
    doc = await res.json();
  } else {
    doc = JSON.parse(readFileSync(from, 'utf8'));
  }
  writeFileSync(GENERATED_FILE, openApiToTs(doc as Parameters<typeof openApiToTs>[0]));
  process.stdout.write(`wrote ${GENERATED_FILE}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    process.stderr.write(`generate: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
