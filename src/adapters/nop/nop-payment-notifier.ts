import type {
  IssuedPaymentId,
  NotifierCredentials,
  NotifierSession,
  NotifierSessionEvents,
  PaymentNotifier,
  RawNotification,
} from '../../core/ports/payment-notifier.js';
import type { NopEndpoints } from './nop-endpoints.js';
import { NopHttpsClient } from './nop-https-client.js';
import { type MqttSessionOptions, NopMqttSession } from './nop-mqtt-session.js';

/** {@link PaymentNotifier} over NOP's HTTPS API and MQTT broker, both with mutual TLS. */
export class NopPaymentNotifier implements PaymentNotifier {
  readonly #http: NopHttpsClient;
  readonly #sessions = new Set<NopMqttSession>();

  constructor(
    private readonly endpoints: NopEndpoints,
    private readonly options: MqttSessionOptions & { timeoutMs?: number } = {},
  ) {
    this.#http = new NopHttpsClient(endpoints, options.timeoutMs);
  }

  get target(): string {
    return `${this.endpoints.label} ${this.endpoints.erpUrl} ${this.endpoints.mqttUrl}`;
  }

  newPaymentId(credentials: NotifierCredentials): Promise<IssuedPaymentId> {
    return this.#http.newPaymentId(credentials);
  }

  listNotifications(credentials: NotifierCredentials, since: Date): Promise<RawNotification[]> {
    return this.#http.listNotifications(credentials, since);
  }

  openSession(credentials: NotifierCredentials, events: NotifierSessionEvents): NotifierSession {
    const session = new NopMqttSession(this.endpoints, credentials, events, this.options);
    this.#sessions.add(session);
    return {
      get connected() {
        return session.connected;
      },
      close: async () => {
        this.#sessions.delete(session);
        await session.close();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sessions].map((s) => s.close()));
    this.#sessions.clear();
  }
}
