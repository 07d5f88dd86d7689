import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { type Harness, startHarness } from './kasa-harness.js';

/**
 * A register on a CHDU Lite emulator (`kasa chdu-sim`'s device) with a test merchant loaded: demo
 * mode stays off with a device (ADR 0006), so the merchant is stored as a shop would store it.
 */
export async function onChduLite(): Promise<{ harness: Harness; device: ChduLiteEmulator }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kasa-lite-'));
  const device = await ChduLiteEmulator.start({
    imagePath: join(dataDir, 'device.img'),
    capacityBlocks: 5000,
  });
  const harness = await startHarness({
    dataDir,
    chdu: { kind: 'chdu-lite-tcp', host: '127.0.0.1', port: device.port },
    demo: false,
  });
  const m = createTestMerchant({ caDir: join(dataDir, 'demo-ca'), password: 'Matrix-Pw-12' });
  const stored = await harness.post('/api/merchant/store', {
    identificationData: m.identityXml,
    authenticationData: m.authXml,
    keyStorePassword: 'Matrix-Pw-12',
  });
  expect(stored.body.resultCode).toBe(0);
  return { harness, device };
}
