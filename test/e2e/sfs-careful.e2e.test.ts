import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMerchant, DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { FakeScheduler } from '../support/fake-scheduler.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';

/**
 * Capability 16 point 3: kasa never trips a careful check of the embedded simulator with a valid
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

async function storeMerchant(identificationData: string, authenticationData: string, on = h) {
  const res = await on.post('/api/merchant/store', {
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

  it('a document stored offline under IČO A is registered when resent after IČO B was loaded (and after a restart)', async () => {
    // The real SFS knows the register's identity history: the resend carries the identity of its
    // time (ADR 0422). Before the fix the embedded simulator knew only the merchant kasa held now
    // and refused it with −905, which blocked the register (501).
    // The background sender's timers never run: only the API call sends.
    const clock = new LiveClock();
    let k = await startHarness({ clock, scheduler: new FakeScheduler() });
    try {
      const merchant = createTestMerchant({
        caDir: join(k.dataDir, DEMO_CA_DIR),
        password: PW,
        ico: '10000003',
      });
      await storeMerchant(merchant.identityXml, merchant.authXml, k);
      await k.sim.goOffline();
      const offline = await k.post('/api/document/store', pd());
      expect(offline.body.resultCode).toBe(0);
      expect(offline.body.document.uuid).toBeUndefined();
      await k.sim.goOnline();
      const renamed = merchant.identityXml.replace('<eu:Ico>10000003</eu:Ico>', '<eu:Ico>20000001</eu:Ico>');
      await storeMerchant(renamed, merchant.authXml, k);

      const sent = await k.post('/api/document/send/offline', {});
      expect(sent.body.resultCode).toBe(0);
      expect(sent.body.documents).toHaveLength(1);
      expect(sent.body.documents[0].uuid).toMatch(/^O-/);
      expect(k.sim.history().filter((e) => e.outcome === 'rejected')).toEqual([]);
      expect((await k.post('/api/document/store', pd())).body.resultCode).toBe(0);

      // After a restart (a new embedded simulator, nothing in its memory) a document stored offline
      // under B while C is now loaded passes too: the history is read from the journal.
      await k.sim.goOffline();
      expect((await k.post('/api/document/store', pd())).body.resultCode).toBe(0);
      const dataDir = k.dataDir;
      await k.close();
      k = await startHarness({ clock, dataDir, scheduler: new FakeScheduler() });
      await storeMerchant(
        merchant.identityXml.replace('<eu:Ico>10000003</eu:Ico>', '<eu:Ico>30000000</eu:Ico>'),
        merchant.authXml,
        k,
      );
      const resent = await k.post('/api/document/send/offline', {});
      expect(resent.body.resultCode).toBe(0);
      expect(resent.body.documents).toHaveLength(1);
      expect(resent.body.documents[0].uuid).toMatch(/^O-/);
      expect(k.sim.history().filter((e) => e.outcome === 'rejected')).toEqual([]);
    } finally {
      await k.close();
    }
  });

  it('a −905 rejection reads as one sentence: the SFS text loses its full stop, never "(simulátor).."', async () => {
    const k = await startHarness();
    try {
      k.sim.injectFault({ kind: 'soap-fault', code: -905 });
      const refused = await k.post('/api/document/store', pd());
      expect(refused.body.resultCode).toBe(501);
      expect(refused.body.error).toContain('(simulátor). It is stored');
      const status = await k.get('/api/status/get');
      expect(status.body.reasonCode).toBe(501);
      expect(status.body.reason).toContain(
        'with -905: IČO alebo IČ DPH nepatrí podnikateľovi (simulátor). New',
      );
      for (const text of [refused.body.error, status.body.reason]) expect(text).not.toContain('..');
    } finally {
      await k.close();
    }
  });
});
