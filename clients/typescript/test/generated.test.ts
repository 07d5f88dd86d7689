import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RESULT_CODES as KASA_CODES } from '../../../src/core/result-codes.js';
import { startHarness } from '../../../test/support/kasa-harness.js';
import { GENERATED_FILE } from '../codegen/generate.js';
import { openApiToTs } from '../codegen/openapi-to-ts.js';
import { OPERATIONS, RESULT_CODES } from '../src/generated/api.js';

/**
 * The client follows the register (ADR 0806): its types are generated from the OpenAPI document
 * kasa serves, and this test fails while the committed file differs from it — an endpoint added
 * to kasa without `npm run generate` in clients/typescript is caught here.
 */
describe('clients/typescript/src/generated/api.ts', () => {
  it('is what the current /api/openapi.json generates', async () => {
    const h = await startHarness();
    try {
      const doc = (await h.get('/api/openapi.json')).body;
      expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(openApiToTs(doc));
    } finally {
      await h.close();
    }
  }, 60_000);

  it('has every result code and every operation with its idempotency and streaming', () => {
    expect(Object.fromEntries(Object.entries(RESULT_CODES).map(([k, v]) => [k, v.code]))).toEqual(
      Object.fromEntries(Object.entries(KASA_CODES).map(([k, v]) => [k, v.code])),
    );
    expect(OPERATIONS['POST /api/document/store']).toMatchObject({ idempotent: true, stream: false });
    expect(OPERATIONS['POST /api/cash']).toMatchObject({ idempotent: true });
    expect(OPERATIONS['POST /api/document/print']).toMatchObject({ idempotent: false });
    expect(OPERATIONS['GET /api/events']).toMatchObject({ stream: true, extension: true });
  });
});
