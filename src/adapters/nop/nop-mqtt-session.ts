import { isIP } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import type {
  NotifierCredentials,
  NotifierSession,
  NotifierSessionEvents,
} from '../../core/ports/payment-notifier.js';
import { registerTopic } from '../../core/qr-payments/nop-identity.js';
import { tlsClientCredentials } from '../crypto/key-signer.js';
import type { NopEndpoints } from './nop-endpoints.js';

/** Notifications are a few hundred bytes; anything much larger is not one. */
const MAX_PAYLOAD_BYTES = 16 * 1024;

export interface MqttSessionOptions {
  /** Wait between reconnect attempts, ms (default 2000). */
  reconnectMs?: number;
}

/**
 * The persistent notification session (research §2.5, ADR 0908): MQTT 3.1.1 over TLS with the
 * eKasa certificate, one client per register (`clientId` `kasa-<register code>`, clean session
 * off, keep-alive 60 s), subscribed at QoS 1 to `VATSK-…/POKLADNICA-…/#`, reconnecting after a
 * drop. Every (re)subscription is reported as `connected` so the caller catches up through the
 * listing; every message is handed on raw (the caller de-duplicates).
 */
export class NopMqttSession implements NotifierSession {
  readonly #client: MqttClient | undefined;
  readonly #events: NotifierSessionEvents;
  #connected = false;
  #closed = false;

  constructor(
    endpoints: NopEndpoints,
    credentials: NotifierCredentials,
    events: NotifierSessionEvents,
    options: MqttSessionOptions = {},
  ) {
    this.#events = events;
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
      clientId: `kasa-${credentials.cashRegisterCode}`,
      clean: false,
      keepalive: 60,
      connectTimeout: 30_000,
      reconnectPeriod: options.reconnectMs ?? 2000,
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
      this.#report(`${error.message}`, refused);
    });
    client.on('close', () => {
      if (!this.#closed) this.#report('connection closed', false);
    });
  }

  get connected(): boolean {
    return this.#connected;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#connected = false;
    const client = this.#client;
    if (client) await new Promise<void>((resolve) => client.end(true, {}, () => resolve()));
  }

  #report(reason: string, refused: boolean): void {
    const was = this.#connected;
    this.#connected = false;
    if (was || refused) this.#events.disconnected(reason, refused);
  }
}
