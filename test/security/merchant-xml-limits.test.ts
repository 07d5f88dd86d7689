import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/kasa-harness.js';

const NS = 'http://financnasprava.sk/ekasa/udaje/schema/v2';
const identity = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><eu:IdentityData xmlns:eu="${NS}">${inner}</eu:IdentityData>`;
const auth = (inner: string) => `<eu:AuthData xmlns:eu="${NS}">${inner}</eu:AuthData>`;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const store = (
  identificationData: string,
  authenticationData = auth('<eu:KeyStoreType>PKCS12</eu:KeyStoreType>'),
) => h.post('/api/merchant/store', { identificationData, authenticationData, keyStorePassword: 'x' });

/**
 * Capability 9 review: merchant XML was unbounded work — 70,000 nested elements overflowed the stack of
 * a recursive tree walk (500, -1) after seconds of parsing, and 240,000 siblings (960 KB) held the
 * event loop for two seconds. Both shapes fit in the 1 MiB body limit; ADR 0602 bounds them.
 */
describe('POST /api/merchant/store with hostile XML shapes (ADR 0602)', () => {
  it.each([
    [
      'identification data nested 70,000 deep',
      identity(`${'<eu:X>'.repeat(70_000)}${'</eu:X>'.repeat(70_000)}`),
    ],
    ['240,000 sibling elements (960 KB)', identity('<X/>'.repeat(240_000))],
    ['more than 64 KiB of identification data', identity(`<eu:Dic>${' '.repeat(70_000)}</eu:Dic>`)],
  ])('%s → 404 MERCHANT_PARSE_ERROR naming identificationData, nothing stored', async (_, xml) => {
    const before = (await h.post('/api/merchant/get', {})).body;
    const res = await store(xml);
    expect(res.body).toMatchObject({ resultCode: 404, field: 'identificationData' });
    expect(res.body.error).toContain('identificationData');
    expect((await h.post('/api/merchant/get', {})).body).toEqual(before);
    // The register is still there and answering.
    expect((await h.get('/api/status/get')).body.resultCode).toBe(0);
  });

  it('authentication data nested deep → 404 naming authenticationData', async () => {
    // A valid identification file (the harness's own merchant): the authentication data come next.
    const identityXml = h.kasa.parts.index.currentMerchant()!.merchant.identificationXml;
    const res = await store(identityXml, auth(`${'<eu:X>'.repeat(50_000)}${'</eu:X>'.repeat(50_000)}`));
    expect(res.body).toMatchObject({ resultCode: 404, field: 'authenticationData' });
  });
});
