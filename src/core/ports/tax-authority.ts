import type { SfsLocationRequest, SfsReceiptRequest } from '../sfs/message.js';

/**
 * Signs SFS messages with the merchant's key (WS-Security: RSA-SHA256, certificate in the
 * BinarySecurityToken). The private key never leaves the implementation.
 */
export interface MessageSigner {
  /** The merchant certificate, DER. */
  readonly certificateDer: Uint8Array;
  /** RSASSA-PKCS1-v1_5 with SHA-256 over `data`. */
  sign(data: Uint8Array): Uint8Array;
}

export interface SfsWarning {
  code: number;
  text: string;
}

/**
 * The typed outcome of one send attempt. Never thrown: the caller decides what each means
 * (online document, offline queue, stuck document).
 */
export type SfsOutcome =
  /** Registered. `id` is the receipt UID (`O-…`); absent for a location. */
  | {
      kind: 'accepted';
      id?: string;
      processDate: string;
      requestUuid: string;
      responseUuid: string;
      warning?: SfsWarning;
    }
  /** SOAP Fault with an EkasaErrorCode: not registered, must not be handed over (spec §2.6). */
  | { kind: 'rejected'; code: number; text: string }
  /** The SFS reports the message as already registered without giving its UID (result 601). */
  | { kind: 'duplicate'; code: number; text: string }
  /** No usable answer within the online limit, or the connection failed: goes offline. */
  | { kind: 'unreachable'; reason: string; timedOut: boolean; elapsedMs: number }
  /** An answer arrived but cannot be understood (result 504). */
  | { kind: 'invalid-response'; reason: string }
  /** An answer arrived but its signature is missing, wrong or by an untrusted certificate (602). */
  | { kind: 'unverified'; reason: string };

export interface SendOptions {
  /** The online limit for this attempt, ms (default from configuration: 5000). */
  timeoutMs?: number;
  /**
   * The request is built and signed at once but leaves only once this has resolved (ADR 1109: the
   * document's own CHDÚ write, flushed meanwhile); the online limit counts from then. If it
   * rejects, the attempt rejects with its error and nothing is sent.
   */
  notBefore?: Promise<unknown>;
}

/** The tax authority's eKasa server (SFS). */
export interface TaxAuthority {
  /** Where requests go, for status output (e.g. the URL). */
  readonly target: string;
  /** Sends one signed RegisterReceiptRequest attempt. Resolves within the online limit + a small margin. */
  registerReceipt(
    request: SfsReceiptRequest,
    signer: MessageSigner,
    options?: SendOptions,
  ): Promise<SfsOutcome>;
  /** Sends one signed RegisterLocationRequest attempt. */
  registerLocation(
    request: SfsLocationRequest,
    signer: MessageSigner,
    options?: SendOptions,
  ): Promise<SfsOutcome>;
  /** Frees sockets; pending attempts end as `unreachable`. */
  close(): Promise<void>;
}
