import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeySigner } from '../../src/adapters/crypto/key-signer.js';
import { CLIENT_ID_SUFFIX_FILE, loadClientIdSuffix } from '../../src/adapters/nop/nop-client-id.js';
import { NopMqttSession, reconnectDelayMs } from '../../src/adapters/nop/nop-mqtt-session.js';
import type { NotifierCredentials } from '../../src/core/ports/payment-notifier.js';
import { NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { waitFor } from '../support/fake-bank-app.js';
import { registerIdentity } from '../support/nop-identities.js';

/**
 * ADR 0908: the MQTT session reconnects with a growing wait (slower after NOP refused the
 * register) and uses a client id of its own installation, in the form every MQTT 3.1.1 broker must
 * accept. The waits are recorded, not timed: the scheduler runs each retry at once.
 */
const DIC = '2021000003';
const CODE = '88820210000030001';
let sim: NopSimulator;
let own: NotifierCredentials;
let foreign: NotifierCredentials;

const credentials = (pem: { key: string; cert: string }): NotifierCredentials => ({
  dic: DIC,
  cashRegisterCode: CODE,
  signer: new KeySigner(createPrivateKey(pem.key), pem.cert),
});

beforeAll(async () => {
  const caDir = mkdtempSync(join(tmpdir(), 'kasa-nop-session-'));
  sim = await NopSimulator.start({ caDir });
  own = credentials(registerIdentity(caDir, DIC, CODE));
  foreign = credentials(registerIdentity(mkdtempSync(join(tmpdir(), 'kasa-foreign-')), DIC, CODE));
});
afterAll(async () => sim?.close());

function open(who: NotifierCredentials, suffix = 'ab12z') {
  const delays: number[] = [];
  const events: Array<{ kind: 'connected' } | { kind: 'disconnected'; refused: boolean }> = [];
  const session = new NopMqttSession(
    { erpUrl: sim.erpUrl, mqttUrl: sim.mqttUrl, serverCaPem: sim.caCertPem, label: 'sim' },
    who,
    {
      notification: () => undefined,
      connected: () => events.push({ kind: 'connected' }),
      disconnected: (_reason, refused) => events.push({ kind: 'disconnected', refused }),
    },
    {
      clientIdSuffix: suffix,
      schedule: (retry, ms) => {
        delays.push(ms);
        const t = setTimeout(retry, 20);
        return { cancel: () => clearTimeout(t) };
      },
    },
  );
  return { session, delays, events };
}

describe('reconnect waits', () => {
  it('1, 2, 4 … 30 s after a loss; 60, 120 … 600 s after a refusal', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((a) => reconnectDelayMs(a, false) / 1000)).toEqual([
      1, 2, 4, 8, 16, 30, 30, 30,
    ]);
    expect([0, 1, 2, 3, 4, 5, 40].map((a) => reconnectDelayMs(a, true) / 1000)).toEqual([
      60, 120, 240, 480, 600, 600, 600,
    ]);
  });

  it('the session waits longer at each failed attempt and starts again at 1 s once subscribed', async () => {
    const { session, delays, events } = open(own);
    try {
      await waitFor('the session', () => (session.connected ? true : undefined));
      expect(
        sim.brokerEvents.some((e) => e.event === 'connect' && e.detail.startsWith(`k${CODE}ab12z as`)),
      ).toBe(true);
      await sim.disconnectClients(60_000); // every attempt is cut until the window ends
      await waitFor('three failed attempts', () => (delays.length >= 3 ? true : undefined));
      await sim.disconnectClients(0);
      await waitFor('the session back', () => (session.connected ? true : undefined));
      const firstLoss = [...delays];
      expect(firstLoss.slice(0, 3)).toEqual([1000, 2000, 4000]);
      await sim.disconnectClients(0);
      await waitFor('the second loss', () => (delays.length > firstLoss.length ? true : undefined));
      expect(delays[firstLoss.length]).toBe(1000);
      expect(events.some((e) => e.kind === 'disconnected' && e.refused)).toBe(false);
    } finally {
      await session.close();
    }
  });

  it('after CONNACK 5 (a certificate NOP does not know) the next attempt waits 60 s, not 2', async () => {
    const { session, delays, events } = open(foreign, 'zz999');
    try {
      await waitFor('the refusal and a scheduled retry', () => (delays.length >= 1 ? true : undefined));
      expect(delays[0]).toBe(60_000);
      expect(events).toContainEqual({ kind: 'disconnected', refused: true });
      expect(session.connected).toBe(false);
    } finally {
      await session.close();
    }
  });
});

describe('client id', () => {
  it('k + register code + a suffix kept in the data dir: 23 characters of [0-9a-z], the same after a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-client-id-'));
    const suffix = loadClientIdSuffix(dir);
    expect(suffix).toMatch(/^[0-9a-z]{5}$/);
    expect(readFileSync(join(dir, CLIENT_ID_SUFFIX_FILE), 'utf8').trim()).toBe(suffix);
    expect(loadClientIdSuffix(dir)).toBe(suffix);
    const other = loadClientIdSuffix(mkdtempSync(join(tmpdir(), 'kasa-client-id-')));
    expect(`k${CODE}${suffix}`).toMatch(/^[0-9a-z]{23}$/);
    // Two installations differ (5 random characters of 36: a clash is a 1 in 60 million event).
    expect(other === suffix).toBe(false);
  });
});
