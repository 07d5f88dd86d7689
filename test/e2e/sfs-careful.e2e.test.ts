import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/**
 * Issue 16 point 3: kasa never trips a careful check of the embedded simulator with a valid
 * document — here across a change of its identification data (new IČO, same authentication data),
 * which the real SFS would know from its registry and the embedded simulator learns from the
 * merchant kasa holds.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const PW = 'Careful-Pw-2026';

async function storeMerchant(identificationData: string, authenticationData: string) {
  const res = await h.post('/api/merchant/store', {
    identificationData,
    authenticationData,
    keyStorePassword: PW,
  });
  expect(res.body.resultCode).toBe(0);
}

describe('kasa against the careful SFS simulator', () => {
  it('keeps registering online after the merchant loads new identification data with another IČO', async () => {
    const merchant = createTestMerchant({
      caDir: join(h.dataDir, DEMO_CA_DIR),
      password: PW,
      ico: '10000003',
    });
    await storeMerchant(merchant.identityXml, merchant.authXml);
    const first = await h.post('/api/document/store', pd());
    expect(first.body.resultCode).toBe(0);
    expect(first.body.document.uuid).toMatch(/^O-/);

    const renamed = merchant.identityXml.replace('<eu:Ico>10000003</eu:Ico>', '<eu:Ico>20000001</eu:Ico>');
    expect(renamed).not.toBe(merchant.identityXml);
    await storeMerchant(renamed, merchant.authXml);
    const second = await h.post('/api/document/store', pd());
    expect(second.body.resultCode).toBe(0);
    expect(second.body.document.uuid).toMatch(/^O-/);
    expect(h.sim.history().filter((e) => e.outcome === 'rejected')).toEqual([]);
    expect(h.sim.carefulChecks()['merchant-identity']).toBe(true);
  });
});
