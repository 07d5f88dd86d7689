import { X509Certificate } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCa, testMerchant } from '../../test/support/merchant-keys.js';
import { DEMO_CA_DIR } from '../adapters/merchant/test-merchant.js';
import { openTestCa } from '../adapters/pki/test-ca.js';
import { defaultServeConfig } from '../config/serve-config.js';
import { systemClock } from '../core/ports/clock.js';
import { openTaxAuthority } from './open-tax-authority.js';

const der = (pem: string) => new X509Certificate(pem).raw.toString('base64');

describe('openTaxAuthority with the embedded simulator', () => {
  it('warns about a merchant certificate of another CA, worked out again whenever the certificate changes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-open-sfs-'));
    const demo = testMerchant({ ca: openTestCa(join(dataDir, DEMO_CA_DIR)) });
    const foreign = testMerchant({ ca: freshCa() });
    let stored: string | undefined;
    const sfs = await openTaxAuthority(defaultServeConfig(dataDir), systemClock, () => stored);
    try {
      const state = async () => await sfs.health.probe.check();
      expect((await state()).state).toBe('OK'); // no merchant yet
      // The answer is kept per certificate: each change of the stored one is seen at once.
      for (const [pem, warned] of [
        [demo.certPem, false],
        [demo.certPem, false],
        [foreign.certPem, true],
        [foreign.certPem, true],
        [demo.certPem, false],
        [foreign.certPem, true],
      ] as const) {
        stored = der(pem);
        const status = await state();
        expect(status.state, pem === demo.certPem ? 'demo' : 'foreign').toBe(warned ? 'WARNING' : 'OK');
        if (warned) expect(status.reason).toContain('accepts only certificates of the demo CA');
      }
      stored = undefined;
      expect((await state()).state).toBe('OK');
    } finally {
      await sfs.close();
    }
  });
});
