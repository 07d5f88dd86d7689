/**
 * The bounds the HTTP server puts on what one client can cost the register (ADR 0602,
 * docs/security.md). Slow or stalled clients are cut off by the server; bodies are bounded in size
 * and in nesting before anything reads them further.
 */
export interface HttpLimits {
  /** Request line and headers must arrive within this time (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time (Node's `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /**
   * Backstop: a socket with no traffic in either direction for this long is destroyed (a client
   * that stops reading its answer). Longer than any request takes to handle (the SFS online limit
   * is seconds), so it never cuts a request the register is still working on.
   */
  socketIdleTimeoutMs: number;
  /** How often Node checks the header and request deadlines (the bounds hold to this precision). */
  checkIntervalMs: number;
}

export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  socketIdleTimeoutMs: 300_000,
  checkIntervalMs: 1_000,
};

/** Request headers larger than this are refused by Node (HTTP 431) before kasa sees them. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Body size limits: 1 MiB, 10 MiB on image endpoints (logo). Over it → HTTP 413, 701. */
export const BODY_LIMIT = 1024 * 1024;
export const IMAGE_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects a JSON body may have. API bodies nest four or five levels;
 * recursive code (fingerprints, validation) must never meet a body deep enough to exhaust the stack.
 */
export const MAX_JSON_DEPTH = 32;
