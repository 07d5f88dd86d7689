import { isIP } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import type {
  NotifierCredentials,
  NotifierSession,
  NotifierSessionEvents,
} from '../../core/ports/payment-notifier.js';
import { registerTopic } from '../../core/qr-payments/nop-identity.js';
import { tlsClientCredentials } from '../crypto/key-signer.js';
import { mqttClientId } from './nop-client-id.js';
import type { NopEndpoints } from './nop-endpoints.js';

/** Notifications are a few hundred bytes; anything much larger is not one. */
const MAX_PAYLOAD_BYTES = 16 * 1024;

export interface MqttSessionOptions {
  /** This installation's client id suffix (`loadClientIdSuffix`, ADR 0908); default `00000`. */
  clientIdSuffix?: string;
  /** Runs `retry` after `ms` (tests record the delays); default setTimeout. */
  schedule?: (retry: () => void, ms: number) => { cancel(): void };
}

/**
 * The wait before reconnect attempt `attempt` (0 = the first after a loss), ms (ADR 0908):
 * 1, 2, 4, 8, 16, 30, 30 … s, as NOP's manual asks of REST retries (research §2.3); after NOP
 * refused the register (CONNACK 4/5, a TLS alert on the certificate) 60, 120, 240 … up to 600 s —
 * hammering a broker that said no changes nothing until the certificate is fixed.
 */
export function reconnectDelayMs(attempt: number, refused: boolean): number {
  const [first, max] = refused ? [60_000, 600_000] : [1_000, 30_000];
  return Math.min(max, first * 2 ** Math.min(attempt, 16));
}

const timer = (retry: () => void, ms: number) => {
  const handle = setTimeout(retry, ms);
  handle.unref();
  return { cancel: () => clearTimeout(handle) };
};

/**
 * The persistent notification session (research §2.5, ADR 0908): MQTT 3.1.1 over TLS with the
 * eKasa certificate, one client per register and installation (client id
 * `k<register code><suffix>`, clean session off, keep-alive 60 s), subscribed at QoS 1 to
 * `VATSK-…/POKLADNICA-…/#`, reconnecting after a drop with a growing wait
 * ({@link reconnectDelayMs}). Every (re)subscription is reported as `connected` so the caller catches up through the
 * listing; every message is handed on raw (the caller de-duplicates).
 */
export class NopMqttSession implements NotifierSession {
  readonly #client: MqttClient | undefined;
  readonly #events: NotifierSessionEvents;
  readonly #schedule: NonNullable<MqttSessionOptions['schedule']>;
  #connected = false;
  #closed = false;
  /** Reconnect attempts since the last successful subscription. */
  #attempt = 0;
  /** The last failure was NOP refusing the register. */
  #refused = false;
  #retry: { cancel(): void } | undefined;

  constructor(
    endpoints: NopEndpoints,
    credentials: NotifierCredentials,
    events: NotifierSessionEvents,
    options: MqttSessionOptions = {},
  ) {
    this.#events = events;
    this.#schedule = options.schedule ?? timer;
    const identity = tlsClientCredentials(credentials.signer);
    if (!identity) {
      queueMicrotask(() =>
        events.disconnected('the merchant key cannot be used as a TLS client identity', true),
      );
      return;
    }
    const topic = `${registerTopic(credentials)}/#`;
    const host = new URL(endpoints.mqttUrl).hostname.replace(/^\[|\]$/g, '');
    const client = mqtt.connect(endpoints.mqttUrl, {
      protocolVersion: 4,
      clientId: mqttClientId(credentials.cashRegisterCode, options.clientIdSuffix ?? '00000'),
      clean: false,
      keepalive: 60,
      connectTimeout: 30_000,
      // Reconnects are scheduled here (a growing wait), not by mqtt.js's fixed period.
      reconnectPeriod: 0,
      key: identity.key,
      cert: identity.cert,
      ...(endpoints.serverCaPem ? { ca: endpoints.serverCaPem } : {}),
      ...(isIP(host) === 0 ? { servername: host } : {}),
      rejectUnauthorized: true,
    });
    this.#client = client;
    client.on('connect', () => {
      client.subscribe(topic, { qos: 1 }, (error, granted) => {
        if (this.#closed) return;
        const refused = error !== null || granted === undefined || granted.some((g) => g.qos === 128);
        if (refused) {
          this.#events.disconnected(`NOP refused the subscription to ${topic}`, true);
          return;
        }
        this.#attempt = 0;
        this.#refused = false;
        this.#connected = true;
        this.#events.connected();
      });
    });
    client.on('message', (messageTopic, payload) => {
      // An empty retained payload deletes a retained message; the bare register topic carries ids.
      if (payload.length === 0 || !messageTopic.startsWith(topic.slice(0, -1))) return;
      this.#events.notification({
        payload: payload.length > MAX_PAYLOAD_BYTES ? `<${payload.length} bytes>` : payload.toString('utf8'),
        via: 'mqtt',
        topic: messageTopic,
      });
    });
    client.on('error', (error) => {
      if (this.#closed) return;
      const code = (error as { code?: unknown }).code;
      // CONNACK 5 "not authorized" / 4 "bad user name or password": NOP refused the certificate.
      const refused = code === 5 || code === 4 || /certificate|handshake|alert/i.test(error.message);
      if (refused && !this.#refused) {
        this.#refused = true;
        this.#attempt = 0; // the slower schedule starts at its beginning
      }
      this.#report(`${error.message}`, refused);
    });
    client.on('close', () => {
      if (this.#closed) return;
      this.#report('connection closed', false);
      this.#retry?.cancel();
      const delay = reconnectDelayMs(this.#attempt++, this.#refused);
      this.#retry = this.#schedule(() => {
        this.#retry = undefined;
        if (!this.#closed && !client.connected) client.reconnect();
      }, delay);
    });
  }

  get connected(): boolean {
    return this.#connected;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#connected = false;
    this.#retry?.cancel();
    const client = this.#client;
    if (client) await new Promise<void>((resolve) => client.end(true, {}, () => resolve()));
  }

  #report(reason: string, refused: boolean): void {
    const was = this.#connected;
    this.#connected = false;
    if (was || refused) this.#events.disconnected(reason, refused);
  }
}
