import { z } from 'zod';

/**
 * Faults the SFS simulator can inject (STYLE: simulators inject faults), set at run time through
 * `/__sim/` or the programmatic API. Each fault applies to the next `count` SOAP requests, in the
 * order they were queued. What the client makes of each is documented in docs/sfs.md.
 */
export const faultSchema = z.discriminatedUnion('kind', [
  /** Accept the request and never answer (the client's online limit must end the attempt). */
  z.object({
    kind: z.literal('timeout'),
    count: z.number().int().min(1).default(1),
    process: z.boolean().default(false),
  }),
  /** Read the request, then close the connection without an answer. */
  z.object({
    kind: z.literal('drop'),
    count: z.number().int().min(1).default(1),
    process: z.boolean().default(false),
  }),
  /** Answer an HTTP error status with a non-SOAP body. */
  z.object({
    kind: z.literal('http-error'),
    count: z.number().int().min(1).default(1),
    status: z.number().int().min(400).max(599).default(503),
    process: z.boolean().default(false),
  }),
  /** Answer a signed SOAP Fault with this EkasaErrorCode; nothing is registered. */
  z.object({
    kind: z.literal('soap-fault'),
    count: z.number().int().min(1).default(1),
    code: z.number().int().min(-999).max(-1),
    text: z.string().min(1).max(500).optional(),
  }),
  /** Answer 200 with bytes that are not XML. */
  z.object({
    kind: z.literal('garbage'),
    count: z.number().int().min(1).default(1),
    process: z.boolean().default(false),
  }),
  /** Process normally, answer without the WS-Security header. */
  z.object({ kind: z.literal('unsigned'), count: z.number().int().min(1).default(1) }),
  /** Process normally, answer with a signature that does not verify (one byte of it changed). */
  z.object({ kind: z.literal('bad-signature'), count: z.number().int().min(1).default(1) }),
  /** Process normally, answer signed by a self-signed certificate outside the test CA. */
  z.object({ kind: z.literal('untrusted-signature'), count: z.number().int().min(1).default(1) }),
  /** Process normally; an accepted answer carries this Warning. */
  z.object({
    kind: z.literal('warning'),
    count: z.number().int().min(1).default(1),
    code: z.number().int().min(-999).max(999),
    text: z.string().min(1).max(500),
  }),
]);

export type SimFault = z.output<typeof faultSchema>;
export type SimFaultInput = z.input<typeof faultSchema>;
export type FaultKind = SimFault['kind'];

export const latencySchema = z.object({
  ms: z.number().int().min(0).max(600_000),
  /** Applies to the next `count` requests; absent = until changed or reset. */
  count: z.number().int().min(1).optional(),
});

export const offlineSchema = z.object({
  /** Refuse connections for this long, then listen again on the same port. */
  ms: z.number().int().min(1).max(3_600_000),
});

/** The queue of pending faults and the latency setting. */
export class FaultQueue {
  #faults: SimFault[] = [];
  #latency: { ms: number; remaining: number | undefined } = { ms: 0, remaining: undefined };

  add(fault: SimFaultInput): SimFault {
    const parsed = faultSchema.parse(fault);
    this.#faults.push(parsed);
    return parsed;
  }

  setLatency(ms: number, count?: number): void {
    this.#latency = { ms, remaining: count };
  }

  /** Takes the fault (if any) and the latency for the next SOAP request. */
  next(): { fault: SimFault | undefined; latencyMs: number } {
    const head = this.#faults[0];
    let fault: SimFault | undefined;
    if (head) {
      fault = { ...head, count: 1 };
      if (head.count > 1) this.#faults[0] = { ...head, count: head.count - 1 };
      else this.#faults.shift();
    }
    let latencyMs = this.#latency.ms;
    if (this.#latency.remaining !== undefined) {
      if (this.#latency.remaining <= 0) latencyMs = 0;
      else if (--this.#latency.remaining === 0) this.#latency = { ms: 0, remaining: undefined };
    }
    return { fault, latencyMs };
  }

  pending(): { faults: SimFault[]; latency: { ms: number; count?: number } } {
    const { ms, remaining } = this.#latency;
    return {
      faults: this.#faults.map((f) => ({ ...f })),
      latency: remaining === undefined ? { ms } : { ms, count: remaining },
    };
  }

  clear(): void {
    this.#faults = [];
    this.#latency = { ms: 0, remaining: undefined };
  }
}
