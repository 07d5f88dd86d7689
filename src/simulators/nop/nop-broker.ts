import type { AddressInfo } from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { SimNotificationBody, SimRegister } from './nop-ledger.js';
import { simClientOf } from './nop-sim-pki.js';

export interface BrokerEvent {
  at: string;
  event:
    | 'connect'
    | 'refused'
    | 'subscribe'
    | 'subscribe-refused'
    | 'publish-refused'
    | 'disconnect'
    | 'deliver';
  detail: string;
}

export interface NopBrokerOptions {
  host: string;
  port: number;
  tls: { key: string; cert: string; ca: string };
  /** How long a retained notification lives (research §2.5: 2 hours). */
  retainedLifeMs: number;
  now: () => Date;
  /** Issues an id for a `TRANSACTIONS/…` publish (the MQTT alternative to the REST call). */
  issueId: (owner: SimRegister) => { id: string; createdAt: string };
}

const registerTopic = (r: SimRegister) => `VATSK-${r.dic}/POKLADNICA-${r.code}`;

/**
 * The NOP MQTT 3.1.1 broker over TLS (aedes): clients authenticate by their eKasa certificate
 * (no certificate or one from another CA: CONNACK 5), may subscribe only to their own
 * `VATSK-…/POKLADNICA-…` topics (others: SUBACK 0x80), QoS 0/1 only, publish only
 * `TRANSACTIONS/<own>` and `test/ping`. Notifications are retained for 2 hours, so a late
 * subscriber still gets them (research §2.5).
 */
export class NopBroker {
  readonly #options: NopBrokerOptions;
  readonly #aedes: Aedes;
  readonly #server: tls.Server;
  readonly #owners = new WeakMap<Client, SimRegister>();
  readonly #sockets = new Set<TLSSocket>();
  readonly #retained = new Map<string, number>();
  /** Client ids that ever connected (their persistent sessions live in aedes' persistence). */
  readonly #clientIds = new Set<string>();
  #refuseUntil = 0;
  #outageUntil = 0;
  #port = 0;
  readonly events: BrokerEvent[] = [];

  private constructor(options: NopBrokerOptions, aedes: Aedes) {
    this.#options = options;
    this.#aedes = aedes;
    this.#server = tls.createServer(
      {
        key: options.tls.key,
        cert: options.tls.cert,
        ca: options.tls.ca,
        requestCert: true,
        rejectUnauthorized: false,
        minVersion: 'TLSv1.2',
      },
      (socket) => {
        if (Date.now() < this.#refuseUntil) {
          socket.destroy();
          return;
        }
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => undefined);
        aedes.handle(socket);
      },
    );
  }

  static async start(options: NopBrokerOptions): Promise<NopBroker> {
    let broker: NopBroker | undefined;
    const aedes = await Aedes.createBroker({
      authenticate: (client, _u, _p, done) => broker!.#authenticate(client, done),
      authorizeSubscribe: (client, sub, done) => broker!.#authorizeSubscribe(client, sub, done),
      authorizePublish: (client, packet, done) => broker!.#authorizePublish(client, packet, done),
    });
    broker = new NopBroker(options, aedes);
    aedes.on('clientDisconnect', (client) => broker!.#event('disconnect', client.id));
    await new Promise<void>((resolve, reject) => {
      broker!.#server.once('error', reject);
      broker!.#server.listen(options.port, options.host, () => resolve());
    });
    broker.#port = (broker.#server.address() as AddressInfo).port;
    return broker;
  }

  get url(): string {
    return `mqtts://${this.#options.host}:${this.#port}`;
  }

  get connectedClients(): number {
    return this.#aedes.connectedClients;
  }

  /** Publishes a notification on `VATSK-…/POKLADNICA-…/<id>` at QoS 1, retained unless told not to. */
  async publish(
    owner: SimRegister,
    body: SimNotificationBody,
    options: { retain: boolean; times: number },
  ): Promise<void> {
    const topic = `${registerTopic(owner)}/${body.endToEndId}`;
    if (Date.now() < this.#outageUntil) {
      this.#event('deliver', `${topic} lost: the broker is down`);
      return;
    }
    const payload = Buffer.from(JSON.stringify({ ...body, receivedAt: this.#options.now().toISOString() }));
    if (options.retain) this.#retained.set(topic, this.#options.now().getTime());
    for (let i = 0; i < options.times; i++) {
      await new Promise<void>((resolve) =>
        this.#aedes.publish(
          { cmd: 'publish', topic, payload, qos: 1, retain: options.retain && i === 0, dup: i > 0 },
          () => resolve(),
        ),
      );
      this.#event('deliver', `${topic}${i > 0 ? ' (again)' : ''}`);
    }
  }

  /** Removes retained notifications older than their life (an empty retained payload deletes). */
  async expireRetained(): Promise<number> {
    const limit = this.#options.now().getTime() - this.#options.retainedLifeMs;
    let n = 0;
    for (const [topic, at] of [...this.#retained]) {
      if (at >= limit) continue;
      this.#retained.delete(topic);
      await new Promise<void>((resolve) =>
        this.#aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.alloc(0), qos: 0, retain: true, dup: false },
          () => resolve(),
        ),
      );
      n++;
    }
    return n;
  }

  /**
   * Cuts every connection now and refuses new ones for `refuseMs`. With `outage` the broker itself
   * is down that long: nothing is published or retained (the listing still has it); without it only
   * the clients' connections are lost (retained and queued QoS 1 messages wait for them).
   */
  drop(refuseMs = 0, outage = false): void {
    this.#refuseUntil = Date.now() + refuseMs;
    this.#outageUntil = outage ? this.#refuseUntil : 0;
    for (const socket of this.#sockets) socket.destroy();
  }

  /**
   * Forgets every client's persistent session (subscriptions, so nothing is queued for it any
   * more), as a broker restart would: a client that comes back starts a fresh session and learns
   * of earlier notifications only from retained messages (or the listing).
   */
  async forgetSessions(): Promise<void> {
    const persistence = (
      this.#aedes as unknown as { persistence: { cleanSubscriptions(c: { id: string }): Promise<void> } }
    ).persistence;
    for (const id of this.#clientIds) await persistence.cleanSubscriptions({ id });
    this.#event('disconnect', `sessions forgotten: ${[...this.#clientIds].join(', ')}`);
  }

  async close(): Promise<void> {
    this.drop(Number.POSITIVE_INFINITY);
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await new Promise<void>((resolve) => this.#aedes.close(() => resolve()));
  }

  #event(event: BrokerEvent['event'], detail: string): void {
    this.events.push({ at: new Date().toISOString(), event, detail });
    if (this.events.length > 1000) this.events.splice(0, this.events.length - 1000);
  }

  #authenticate(
    client: Client,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ): void {
    const socket = client.conn as TLSSocket;
    // A socket the client already closed answers null here (Node returns no certificate then).
    const peer = socket.authorized ? socket.getPeerCertificate() : null;
    const cn = peer?.subject?.CN === undefined ? '' : String(peer.subject.CN);
    const who = simClientOf(cn);
    if (who.role !== 'register') {
      this.#event(
        'refused',
        socket.authorized ? `not a register certificate: ${cn}` : 'no trusted client certificate',
      );
      const error = Object.assign(new Error('not authorized'), { returnCode: 5 }) as AuthenticateError;
      done(error, false);
      return;
    }
    this.#owners.set(client, { dic: who.dic, code: who.code });
    this.#clientIds.add(client.id);
    this.#event('connect', `${client.id} as ${cn}`);
    done(null, true);
  }

  #authorizeSubscribe(
    client: Client,
    sub: { topic: string; qos: 0 | 1 | 2 },
    done: (error: Error | null, subscription?: { topic: string; qos: 0 | 1 | 2 } | null) => void,
  ): void {
    const owner = this.#owners.get(client);
    const own = owner ? registerTopic(owner) : undefined;
    const allowed =
      owner !== undefined &&
      (sub.topic === `${own}/#` ||
        sub.topic === own ||
        sub.topic === `VATSK-${owner.dic}/#` ||
        (/^QR-[0-9a-f]{32}$/.test(sub.topic.slice(`${own}/`.length)) && sub.topic.startsWith(`${own}/`)));
    if (!allowed) {
      this.#event('subscribe-refused', `${client.id}: ${sub.topic}`);
      done(null, null); // SUBACK 0x80 for this topic (MQTT 3.1.1 §3.9.3)
      return;
    }
    this.#event('subscribe', `${client.id}: ${sub.topic}`);
    done(null, { topic: sub.topic, qos: Math.min(sub.qos, 1) as 0 | 1 });
  }

  #authorizePublish(
    client: Client | null,
    packet: { topic: string; payload: Buffer | string },
    done: (error?: Error | null) => void,
  ): void {
    if (client === null) {
      done(null); // the simulator's own notifications
      return;
    }
    const owner = this.#owners.get(client);
    if (owner && packet.topic === 'test/ping') {
      done(null);
      return;
    }
    if (owner && packet.topic === `TRANSACTIONS/${registerTopic(owner)}`) {
      let request: unknown;
      try {
        request = JSON.parse(String(packet.payload));
      } catch {
        request = undefined;
      }
      if ((request as { request?: unknown } | undefined)?.request === 'transaction_id') {
        const issued = this.#options.issueId(owner);
        const payload = Buffer.from(
          JSON.stringify({ transaction_id: issued.id, created_at: issued.createdAt }),
        );
        this.#aedes.publish(
          { cmd: 'publish', topic: registerTopic(owner), payload, qos: 1, retain: false, dup: false },
          () => undefined,
        );
        done(null);
        return;
      }
    }
    this.#event('publish-refused', `${client.id}: ${packet.topic}`);
    done(new Error('not authorized to publish here'));
  }
}
