import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { type Harness, type Json, startHarness } from '../support/kasa-harness.js';
import { authDataXml, craftKeystore } from './crafted-keystore.js';

let h: Harness;
let base: string;
let identity: string;
beforeAll(async () => {
  h = await startHarness();
  base = await h.kasa.app.listen({ port: 0, host: '127.0.0.1' });
  identity = createTestMerchant({
    caDir: join(mkdtempSync(join(tmpdir(), 'kasa-ca-')), 'ca'),
    password: 'x',
  }).identityXml;
});
afterAll(async () => h?.close());

async function storeMerchant(keystore: Uint8Array): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}/api/merchant/store`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      identificationData: identity,
      authenticationData: authDataXml(keystore),
      keyStorePassword: 'attacker-pw',
    }),
  });
  return { status: res.status, body: await res.json() };
}

describe('POST /api/merchant/store with a hostile keystore (capability 9: ~20 s frozen before)', () => {
  it('a 4 KB keystore asking for 30 × 100,000 iterations is refused by the limits: 403 over-limits, nothing stored', async () => {
    const before = (await h.post('/api/merchant/get', {})).body.merchant;
    const res = await storeMerchant(
      craftKeystore({ bags: 30, iterations: 100_000, password: 'attacker-pw' }),
    );
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ resultCode: 403, keystoreProblem: 'over-limits' });
    expect(res.body.error).toContain('units of key-derivation work');
    expect((await h.post('/api/merchant/get', {})).body.merchant).toEqual(before);
  });

  it('while a keystore within the limits is being read (in its worker), other requests keep being answered', async () => {
    // One bag of 100,000 iterations: within the bounds, about half a second of key derivation.
    const keystore = craftKeystore({ bags: 1, iterations: 100_000, password: 'attacker-pw' });
    let storeDone = false;
    const store = storeMerchant(keystore).finally(() => {
      storeDone = true;
    });
    // Status requests one after another until the store answers: if the key derivation ran on the
    // event loop, none could be answered while it runs.
    let answeredMeanwhile = 0;
    while (!storeDone) {
      const status = await fetch(`${base}/api/status/get`);
      expect(status.status).toBe(200);
      expect(((await status.json()) as Json).resultCode).toBe(0);
      if (!storeDone) answeredMeanwhile++;
    }
    const res = await store;
    // The bag decrypts (the attacker knows the password) but holds no usable entry.
    expect(res.body.resultCode).toBeGreaterThanOrEqual(402);
    expect(res.body.resultCode).toBeLessThanOrEqual(403);
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(10);
    // The register still sells.
    const sale = await fetch(`${base}/api/document/store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'PD',
        amount: 1,
        documentEntries: [{ name: 'Rožok', price: 1, quantity: 1, vatRate: 'VAT_5', itemType: 'SALE' }],
        payments: { Hotovosť: 1 },
      }),
    });
    expect(((await sale.json()) as Json).resultCode).toBe(0);
  });
});
