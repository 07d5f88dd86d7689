import type { NopIdentity } from '../qr-payments/nop-identity.js';
import type { MessageSigner } from './tax-authority.js';

/**
 * The register's credentials for NOP: its eKasa certificate and key (mutual TLS, nothing signed
 * at message level) and the identity the certificate names. The key stays inside the signer.
 */
export interface NotifierCredentials extends NopIdentity {
  signer: MessageSigner;
}

/** A payment id NOP issued. */
export interface IssuedPaymentId {
  /** `QR-` + 32 lower-case hex. */
  id: string;
  /** NOP's `created_at`, as sent (ISO-8601 UTC). */
  createdAt: string;
}

/** One notification as it arrived, raw: the use cases read and check it (ADR 0905). */
export interface RawNotification {
  /** The payload text (MQTT) or the row as JSON text (REST listing). */
  payload: string;
  via: 'mqtt' | 'rest';
  /** The MQTT topic it came on. */
  topic?: string;
}

/** What the persistent session reports; called in order, never concurrently for one session. */
export interface NotifierSessionEvents {
  /** Every delivery, duplicates included (QoS 1 is at-least-once: the receiver de-duplicates). */
  notification(n: RawNotification): void;
  /** The session is (again) connected and subscribed: time to catch up through the listing. */
  connected(): void;
  /** The connection dropped or was refused; the session keeps trying. `refused` = NOP said no. */
  disconnected(reason: string, refused: boolean): void;
}

/** The persistent notification session (MQTT 3.1.1 over TLS, QoS 1, the register's topic). */
export interface NotifierSession {
  readonly connected: boolean;
  /** Ends the session for good (no reconnect). */
  close(): Promise<void>;
}

/**
 * The tax authority's payment notifier (NOP, "Notifikátor okamžitých platieb"): issues payment
 * ids and delivers the bank's "money credited" notifications to the register. Real adapter:
 * HTTPS + MQTT with mutual TLS (`src/adapters/nop/`); simulator: `kasa nop-sim`.
 */
export interface PaymentNotifier {
  /** Where requests go, for status output. */
  readonly target: string;

  /**
   * Asks NOP for a new payment id (`POST /api/v1/generateNewTransactionId`). One attempt, bounded
   * in time; never invents an id.
   *
   * @throws FiscalError 801 NOP_UNREACHABLE (no connection, timeout, 5xx, 429 with `retryAfter`
   *   in the details, or an answer without a valid id), 802 NOP_REFUSED (401/403: the certificate
   *   was refused or has no right to the register).
   */
  newPaymentId(credentials: NotifierCredentials): Promise<IssuedPaymentId>;

  /**
   * The register's notifications NOP still holds (`getAllTransactions`, records live 2 hours),
   * created at or after `since`, all pages.
   *
   * @throws FiscalError 801 NOP_UNREACHABLE, 802 NOP_REFUSED (as {@link newPaymentId}).
   */
  listNotifications(credentials: NotifierCredentials, since: Date): Promise<RawNotification[]>;

  /**
   * Opens the persistent session on the register's topic (`VATSK-…/POKLADNICA-…/#`, QoS 1). It
   * connects in the background, reconnects after a drop and reports through `events`; it never
   * throws.
   */
  openSession(credentials: NotifierCredentials, events: NotifierSessionEvents): NotifierSession;

  /** Frees sockets. */
  close(): Promise<void>;
}
