import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { waitFor } from '../support/fake-bank-app.js';
import { startHarness } from '../support/kasa-harness.js';
import { registerIdentity } from '../support/nop-identities.js';
import { startQrHarness } from '../support/qr-harness.js';

/** Capability 15 acceptance 3: the simulator refuses what NOP refuses; kasa reports it; no key in logs. */
let nop: NopSimulator;
let own: { key: string; cert: string };
let other: { key: string; cert: string };
let foreign: { key: string; cert: string };

beforeAll(async () => {
  const caDir = mkdtempSync(join(tmpdir(), 'kasa-nop-ca-'));
  nop = await NopSimulator.start({ caDir });
  own = registerIdentity(caDir, '2021000003', '88820210000030001');
  other = registerIdentity(caDir, '2021000014', '88820210000140001');
  foreign = registerIdentity(
    mkdtempSync(join(tmpdir(), 'kasa-foreign-ca-')),
    '2021000003',
    '88820210000030001',
  );
});
afterAll(async () => nop?.close());

function call(
  path: string,
  options: {
    method?: string;
    identity?: { key: string; cert: string };
    body?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ status: number; body: { code?: string } }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${nop.erpUrl}${path}`,
      {
        method: options.method ?? 'POST',
        ca: nop.caCertPem,
        agent: false,
        ...(options.identity ?? {}),
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString() || '{}'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the NOP simulator is as strict as research §8.3', () => {
  it('401 without a client certificate or with one from another CA; 200 with the register certificate', async () => {
    expect((await call('/api/v1/generateNewTransactionId')).status).toBe(401);
    const noCert = await call('/api/v1/generateNewTransactionId');
    expect(noCert.body.code).toBe('MTLS_REQUIRED');
    expect((await call('/api/v1/generateNewTransactionId', { identity: foreign })).status).toBe(401);
    const ok = await call('/api/v1/generateNewTransactionId', { identity: own });
    expect(ok.status).toBe(200);
    expect((ok.body as Record<string, string>).transaction_id).toMatch(/^QR-[0-9a-f]{32}$/);
  });

  it("403 for another register's listing, for a register on the bank API and a bank on the ERP API", async () => {
    const since = `date_from=${new Date(Date.now() - 3600_000).toISOString()}`;
    expect(
      (
        await call(`/api/v1/getAllTransactions/POKLADNICA-88820210000140001?${since}`, {
          method: 'GET',
          identity: own,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(`/api/v1/getAllTransactions/POKLADNICA-88820210000030001?${since}`, {
          method: 'GET',
          identity: own,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('/api/v1/payments', {
          identity: own,
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(403);
    expect((await call('/api/v1/generateNewTransactionId', { identity: nop.bankIdentity })).status).toBe(403);
  });

  it('malformed requests: 405, 400, 415, 422, 409', async () => {
    const json = { 'content-type': 'application/json' };
    expect((await call('/api/v1/generateNewTransactionId', { method: 'GET', identity: own })).status).toBe(
      405,
    );
    expect(
      (await call('/api/v1/generateNewTransactionId', { identity: own, body: '{', headers: json })).status,
    ).toBe(400);
    expect(
      (
        await call('/api/v1/generateNewTransactionId', {
          identity: own,
          body: 'x',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect(
      (await call('/api/v1/generateNewTransactionId', { identity: own, body: '{"amount":1}', headers: json }))
        .status,
    ).toBe(422);
    expect(
      (
        await call('/api/v1/generateNewTransactionId', {
          identity: own,
          body: '{"comment":"ok"}',
          headers: json,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(`/api/v1/getAllTransactions/POKLADNICA-88820210000030001`, {
          method: 'GET',
          identity: own,
        })
      ).status,
    ).toBe(400);
    const id = (
      (await call('/api/v1/generateNewTransactionId', { identity: own })).body as Record<string, string>
    ).transaction_id!;
    const bank = (requestId: string, amount: string) =>
      call('/api/v1/payments', {
        identity: nop.bankIdentity,
        headers: { ...json, 'x-request-id': requestId, date: new Date().toISOString() },
        body: JSON.stringify({
          transactionStatus: 'ACCC',
          transactionAmount: { amount, currency: 'EUR' },
          endToEndId: id,
          dataIntegrityHash: 'a'.repeat(64),
        }),
      });
    expect((await bank(randomUUID(), '1.5')).status).toBe(422);
    expect((await bank('not-a-uuid', '1.50')).status).toBe(400);
    const requestId = randomUUID();
    expect((await bank(requestId, '1.50')).status).toBe(202);
    expect((await bank(requestId, '1.50')).status).toBe(409);
  });

  it('the control API pays only what the bank API would accept: a bad amount or body is 422 and nothing is published', async () => {
    const id = (
      (await call('/api/v1/generateNewTransactionId', { identity: own })).body as Record<string, string>
    ).transaction_id!;
    const payme = `https://payme.sk/2/m/PME?IBAN=SK3112000000198742637541&AM=1.00&CC=EUR&PI=${id}&CN=Shop`;
    const pay = async (body: unknown) => {
      const res = await fetch(`${nop.controlUrl}/__sim/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { code?: string; detail?: string } };
    };
    const published = () =>
      nop.brokerEvents.filter((e) => e.event === 'deliver' && e.detail.includes(id)).length;
    for (const bad of [
      { payme, amount: 'abc' },
      { payme, amount: '1.5' },
      { payme, amount: '-1.00' },
      { payme, amount: 1 },
      { payme, wrongHash: 'yes' },
      { payme, delayMs: -5 },
      { payme, extra: true },
      { payme: payme.replace('AM=1.00', 'AM=1') },
      { amount: '1.00' },
    ]) {
      const answer = await pay(bad);
      expect({ bad, status: answer.status, code: answer.body.code }).toEqual({
        bad,
        status: 422,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await pay({ payme, amount: 'abc' })).body.detail).toMatch(/transactionAmount\.amount/);
    expect(published()).toBe(0);
    expect(nop.ledger.transaction(id)?.payment).toBeUndefined();
    const unknown = payme.replace(id, `QR-${'e'.repeat(32)}`);
    expect((await pay({ payme: unknown })).status).toBe(404);
    expect((await pay({ payme, amount: '1.50' })).status).toBe(200);
    expect(published()).toBe(1);
  });

  it('MQTT: no or a foreign certificate is refused; another register’s topic gets SUBACK 0x80', async () => {
    const connect = (identity?: { key: string; cert: string }) =>
      new Promise<{ client: mqtt.MqttClient | undefined; error?: Error }>((resolve) => {
        const client = mqtt.connect(nop.mqttUrl, {
          protocolVersion: 4,
          ca: nop.caCertPem,
          reconnectPeriod: 0,
          connectTimeout: 10_000,
          ...(identity ?? {}),
        });
        client.once('connect', () => resolve({ client }));
        client.once('error', (error) => {
          client.end(true);
          resolve({ client: undefined, error });
        });
      });
    expect((await connect()).error).toBeDefined();
    expect((await connect(foreign)).error).toBeDefined();
    const { client } = await connect(own);
    expect(client).toBeDefined();
    // mqtt.js reports a SUBACK return code 0x80 as an error of the subscribe call.
    const refusal = await new Promise<Error | null>((resolve) =>
      client!.subscribe('VATSK-2021000014/POKLADNICA-88820210000140001/#', { qos: 1 }, (e) =>
        resolve(e ?? null),
      ),
    );
    expect(refusal?.message).toMatch(/Subscribe error/);
    expect(
      nop.brokerEvents.some((e) => e.event === 'subscribe-refused' && e.detail.includes('2021000014')),
    ).toBe(true);
    await new Promise<void>((resolve) =>
      client!.subscribe('VATSK-2021000003/POKLADNICA-88820210000030001/#', { qos: 2 }, () => resolve()),
    );
    const delivered = new Promise<number>((resolve) =>
      client!.once('message', (_t, _p, packet) => resolve(packet.qos)),
    );
    const id = (
      (await call('/api/v1/generateNewTransactionId', { identity: own })).body as Record<string, string>
    ).transaction_id!;
    await nop.pay({ order: { iban: 'SK3112000000198742637541', amount: '1.00', paymentId: id } });
    expect(await delivered).toBe(1); // QoS 2 asked, QoS 1 granted (NOP supports 0 and 1)
    client!.end(true);
    expect(other.cert).toContain('BEGIN CERTIFICATE');
  });
});

describe('kasa reports a refused certificate and logs no key material', () => {
  it('a register whose certificate NOP does not trust: create answers 802, the session status says refused', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-qr-foreign-'));
    const trust = join(dataDir, 'nop-ca.pem');
    writeFileSync(trust, nop.caCertPem);
    // The demo merchant's certificate comes from <data-dir>/demo-ca, which this NOP does not trust.
    const h = await startHarness({
      dataDir,
      logger: createLogger('trace', sink),
      config: { nopEnv: 'int', nopUrl: nop.erpUrl, nopMqttUrl: nop.mqttUrl, nopTrust: trust },
      qrJobs: { tickMs: 200 },
    });
    try {
      await h.kasa.parts.journal.append({
        type: 'settings',
        body: { changes: { nopIban: 'SK3112000000198742637541' } },
      });
      const refused = await h.post('/api/qrpayment/create', { amount: 1 });
      expect(refused.body.resultCode).toBe(802);
      const status = await waitFor('the refusal in the status', async () => {
        const s = (await h.get('/api/qrpayment/notifier')).body.notifier;
        return s.refused ? s : undefined;
      });
      expect(status.connected).toBe(false);
    } finally {
      await h.close();
    }
    const log = lines.join('');
    expect(log).toMatch(/NOP refused the register/);
    expect(log).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE|MII[A-Za-z0-9+/]{40}/);
  });

  it('a whole QR payment at trace level writes no key or certificate into the log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const h = await startQrHarness({ logger: createLogger('trace', sink) });
    try {
      await h.sessionUp();
      const id = (await h.create({ amount: 1.2 })).body.qrPayment.qrPaymentId as string;
      const { scan, bankNotifies } = await import('../support/fake-bank-app.js');
      await bankNotifies(h.nop, scan(await h.png(id)));
      await h.until(id, 'PAID');
    } finally {
      await h.close();
    }
    const log = lines.join('');
    expect(log).toMatch(/QR payment QR-[0-9a-f]{32} is PAID/);
    expect(log).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE|MII[A-Za-z0-9+/]{40}/);
  });
});
