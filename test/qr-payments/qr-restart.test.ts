import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { bankNotifies, scan, waitFor } from '../support/fake-bank-app.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/**
 * Capability 15 acceptance 2, "restart with a PENDING intent", and the rule that an id pays one
 * receipt even when the intent store is lost (ADR 0907). NOP is a separate simulator here (as
 * `kasa nop-sim`), so it outlives the register; kasa reaches it with --nop-url/--nop-mqtt-url/
 * --nop-trust and --nop-env int.
 */
const IBAN = 'SK3112000000198742637541';
let dataDir: string;
let nop: NopSimulator;
let trust: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kasa-qr-restart-'));
  // The demo merchant's CA is the simulator's CA: NOP trusts the register's certificate.
  nop = await NopSimulator.start({ caDir: join(dataDir, DEMO_CA_DIR) });
  trust = join(dataDir, 'nop-ca.pem');
  writeFileSync(trust, nop.caCertPem);
});
afterAll(async () => nop?.close());

async function register(): Promise<Harness> {
  const h = await startHarness({
    dataDir,
    config: { nopEnv: 'int', nopUrl: nop.erpUrl, nopMqttUrl: nop.mqttUrl, nopTrust: trust },
    qrJobs: { tickMs: 200 },
  });
  await waitFor('the NOP session', async () => {
    const s = (await h.get('/api/qrpayment/notifier')).body.notifier;
    return s.connected && s.lastCatchUpAt ? true : undefined;
  });
  return h;
}

describe('restart', () => {
  it('a PENDING intent survives a restart and turns PAID from what NOP kept while kasa was down', async () => {
    let h = await register();
    // The setting the settings endpoint (capability 12) will write: the merchant's account.
    await h.kasa.parts.journal.append({ type: 'settings', body: { changes: { nopIban: IBAN } } });
    const created = (await h.post('/api/qrpayment/create', { amount: 12.5 })).body.qrPayment;
    expect(created.environment).toBe('custom');
    const res = await h.kasa.app.inject({
      method: 'GET',
      url: `/api/qrpayment/${created.qrPaymentId}/qr.png`,
    });
    const order = scan(new Uint8Array(res.rawPayload));
    expect(order.iban).toBe(IBAN);
    await h.close();

    expect((await bankNotifies(nop, order)).status).toBe(202); // paid while kasa is stopped

    h = await register();
    try {
      const paid = await waitFor('PAID after the restart', async () => {
        const v = (await h.get(`/api/qrpayment/${created.qrPaymentId}`)).body.qrPayment;
        return v.state === 'PAID' ? v : undefined;
      });
      expect(paid.received).toMatchObject({ amount: 12.5, hashOk: true });
      const stored = await h.post(
        '/api/document/store',
        pd({
          amount: 12.5,
          payments: { 'QR platba': 12.5 },
          documentEntries: [{ name: 'Obed', price: 12.5, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' }],
          qrPayments: [{ id: created.qrPaymentId, amount: 12.5 }],
        }),
      );
      expect(stored.body.resultCode).toBe(0);
    } finally {
      await h.close();
    }

    // The intent store is lost: the CHDÚ (through the index) still says the id is used.
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(dataDir, `qr-payments.sqlite${suffix}`), { force: true });
    h = await register();
    try {
      const again = await h.post(
        '/api/document/store',
        pd({
          amount: 12.5,
          payments: { 'QR platba': 12.5 },
          documentEntries: [{ name: 'Obed', price: 12.5, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' }],
          qrPayments: [{ id: created.qrPaymentId, amount: 12.5 }],
        }),
      );
      expect(again.body.resultCode).toBe(805);
    } finally {
      await h.close();
    }
  });
});
