import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { SfsSimulator } from '../../src/simulators/sfs/sfs-simulator.js';
import { pd, startHarness } from '../support/kasa-harness.js';
import { LiveClock } from '../support/merchant-register.js';
import { FAST_RESEND, storeSettings, waitFor } from '../support/offline-helpers.js';

/**
 * A POS store after the SFS was swapped (settings) while the offline sender's resends still wait
 * on the old connection: it goes to the new SFS at once (SwappableTaxAuthority). It used to wait
 * until the old connection's sends had ended — up to two online limits.
 */
describe('the SFS swapped while resends wait on the old connection', () => {
  it('a store after the swap is registered by the new SFS without waiting for them', async () => {
    const h = await startHarness({ clock: new LiveClock(), sfsTimeoutMs: 5000 });
    const other = await SfsSimulator.start({ caDir: join(h.dataDir, DEMO_CA_DIR), clock: h.clock });
    try {
      await storeSettings(h, FAST_RESEND);
      await h.sim.goOffline();
      for (let i = 0; i < 3; i++) expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
      h.sim.setLatency(4_500);
      await h.sim.goOnline();
      await waitFor(() => h.sim.history().length >= 1, 'a resend on its way to the old SFS', 20_000);
      const trust = join(h.dataDir, 'other-sfs.pem');
      writeFileSync(trust, other.signingCertPem);
      const swap = await h.kasa.app.inject({
        method: 'PUT',
        url: '/api/settings/store',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ settings: { sfsUrl: other.url, sfsTrust: [trust] } }),
      });
      expect(swap.json().resultCode).toBe(0);
      const started = Date.now();
      const res = await h.post('/api/document/store', pd());
      const waited = Date.now() - started;
      expect(res.body.resultCode).toBe(0);
      expect(res.body.document.uuid).toMatch(/^O-/);
      expect(other.history().length).toBeGreaterThanOrEqual(1);
      // The old SFS answers after 4.5 s; the store did not wait for that.
      expect(waited).toBeLessThan(3_000);
    } finally {
      await h.close();
      await other.close();
    }
  }, 120_000);
});
