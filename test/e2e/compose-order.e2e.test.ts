import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { composeKasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig, type ServeConfig } from '../../src/config/serve-config.js';
import { UsageError } from '../../src/config/usage-error.js';

const config = (dataDir: string, over: Partial<ServeConfig> = {}): ServeConfig =>
  defaultServeConfig(dataDir, { port: 0, sfsTimeoutMs: 1000, logLevel: 'silent', ...over });

describe('start-up order (ADR 0006)', () => {
  it('refuses bad SFS flags before anything is written into the CHDÚ', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-order-'));
    await expect(
      composeKasa(config(dataDir, { sfsUrl: 'http://127.0.0.1:9/mdu/soap/services/v2' }), {
        logger: createLogger('silent'),
      }),
    ).rejects.toBeInstanceOf(UsageError);
    expect(existsSync(join(dataDir, 'chdu.img'))).toBe(false);
  });

  it('does not create a demo merchant when a real SFS is configured', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-order-'));
    // any PEM certificate will do as the trust anchor for this check: let a first demo start make one
    const demoDir = mkdtempSync(join(tmpdir(), 'kasa-order-demo-'));
    const demo = await composeKasa(config(demoDir), { logger: createLogger('silent') });
    await demo.close();
    const kasa = await composeKasa(
      config(dataDir, {
        sfsUrl: 'http://127.0.0.1:9/mdu/soap/services/v2',
        sfsTrust: [join(demoDir, 'demo-ca', 'ca-cert.pem')],
      }),
      { logger: createLogger('silent') },
    );
    try {
      expect(kasa.parts.index.currentMerchant()).toBeUndefined();
      const res = await kasa.app.inject({ method: 'GET', url: '/api/status/get' });
      expect(res.json()).toMatchObject({ state: 'MERCHANT_CERTIFICATE_ERROR', reasonCode: 402 });
    } finally {
      await kasa.close();
    }
  });
});

describe('embedded SFS simulator and the merchant in force', () => {
  it('warns in status when the merchant certificate is not from the demo CA the embedded simulator trusts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-order-'));
    const kasa = await composeKasa(config(dataDir, { demo: false }), { logger: createLogger('silent') });
    try {
      const foreign = createTestMerchant({
        caDir: mkdtempSync(join(tmpdir(), 'kasa-other-ca-')),
        password: 'pw-123456',
      });
      const stored = await kasa.app.inject({
        method: 'POST',
        url: '/api/merchant/store',
        payload: {
          identificationData: foreign.identityXml,
          authenticationData: foreign.authXml,
          keyStorePassword: 'pw-123456',
        },
      });
      expect(stored.json().resultCode).toBe(0);
      const sfs = (await kasa.app.inject({ method: 'GET', url: '/api/status/get' }))
        .json()
        .components.find((c: { component: string }) => c.component === 'SFS');
      expect(sfs).toMatchObject({ state: 'WARNING', reasonCode: 501 });
      expect(sfs.reason).toContain('demo-ca');
    } finally {
      await kasa.close();
    }
  });
});
