import type { NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { waitFor } from './fake-bank-app.js';
import { type Harness, type HarnessOptions, type Json, startHarness } from './kasa-harness.js';

export interface QrHarness extends Harness {
  nop: NopSimulator;
  /** POST /api/qrpayment/create. */
  create(body: Record<string, unknown>, key?: string): Promise<{ status: number; body: Json }>;
  png(id: string): Promise<Uint8Array>;
  /** Waits until the MQTT session is connected and subscribed (and the first catch-up ran). */
  sessionUp(): Promise<void>;
  state(id: string): Promise<string>;
  /** Waits until the intent is in `state` (the jobs and the session work in the background). */
  until(id: string, state: string): Promise<Json>;
}

/** A demo register (embedded SFS and NOP simulators) with QR payment helpers. */
export async function startQrHarness(options: HarnessOptions = {}): Promise<QrHarness> {
  const h = await startHarness(options);
  const nop = h.kasa.parts.nopSimulator;
  if (!nop) throw new Error('demo mode did not start the embedded NOP simulator');
  const get = async (id: string) => (await h.get(`/api/qrpayment/${id}`)).body;
  return Object.assign(h, {
    nop,
    create: (body: Record<string, unknown>, key?: string) =>
      h.post('/api/qrpayment/create', body, key === undefined ? {} : { 'idempotency-key': key }),
    png: async (id: string) => {
      const res = await h.kasa.app.inject({ method: 'GET', url: `/api/qrpayment/${id}/qr.png` });
      if (res.statusCode !== 200) throw new Error(`qr.png answered ${res.statusCode}: ${res.body}`);
      return new Uint8Array(res.rawPayload);
    },
    sessionUp: async () => {
      await waitFor('the NOP session', async () => {
        const s = (await h.get('/api/qrpayment/notifier')).body.notifier;
        return s.connected && s.lastCatchUpAt ? true : undefined;
      });
    },
    state: async (id: string) => (await get(id)).qrPayment.state as string,
    until: (id: string, state: string) =>
      waitFor(`${id} to be ${state}`, async () => {
        const body = await get(id);
        return body.qrPayment?.state === state ? body.qrPayment : undefined;
      }),
  });
}
