import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { composeKasa, type Kasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig, type ServeConfig } from '../../src/config/serve-config.js';
import { UsageError } from '../../src/config/usage-error.js';
import { SfsSimulator } from '../../src/simulators/sfs/sfs-simulator.js';

/**
 * Shop review s12 H1: `kasa serve --no-demo` with no SFS URL sent every document to the embedded
 * simulator and looked READY. `--no-demo` now needs an SFS — a flag, a variable or a stored
 * setting — or `--sfs-sim` to use the simulator on purpose.
 */
const noDemo = (dataDir: string, over: Partial<ServeConfig> = {}): ServeConfig =>
  defaultServeConfig(dataDir, {
    port: 0,
    logLevel: 'silent',
    demo: false,
    fixed: new Set(['demo']),
    fixedBy: new Map([['demo', 'KASA_NO_DEMO']]),
    ...over,
  });
const logger = createLogger('silent');
const putSettings = (kasa: Kasa, settings: Record<string, unknown>) =>
  kasa.app.inject({
    method: 'PUT',
    url: '/api/settings/store',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ settings }),
  });
const dirs: string[] = [];
const newDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'kasa-nodemo-sfs-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('--no-demo without an SFS URL', () => {
  it('refuses to start on a new data dir (exit 2: UsageError), naming the way out, before anything is written', async () => {
    const dataDir = join(newDir(), 'data');
    const start = composeKasa(noDemo(dataDir), { logger });
    await expect(start).rejects.toBeInstanceOf(UsageError);
    await expect(start).rejects.toThrow(
      /^KASA_NO_DEMO is given but no SFS: set --sfs-url and --sfs-trust .*--sfs-sim/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('starts with the embedded simulator when --sfs-sim asks for it', async () => {
    const kasa = await composeKasa(noDemo(join(newDir(), 'data'), { sfsSim: true }), { logger });
    try {
      expect(kasa.targets.sfs).toBeDefined();
      expect(kasa.parts.sfsSimulator).toBeDefined();
      expect(kasa.parts.index.currentMerchant()).toBeUndefined();
    } finally {
      await kasa.close();
    }
  });

  it('on an existing data dir: refused without a stored SFS, started with one (which the settings cannot clear), and the CHDÚ is let go on refusal', async () => {
    const dataDir = join(newDir(), 'data');
    const first = await composeKasa(noDemo(dataDir, { sfsSim: true }), { logger });
    await first.close();
    await expect(composeKasa(noDemo(dataDir), { logger })).rejects.toBeInstanceOf(UsageError);

    // The CHDÚ was closed on refusal: the next start opens it, and stores an SFS in the settings
    // (which need a merchant).
    const again = await composeKasa(noDemo(dataDir, { sfsSim: true }), { logger });
    const other = await SfsSimulator.start({ caDir: join(newDir(), 'ca') });
    try {
      const merchant = createTestMerchant({ caDir: join(dataDir, 'demo-ca'), password: 'pw-nodemo-1' });
      const loaded = await again.app.inject({
        method: 'POST',
        url: '/api/merchant/store',
        payload: {
          identificationData: merchant.identityXml,
          authenticationData: merchant.authXml,
          keyStorePassword: 'pw-nodemo-1',
        },
      });
      expect(loaded.json()).toMatchObject({ resultCode: 0 });
      const trust = join(dataDir, 'other-sfs.pem');
      writeFileSync(trust, other.signingCertPem);
      const res = await again.app.inject({
        method: 'PUT',
        url: '/api/settings/store',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ settings: { sfsUrl: other.url, sfsTrust: [trust] } }),
      });
      expect(res.json()).toMatchObject({ resultCode: 0 });
    } finally {
      await again.close();
    }
    try {
      const stored = await composeKasa(noDemo(dataDir), { logger });
      try {
        expect(stored.targets.sfs).toBe(other.url);
        // Shop review s12: clearing the SFS URL while it runs would swap to the simulator and make
        // the next start exit 2, so it is 701 naming the key, with nothing stored or swapped.
        const cleared = await putSettings(stored, { sfsUrl: null });
        expect(cleared.json()).toMatchObject({ resultCode: 701, field: 'settings.sfsUrl' });
        expect(cleared.json().errorMessage).toMatch(/KASA_NO_DEMO.*needs an SFS URL.*--sfs-sim/);
        const got = await stored.app.inject({ method: 'GET', url: '/api/settings/get' });
        expect(got.json().settings.sfsUrl).toBe(other.url);
        expect(stored.parts.sfsSimulator).toBeUndefined();
      } finally {
        await stored.close();
      }
      const restarted = await composeKasa(noDemo(dataDir), { logger });
      expect(restarted.targets.sfs).toBe(other.url);
      await restarted.close();
      // With --sfs-sim the simulator is chosen on purpose: clearing the URL is accepted.
      const sim = await composeKasa(noDemo(dataDir, { sfsSim: true }), { logger });
      try {
        expect((await putSettings(sim, { sfsUrl: null })).json()).toMatchObject({ resultCode: 0 });
      } finally {
        await sim.close();
      }
    } finally {
      await other.close();
    }
  });

  it('a composed config (no flag behind demo: false) keeps the simulator, as tests and benches use it', async () => {
    const dataDir = join(newDir(), 'data');
    const kasa = await composeKasa(
      defaultServeConfig(dataDir, { port: 0, logLevel: 'silent', demo: false }),
      {
        logger,
      },
    );
    await kasa.close();
  });
});
