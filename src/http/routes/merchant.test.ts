import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, merchantRegister } from '../../../test/support/merchant-register.js';
import { createLogger } from '../../adapters/logging/logger.js';
import { createTestMerchant, type TestMerchant } from '../../adapters/merchant/test-merchant.js';
import { Readiness } from '../../core/services/register-status.js';
import { buildHttpApp, type KasaApp } from '../app.js';
import { merchantRoutes } from './merchant.js';

const PW = 'Http-Distinct-Pw-5520';
const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _e, cb) {
    logLines.push(String(chunk));
    cb();
  },
});

let merchant: TestMerchant;
let expiring: TestMerchant;
const now = new Date('2026-11-22T10:00:00Z');
beforeAll(() => {
  const caDir = join(mkdtempSync(join(tmpdir(), 'kasa-ca-')), 'ca');
  merchant = createTestMerchant({ caDir, password: PW, now });
  expiring = createTestMerchant({
    caDir,
    password: PW,
    now,
    validDays: 10,
    registerCode: '88820210000030001',
  });
});

let app: KasaApp;
let closeRegister: (() => Promise<void>) | undefined;
afterEach(async () => {
  await app?.close();
  await closeRegister?.();
});

async function build() {
  const register = await merchantRegister({ clock: new ManualClock(now) });
  closeRegister = register.close;
  const readiness = new Readiness();
  readiness.add(register.session);
  app = await buildHttpApp({
    logger: createLogger('info', sink as never),
    readiness,
    version: '0.0.0-test',
    routes: [
      merchantRoutes(register),
      // A stand-in for a fiscal endpoint: refused while the merchant cannot sign.
      (a) =>
        a.post('/api/test/fiscal', async () => ({
          resultCode: 0,
          signedBy: register.session.currentSigner().recordNo,
        })),
    ],
  });
  return register;
}

const storeBody = (m: TestMerchant, password = PW) => ({
  identificationData: m.identityXml,
  authenticationData: m.authXml,
  keyStorePassword: password,
});

describe('merchant routes', () => {
  it('POST /api/merchant/store round-trips generated files and answers a MerchantResponse', async () => {
    await build();
    const res = await app.inject({
      method: 'POST',
      url: '/api/merchant/store',
      payload: storeBody(merchant),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      resultCode: 0,
      merchant: {
        id: 1,
        dic: '2021000003',
        corporateFullName: 'kasa test merchant s.r.o.',
        ico: '10000003',
        icDph: 'SK2021000003',
        physicalAddress: {
          country: 'Slovenská republika',
          municipality: 'Bratislava',
          street: 'Testovacia',
          postalCode: '81101',
        },
        organizationUnit: {
          name: 'Testovacia prevádzka',
          cashRegisterCode: '88820210000030001',
          cashRegisterType: 'STANDARD',
          location: { physicalAddress: { street: 'Testovacia' } },
        },
        certificate: { state: 'OK', showWarning: false, daysLeft: 730 },
        demo: false,
      },
    });
    const fiscal = await app.inject({ method: 'POST', url: '/api/test/fiscal', payload: {} });
    expect(fiscal.json()).toEqual({ resultCode: 0, signedBy: 1 });
  });

  it('POST /api/merchant/store: a wrong password is 403, a missing field 701 naming it, nothing logged in clear', async () => {
    await build();
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/merchant/store',
      payload: storeBody(merchant, `${PW}-no`),
    });
    expect(wrong.statusCode).toBe(500);
    expect(wrong.json().resultCode).toBe(403);
    expect(wrong.body).not.toContain(PW);
    const missing = await app.inject({
      method: 'POST',
      url: '/api/merchant/store',
      payload: { keyStorePassword: PW },
    });
    expect(missing.json()).toMatchObject({ resultCode: 701, field: 'identificationData' });
    expect(missing.body).not.toContain(PW);
    const mixed = await app.inject({
      method: 'POST',
      url: '/api/merchant/store',
      payload: { ...storeBody(merchant), identificationData: '<not xml' },
    });
    expect(mixed.json().resultCode).toBe(404);
    expect(logLines.join('')).not.toContain(PW);
  });

  it('POST /api/merchant/get answers the merchant, or 402 in an ErrorResponse when none is stored', async () => {
    await build();
    const none = await app.inject({ method: 'POST', url: '/api/merchant/get', payload: {} });
    expect(none.statusCode).toBe(500);
    expect(none.json()).toMatchObject({ resultCode: 402 });
    expect(typeof none.json().error).toBe('string');
    await app.inject({ method: 'POST', url: '/api/merchant/store', payload: storeBody(merchant) });
    const got = await app.inject({ method: 'POST', url: '/api/merchant/get', payload: {} });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ resultCode: 0, merchant: { id: 1, dic: '2021000003' } });
    const empty = await app.inject({ method: 'POST', url: '/api/merchant/get' });
    expect(empty.json().resultCode).toBe(0);
  });

  it('GET /api/merchant/status reports EXPIRES_SOON with showWarning, or 402 when none is stored', async () => {
    await build();
    const none = await app.inject({ method: 'GET', url: '/api/merchant/status' });
    expect(none.statusCode).toBe(500);
    expect(none.json().resultCode).toBe(402);
    await app.inject({ method: 'POST', url: '/api/merchant/store', payload: storeBody(expiring) });
    const res = await app.inject({ method: 'GET', url: '/api/merchant/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      resultCode: 0,
      state: 'EXPIRES_SOON',
      status: 'EXPIRES_SOON',
      showWarning: true,
      daysLeft: 10,
      usable: true,
      serialNumber: expect.stringMatching(/^[0-9A-F]+$/),
      subject: expect.stringContaining('OU=88820210000030001'),
    });
  });

  it('while no merchant is stored, fiscal work is refused with 402 but the merchant routes answer', async () => {
    await build();
    const fiscal = await app.inject({ method: 'POST', url: '/api/test/fiscal', payload: {} });
    expect(fiscal.statusCode).toBe(500);
    expect(fiscal.json().resultCode).toBe(402);
    const store = await app.inject({
      method: 'POST',
      url: '/api/merchant/store',
      payload: storeBody(merchant),
    });
    expect(store.json().resultCode).toBe(0);
  });
});
