import { performance } from 'node:perf_hooks';
import { type Clock, systemClock } from '../../core/ports/clock.js';
import type { MessageSigner, SendOptions, SfsOutcome, TaxAuthority } from '../../core/ports/tax-authority.js';
import { SIM_DUPLICATE_CODE } from '../../core/sfs/ekasa-errors.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../../core/sfs/message.js';
import { CertificateCache } from './certificate-cache.js';
import {
  HttpSoapTransport,
  type HttpSoapTransportOptions,
  ReplyTooLargeError,
  type SoapReply,
  type SoapTransport,
  TransportError,
} from './http-transport.js';
import { type CanonicalBody, locationRequestBody, receiptRequestBody } from './soap-envelope.js';
import { readResponseBody } from './soap-response.js';
import type { TrustStore } from './trust-store.js';
import { signEnvelope, soapBody, verifyEnvelope } from './ws-security.js';
import { parseXml, XmlParseError } from './xml-dom.js';

/**
 * Act 384/2025: the online limit is 5 s (public summaries of the act, e.g.
 * simmons.sk/novy-zakon-ekasa-2026; Datapac's OEC March 2026 release notes, GitHub `datapacsro/oec`;
 * ADR 0300).
 */
export const DEFAULT_ONLINE_LIMIT_MS = 5000;

export interface SoapTaxAuthorityOptions {
  /** The SOAP endpoint (`--sfs-url`), http: or https:. */
  url: string;
  /** Certificates trusted to sign responses (`--sfs-trust`, or the embedded simulator's CA). */
  trust: TrustStore;
  /** The online limit per attempt, ms (`--sfs-timeout-ms`). */
  timeoutMs?: number;
  clock?: Clock;
  /** Fault codes meaning "already registered" (ADR 0307); the kasa simulator's by default. */
  duplicateCodes?: readonly number[];
  /** HTTPS settings (extra CAs) for the default transport. */
  http?: HttpSoapTransportOptions;
  transport?: SoapTransport;
}

type Operation = 'RegisterReceipt' | 'RegisterLocation';

// One decoder for every answer: a decode without `stream` starts from a clean state each time.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

class TimedOut extends Error {}
class Closed extends Error {}

/**
 * The real {@link TaxAuthority}: builds the SFS SOAP 1.2 message, signs its Body with
 * WS-Security on every attempt, posts it within the online limit and turns whatever comes back
 * into a typed {@link SfsOutcome} (docs/sfs.md, "Outcomes"). Never throws for anything the network
 * or the server does; a signer that throws does throw.
 */
export class SoapTaxAuthority implements TaxAuthority {
  readonly target: string;
  readonly #url: URL;
  readonly #trust: TrustStore;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #duplicateCodes: readonly number[];
  readonly #transport: SoapTransport;
  readonly #inflight = new Set<AbortController>();
  readonly #certificates = new CertificateCache();

  constructor(options: SoapTaxAuthorityOptions) {
    this.#url = new URL(options.url);
    if (this.#url.protocol !== 'http:' && this.#url.protocol !== 'https:') {
      throw new Error(`--sfs-url must be http: or https:, got ${options.url}`);
    }
    this.target = this.#url.href;
    this.#trust = options.trust;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_ONLINE_LIMIT_MS;
    this.#clock = options.clock ?? systemClock;
    this.#duplicateCodes = options.duplicateCodes ?? [SIM_DUPLICATE_CODE];
    this.#transport = options.transport ?? new HttpSoapTransport(options.http);
  }

  registerReceipt(
    request: SfsReceiptRequest,
    signer: MessageSigner,
    options?: SendOptions,
  ): Promise<SfsOutcome> {
    return this.#attempt(
      'RegisterReceipt',
      receiptRequestBody(request),
      request.header.Uuid,
      signer,
      options,
    );
  }

  registerLocation(
    request: SfsLocationRequest,
    signer: MessageSigner,
    options?: SendOptions,
  ): Promise<SfsOutcome> {
    return this.#attempt(
      'RegisterLocation',
      locationRequestBody(request),
      request.header.Uuid,
      signer,
      options,
    );
  }

  async close(): Promise<void> {
    for (const controller of this.#inflight) controller.abort(new Closed('the SFS client was closed'));
    this.#inflight.clear();
  }

  async #attempt(
    operation: Operation,
    element: string | CanonicalBody,
    requestUuid: string,
    signer: MessageSigner,
    options: SendOptions | undefined,
  ): Promise<SfsOutcome> {
    // Signed first: with `notBefore` (ADR 1109) the signing overlaps what the request waits for.
    const signed = signEnvelope(element, signer);
    const controller = new AbortController();
    this.#inflight.add(controller); // a close() meanwhile stops it before it leaves
    let timer: ReturnType<typeof setTimeout> | undefined;
    let started = performance.now();
    try {
      if (options?.notBefore !== undefined) await options.notBefore;
      started = performance.now();
      const limit = options?.timeoutMs ?? this.#timeoutMs;
      // The limit covers the whole attempt from here: connecting, sending and reading the answer
      // (the signing before it is synchronous, a timer could not cut it short).
      timer = setTimeout(() => controller.abort(new TimedOut(`no answer within ${limit} ms`)), limit);
      if (controller.signal.aborted) throw controller.signal.reason;
      const reply = await this.#transport.post(this.#url, signed, controller.signal);
      return this.#interpret(operation, requestUuid, reply, started);
    } catch (e) {
      const elapsedMs = Math.round(performance.now() - started);
      if (e instanceof ReplyTooLargeError) return { kind: 'invalid-response', reason: e.message };
      if (e instanceof TimedOut) return { kind: 'unreachable', reason: e.message, timedOut: true, elapsedMs };
      if (e instanceof Closed || e instanceof TransportError) {
        return { kind: 'unreachable', reason: e.message, timedOut: false, elapsedMs };
      }
      throw e;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      this.#inflight.delete(controller);
    }
  }

  #interpret(operation: Operation, requestUuid: string, reply: SoapReply, started: number): SfsOutcome {
    // A server error page is the server being unavailable, not an answer (→ offline).
    const notSoap = (reason: string): SfsOutcome =>
      reply.status >= 500
        ? {
            kind: 'unreachable',
            reason: `HTTP ${reply.status}: ${reason}`,
            timedOut: false,
            elapsedMs: Math.round(performance.now() - started),
          }
        : { kind: 'invalid-response', reason: `HTTP ${reply.status}: ${reason}` };
    let text: string;
    try {
      text = UTF8.decode(reply.body);
    } catch {
      return notSoap('the answer is not UTF-8');
    }
    let doc: ReturnType<typeof parseXml>;
    try {
      doc = parseXml(text);
    } catch (e) {
      if (e instanceof XmlParseError) return notSoap(`the answer is not XML (${e.message})`);
      throw e;
    }
    if (!soapBody(doc)) return notSoap('the answer is not a SOAP 1.2 envelope');

    // SFS answers, Faults included, are signed (spec §2.8); nothing unsigned is believed. The
    // answer is parsed once, its certificate read once per certificate (capability 13).
    const verified = verifyEnvelope(doc, { certificates: this.#certificates });
    if (!verified.ok) return { kind: 'unverified', reason: verified.reason };
    const trust = this.#trust.check(verified.certificate, this.#clock.now());
    if (!trust.trusted) return { kind: 'unverified', reason: trust.reason };

    const parsed = readResponseBody(verified.body);
    switch (parsed.kind) {
      case 'invalid':
        return { kind: 'invalid-response', reason: parsed.reason };
      case 'fault':
        if (parsed.code === undefined)
          return { kind: 'invalid-response', reason: `a Fault without EkasaErrorCode: ${parsed.text}` };
        return this.#duplicateCodes.includes(parsed.code)
          ? { kind: 'duplicate', code: parsed.code, text: parsed.text }
          : { kind: 'rejected', code: parsed.code, text: parsed.text };
    }
    if (parsed.kind !== operation)
      return { kind: 'invalid-response', reason: `a ${parsed.kind} answer to ${operation}` };
    if (reply.status !== 200)
      return { kind: 'invalid-response', reason: `HTTP ${reply.status} with a success answer` };
    if (parsed.requestUuid.toLowerCase() !== requestUuid.toLowerCase()) {
      return { kind: 'invalid-response', reason: 'the answer is for another request (RequestUuid)' };
    }
    return {
      kind: 'accepted',
      ...(parsed.kind === 'RegisterReceipt' ? { id: parsed.id } : {}),
      processDate: parsed.processDate,
      requestUuid: parsed.requestUuid,
      responseUuid: parsed.uuid,
      ...(parsed.warning ? { warning: parsed.warning } : {}),
    };
  }
}
