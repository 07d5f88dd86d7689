import { createHash } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { openTestCa } from '../../adapters/pki/test-ca.js';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import { NopBroker } from './nop-broker.js';
import {
  type ErpRequestEntry,
  type ErpSwitches,
  handleErpRequest,
  notificationProblem,
} from './nop-erp-api.js';
import { NopLedger, type SimNotificationBody, type SimRegister } from './nop-ledger.js';
import { startNopControl } from './nop-sim-control.js';
import { openSimIdentity, type PemIdentity } from './nop-sim-pki.js';
import type { PaymeOrder } from './payme-parser.js';

export interface NopSimulatorOptions {
  /** The test CA folder (`--ca-dir`, the one `kasa merchant new` issues register certificates from). */
  caDir: string;
  host?: string;
  /** Ports of the three faces; 0 (default) picks free ones. */
  ports?: { erp?: number; mqtt?: number; control?: number };
  clock?: Clock;
  /** Life of notifications in the listing and of retained messages (default 2 hours). */
  retentionMs?: number;
  log?: (line: string) => void;
}

/** Delivery switches (research §8.3): retained or not, delivered twice, late. */
export interface DeliverySwitches {
  /** Retain notifications (a late subscriber gets them). Off: only the listing has them. */
  retain: boolean;
  /** Deliver every notification twice (QoS 1 duplicate, DUP set on the second). */
  duplicate: boolean;
  /** Wait this long before publishing a notification. */
  delayMs: number;
}

/** What the bank app pays: usually the Payme order kasa's QR carries, possibly spoiled on purpose. */
export interface SimPayment {
  order: Pick<PaymeOrder, 'iban' | 'amount' | 'paymentId'>;
  /** Pay this amount instead (under- or over-payment). */
  amount?: string;
  /** Send a wrong integrity hash. */
  wrongHash?: boolean;
  delayMs?: number;
}

/** A payment the simulator refuses, with the HTTP status its bank API would answer. */
export class SimPaymentRefused extends Error {
  constructor(
    readonly status: 404 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** `sha256(IBAN|amount|EUR|id)`: the hash a correct bank sends (research §2.6). */
export function bankHash(iban: string, amount: string, id: string): string {
  return createHash('sha256').update(`${iban}|${amount}|EUR|${id}`).digest('hex');
}

/**
 * The NOP simulator (`kasa nop-sim`, embedded in demo mode): a loopback-only stand-in for the FS
 * payment notifier with its own test CA. Faces: an HTTPS ERP + bank API behind mutual TLS, an MQTT
 * 3.1.1 TLS broker with per-register ACLs and retained notifications, and a plain-HTTP control API
 * on loopback (`/__sim/…`, the public history lookup) that tests and a shop owner trying the demo
 * use to "pay". docs/qr-payments.md lists its rules and switches.
 */
export class NopSimulator {
  readonly #options: NopSimulatorOptions;
  readonly #clock: Clock;
  readonly ledger: NopLedger;
  readonly caCertPem: string;
  readonly serverIdentity: PemIdentity;
  /** The bank's client certificate and key (for tests that call the bank API themselves). */
  readonly bankIdentity: PemIdentity;
  readonly erpSwitches: ErpSwitches = {
    idField: 'transaction_id',
    rateLimited: 0,
    retryAfterSeconds: 2,
    unavailable: 0,
    pageLimit: 100,
  };
  readonly delivery: DeliverySwitches = { retain: true, duplicate: false, delayMs: 0 };
  readonly erpHistory: ErpRequestEntry[] = [];
  #erp!: https.Server;
  #erpPort = 0;
  #erpListening = false;
  #broker!: NopBroker;
  #control!: { url: string; close(): Promise<void> };
  #sweep: NodeJS.Timeout | undefined;

  private constructor(options: NopSimulatorOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.ledger = new NopLedger(options.retentionMs ?? 2 * 3600_000);
    const ca = openTestCa(options.caDir, this.#clock.now());
    this.caCertPem = ca.certPem;
    this.serverIdentity = openSimIdentity(ca, 'server', this.#clock.now());
    this.bankIdentity = openSimIdentity(ca, 'bank', this.#clock.now());
  }

  static async start(options: NopSimulatorOptions): Promise<NopSimulator> {
    const sim = new NopSimulator(options);
    await sim.#start();
    return sim;
  }

  get host(): string {
    return this.#options.host ?? '127.0.0.1';
  }
  /** The ERP (and bank) API base, e.g. `https://127.0.0.1:8443`. */
  get erpUrl(): string {
    return `https://${this.host}:${this.#erpPort}`;
  }
  get mqttUrl(): string {
    return this.#broker.url;
  }
  get controlUrl(): string {
    return this.#control.url;
  }
  get caDir(): string {
    return this.#options.caDir;
  }
  get brokerEvents() {
    return this.#broker.events;
  }
  get connectedClients(): number {
    return this.#broker.connectedClients;
  }
  get erpOffline(): boolean {
    return !this.#erpListening;
  }

  /**
   * The bank credits a payment and notifies NOP, which publishes it to the register that owns the
   * id (the same path as `POST /api/v1/payments`, without the bank's HTTP call, and the same rules:
   * a body the bank API would refuse is refused here too).
   * @throws SimPaymentRefused 404 when NOP issued no such id, 422 when the notification breaks the
   *   rules of research §2.6 (e.g. an amount that is not a 2-decimal string).
   */
  async pay(payment: SimPayment): Promise<void> {
    const tx = this.ledger.transaction(payment.order.paymentId);
    if (!tx) throw new SimPaymentRefused(404, `no transaction ${payment.order.paymentId}`);
    const amount = payment.amount ?? payment.order.amount;
    const body: SimNotificationBody = {
      transactionStatus: 'ACCC',
      transactionAmount: { amount, currency: 'EUR' },
      endToEndId: tx.id,
      dataIntegrityHash: payment.wrongHash
        ? bankHash(payment.order.iban, amount, `${tx.id}x`)
        : bankHash(payment.order.iban, amount, tx.id),
      creditorAccount: { iban: payment.order.iban },
    };
    const problem = notificationProblem(body);
    if (problem) throw new SimPaymentRefused(422, problem);
    tx.receivedAt = this.#clock.now().toISOString();
    tx.payment = { amount, currency: 'EUR', iban: payment.order.iban };
    if (payment.delayMs) await sleep(payment.delayMs);
    await this.#deliver(tx.owner, body);
    tx.publishedAt = this.#clock.now().toISOString();
  }

  /**
   * A broker outage: every MQTT connection is cut, new ones are refused and nothing is published for
   * `refuseMs` (notifications of that time are only in the listing). 0 ends an outage.
   */
  dropBroker(refuseMs = 0): void {
    this.#broker.drop(refuseMs, true);
  }

  /**
   * The registers' connections are lost for `refuseMs`; the broker keeps publishing and retaining.
   * With `forgetSessions` the broker also forgets their persistent sessions (as after its restart):
   * a register that comes back subscribes afresh and gets what it missed only as retained messages.
   */
  async disconnectClients(refuseMs = 0, options: { forgetSessions?: boolean } = {}): Promise<void> {
    this.#broker.drop(refuseMs, false);
    if (options.forgetSessions) await this.#broker.forgetSessions();
  }

  /** Closes the HTTPS listener (connections refused) until {@link goOnline}: "NOP down". */
  async goOffline(): Promise<void> {
    if (!this.#erpListening) return;
    const closed = new Promise<void>((resolve) => this.#erp.close(() => resolve()));
    this.#erp.closeAllConnections();
    this.#erpListening = false;
    await closed;
  }

  async goOnline(): Promise<void> {
    if (!this.#erpListening) await this.#listenErp(this.#erpPort);
  }

  /** Drops notifications and retained messages older than the retention. */
  async sweep(): Promise<void> {
    this.ledger.expire(this.#clock.now());
    await this.#broker.expireRetained();
  }

  reset(): void {
    this.ledger.clear();
    Object.assign(this.erpSwitches, {
      idField: 'transaction_id',
      rateLimited: 0,
      unavailable: 0,
      pageLimit: 100,
    });
    Object.assign(this.delivery, { retain: true, duplicate: false, delayMs: 0 });
    this.erpHistory.length = 0;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    await this.goOffline();
    await this.#broker.close();
    await this.#control.close();
  }

  async #deliver(owner: SimRegister, body: SimNotificationBody): Promise<void> {
    this.ledger.record(owner, body, this.#clock.now());
    if (this.delivery.delayMs > 0) await sleep(this.delivery.delayMs);
    await this.#broker.publish(owner, body, {
      retain: this.delivery.retain,
      times: this.delivery.duplicate ? 2 : 1,
    });
  }

  async #start(): Promise<void> {
    const tls = { key: this.serverIdentity.key, cert: this.serverIdentity.cert, ca: this.caCertPem };
    this.#erp = https.createServer(
      { ...tls, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' },
      (req, res) => {
        handleErpRequest(
          {
            ledger: this.ledger,
            switches: this.erpSwitches,
            now: () => this.#clock.now(),
            history: this.erpHistory,
            deliver: (owner, body) => this.#deliver(owner, body),
          },
          req,
          res,
        ).catch((e: unknown) => {
          this.#options.log?.(`nop-sim: ${(e as Error).message}`);
          if (!res.headersSent) res.writeHead(500).end();
        });
      },
    );
    // research §2.3: a 30 s read/idle timeout.
    this.#erp.setTimeout(30_000);
    await this.#listenErp(this.#options.ports?.erp ?? 0);
    this.#broker = await NopBroker.start({
      host: this.host,
      port: this.#options.ports?.mqtt ?? 0,
      tls,
      retainedLifeMs: this.#options.retentionMs ?? 2 * 3600_000,
      now: () => this.#clock.now(),
      issueId: (owner) => {
        const tx = this.ledger.issue(owner, this.#clock.now());
        return { id: tx.id, createdAt: tx.createdAt };
      },
    });
    this.#control = await startNopControl(this, this.host, this.#options.ports?.control ?? 0);
    this.#sweep = setInterval(() => {
      this.sweep().catch(() => undefined);
    }, 60_000);
    this.#sweep.unref();
  }

  async #listenErp(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#erp.once('error', reject);
      this.#erp.listen(port, this.host, () => {
        this.#erp.off('error', reject);
        resolve();
      });
    });
    this.#erpPort = (this.#erp.address() as AddressInfo).port;
    this.#erpListening = true;
  }
}
