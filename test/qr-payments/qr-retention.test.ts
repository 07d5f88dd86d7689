import { mkdtempSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { registerIdentity } from '../support/nop-identities.js';

/**
 * Research §2.3/§2.5: NOP keeps a notification 2 hours, in the listing and as a retained message.
 * The simulator must forget both after that (on its own clock), or a test of a late subscriber
 * or a late catch-up would pass against a NOP more generous than the real one.
 */
const DIC = '2021000003';
const CODE = '88820210000030001';
const TOPIC = `VATSK-${DIC}/POKLADNICA-${CODE}`;
let sim: NopSimulator;
let own: { key: string; cert: string };
let offsetMs = 0;

beforeAll(async () => {
  const caDir = mkdtempSync(join(tmpdir(), 'kasa-nop-retention-'));
  sim = await NopSimulator.start({ caDir, clock: { now: () => new Date(Date.now() + offsetMs) } });
  own = registerIdentity(caDir, DIC, CODE);
});
afterAll(async () => sim?.close());

function get(path: string, method = 'GET'): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${sim.erpUrl}${path}`,
      { method, ca: sim.caCertPem, agent: false, ...own },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function newId(): Promise<string> {
  return ((await get('/api/v1/generateNewTransactionId', 'POST')).body as { transaction_id: string })
    .transaction_id;
}

const listing = async () => {
  const since = new Date(Date.now() + offsetMs - 3 * 3600_000).toISOString();
  return (await get(`/api/v1/getAllTransactions/POKLADNICA-${CODE}?date_from=${since}`)).body as Array<{
    endToEndId: string;
  }>;
};

/**
 * A fresh subscriber (clean session) on the register's topic: the ids of the messages it gets
 * until `marker` arrives (published live after the subscription, so every retained message, which
 * the broker sends on SUBACK, came before it).
 */
async function freshSubscriberSees(marker: () => Promise<string>): Promise<string[]> {
  const client = mqtt.connect(sim.mqttUrl, {
    protocolVersion: 4,
    clean: true,
    ca: sim.caCertPem,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...own,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    const seen: string[] = [];
    let markerId: string | undefined;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    client.on('message', (_topic, payload) => {
      if (payload.length === 0) return;
      const id = (JSON.parse(payload.toString()) as { endToEndId: string }).endToEndId;
      seen.push(id);
      if (id === markerId) done();
    });
    await new Promise<void>((resolve, reject) =>
      client.subscribe(`${TOPIC}/#`, { qos: 1 }, (e) => (e ? reject(e) : resolve())),
    );
    markerId = await marker();
    if (seen.includes(markerId)) done(); // it may arrive before `marker` returns
    await finished;
    return seen.filter((id) => id !== markerId);
  } finally {
    client.end(true);
  }
}

const payLive = async (): Promise<string> => {
  const id = await newId();
  sim.delivery.retain = false;
  try {
    await sim.pay({ order: { iban: 'SK3112000000198742637541', amount: '1.00', paymentId: id } });
  } finally {
    sim.delivery.retain = true;
  }
  return id;
};

describe('NOP simulator retention (2 hours)', () => {
  it('a notification is retained and listed within 2 hours, and gone from both after', async () => {
    const id = await newId();
    await sim.pay({ order: { iban: 'SK3112000000198742637541', amount: '2.50', paymentId: id } });
    expect((await listing()).map((r) => r.endToEndId)).toContain(id);
    expect(await freshSubscriberSees(payLive)).toContain(id);

    offsetMs = 2 * 3600_000 - 60_000; // 1 minute before the end of the retention: still there
    await sim.sweep();
    expect((await listing()).map((r) => r.endToEndId)).toContain(id);
    expect(await freshSubscriberSees(payLive)).toContain(id);

    offsetMs = 2 * 3600_000 + 60_000; // past it
    await sim.sweep();
    expect((await listing()).map((r) => r.endToEndId)).not.toContain(id);
    expect(await freshSubscriberSees(payLive)).not.toContain(id);
  });
});
