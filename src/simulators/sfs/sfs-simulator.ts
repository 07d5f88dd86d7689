import { randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeySigner } from '../../adapters/crypto/key-signer.js';
import { openTestCa } from '../../adapters/pki/test-ca.js';
import type { FilledBody } from '../../adapters/tax-authority/body-template.js';
import { CertificateCache } from '../../adapters/tax-authority/certificate-cache.js';
import { NS } from '../../adapters/tax-authority/soap-envelope.js';
import { signEnvelope } from '../../adapters/tax-authority/ws-security.js';
import { type Clock, type IdSource, systemClock } from '../../core/ports/clock.js';
import { type DateRuleContext, defaultDateRules } from '../../core/sfs/date-rules.js';
import { violation } from '../../core/sfs/ekasa-errors.js';
import { formatSfsDateTime } from '../../core/time.js';
import { pageRequestRefusal } from '../page-guard.js';
import { CAREFUL_CHECK_NAMES, type CarefulCheck, type CarefulOptions } from './careful-checks.js';
import { CarefulMemory, type MerchantIdentity } from './careful-memory.js';
import { type Processed, processRequest } from './sfs-processor.js';
import { SfsRegistry } from './sfs-registry.js';
import { faultElement, locationResponseBody, reasonText, receiptResponseBody } from './sfs-response.js';
import { openSigningIdentity, type SigningIdentity, untrustedSigner } from './signing-identity.js';
import { handleControl } from './sim-control.js';
import { type FaultKind, FaultQueue, type SimFault, type SimFaultInput } from './sim-faults.js';
import { describeProcessed, describeUnprocessed, type SimHistoryEntry } from './sim-history.js';
import { decodeUtf8, isSoap12ContentType, readBody } from './sim-http.js';
import { SIM_MEMORY_FILE, SimMemory } from './sim-memory.js';

export type { SimHistoryEntry } from './sim-history.js';

/**
 * The SFS service path: production (SFS spec §4.2) and, as shipping devices use it, integration
 * (Datapac's public OEC.LAN quickstart, GitHub `datapacsro/oec`; SFS spec §4.1 gives it without `/mdu`).
 */
export const SERVICE_PATH = '/mdu/soap/services/v2';
export const WSDL_PATH = `${SERVICE_PATH}/ekasa_v2.wsdl`;
/** Requests kept in the history (`GET /__sim/received`): the newest ones. */
export const SIM_HISTORY_LIMIT = 1000;

/** The retired interface: every request there is -8. */
export const V1_SERVICE_PATH = '/mdu/soap/services/v1';

export interface SfsSimulatorOptions {
  /** The test CA folder (`--ca-dir`): trusted for merchant certificates, issues the signing certificate. */
  caDir: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Writes every request and response here (`--record-dir`). */
  recordDir?: string;
  /**
   * Where the registered receipts, receipt numbers and request Uuids are remembered (SQLite);
   * default `<caDir>/sfs-sim-memory.sqlite`, kept across restarts; `:memory:` for none.
   */
  memoryFile?: string;
  clock?: Clock;
  ids?: IdSource;
  /** Tightens or moves the date rules (system start, 96-hour windows); defaults per spec §2.6. */
  dateRules?: Partial<Omit<DateRuleContext, 'processTime'>>;
  /** Serve HTTPS with this key and certificate (PEM) instead of HTTP. */
  tls?: { key: string; cert: string };
  /** Where operational problems (a failed record write) are reported. */
  log?: (line: string) => void;
  /** The simulator-only checks of a careful server (ADR 0422): all on unless switched off here. */
  careful?: CarefulOptions;
  /**
   * Identification data issued to registers, read on every receipt (check −905). The embedded
   * simulator gets every identity record in kasa's journal: the data the SFS issued to it over
   * time, so a document resent later with the identity of its time passes (ADR 0422).
   */
  issuedIdentities?: () => readonly MerchantIdentity[];
  /** Certificates (DER) issued to a register, read for check −908 (the embedded simulator: kasa's journal). */
  issuedCertificates?: (cashRegisterCode: string) => readonly Buffer[];
  /**
   * Keeps the identities learnt (`/__sim/merchant`, accepted receipts) in this JSON file across
   * restarts (`kasa sfs-sim`: `<ca-dir>/sfs-sim-identities.json`); absent: in memory only.
   */
  identitiesFile?: string;
}

/**
 * The SFS simulator: the eKasa SOAP endpoint on a real socket, as strict as the real server and
 * stricter where the protocol allows (docs/sfs.md lists its rules). Deterministic given its clock
 * and ids, never answers synchronously, records what arrived, injects faults, and is driven either
 * programmatically (tests, the embedded default) or through `/__sim/` (the `kasa sfs-sim` CLI).
 */
export class SfsSimulator {
  readonly #options: SfsSimulatorOptions;
  readonly #server: http.Server | https.Server;
  readonly #caCert: X509Certificate;
  readonly #identity: SigningIdentity;
  readonly #clock: Clock;
  readonly #ids: IdSource;
  readonly #memory: SimMemory;
  readonly #registry: SfsRegistry;
  readonly #faults = new FaultQueue();
  readonly #carefulMemory: CarefulMemory;
  readonly #certificates = new CertificateCache();
  #careful: CarefulOptions;
  #history: SimHistoryEntry[] = [];
  #seq = 0;
  #port = 0;
  #listening = false;
  #offlineTimer: NodeJS.Timeout | undefined;
  #untrusted: KeySigner | undefined;

  private constructor(options: SfsSimulatorOptions) {
    this.#options = options;
    this.#careful = structuredClone(options.careful ?? {});
    this.#clock = options.clock ?? systemClock;
    this.#ids = options.ids ?? { uuid: () => randomUUID() };
    const ca = openTestCa(options.caDir, this.#clock.now());
    // A server remembers what it registered: in a file beside its CA, across restarts (capability 13).
    this.#memory = SimMemory.open(options.memoryFile ?? join(options.caDir, SIM_MEMORY_FILE), (line) =>
      this.#log(line),
    );
    this.#registry = new SfsRegistry(this.#memory);
    // The careful checks' Uuids live there too (flat process memory, nothing forgotten, ADR 1102);
    // the identities learnt in their own small file (ADR 0422).
    try {
      this.#carefulMemory = new CarefulMemory({
        uuids: this.#memory,
        ...(options.identitiesFile === undefined ? {} : { identitiesFile: options.identitiesFile }),
      });
    } catch (e) {
      this.#memory.close(); // an identities file it cannot read: nothing left open
      throw e;
    }
    this.#caCert = new X509Certificate(ca.certPem);
    this.#identity = openSigningIdentity(ca, this.#clock.now());
    if (options.recordDir) mkdirSync(options.recordDir, { recursive: true });
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.#handle(req, res).catch((e: unknown) => {
        this.#log(`sfs-sim: ${e instanceof Error ? e.message : String(e)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end();
      });
    };
    this.#server = options.tls
      ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handler)
      : http.createServer(handler);
  }

  /** Creates the simulator and starts listening (loopback by default, port 0 = any free port). */
  static async start(options: SfsSimulatorOptions): Promise<SfsSimulator> {
    const simulator = new SfsSimulator(options);
    await simulator.#listen(options.port ?? 0);
    return simulator;
  }

  get host(): string {
    return this.#options.host ?? '127.0.0.1';
  }
  get port(): number {
    return this.#port;
  }
  get baseUrl(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `${this.#options.tls ? 'https' : 'http'}://${host}:${this.#port}`;
  }
  /** The SOAP endpoint to give kasa's `--sfs-url`. */
  get url(): string {
    return `${this.baseUrl}${SERVICE_PATH}`;
  }
  /** Where the response-signing certificate was written (ADR 0008 §1). */
  get signingCertPath(): string {
    return this.#identity.certPath;
  }
  get signingCertPem(): string {
    return this.#identity.certPem;
  }
  /** The CA certificate: trusting it trusts the simulator's responses too. */
  get caCertPem(): string {
    return this.#caCert.toString();
  }

  /**
   * How many requests the history keeps; a test that checks every request of a longer run raises
   * it (its run is bounded).
   */
  historyLimit = SIM_HISTORY_LIMIT;

  /** What arrived, oldest first: the last {@link historyLimit} requests. */
  history(): SimHistoryEntry[] {
    return this.#history.map((entry) => ({ ...entry }));
  }

  /** Forgets history, registered documents, pending faults and latency; careful checks as started. */
  reset(): void {
    this.#history = [];
    this.#registry.clear();
    this.#faults.clear();
    this.#carefulMemory.clear();
    this.#careful = structuredClone(this.#options.careful ?? {});
  }

  /** Switches careful checks on (`true`) or off (`false`) from now on (ADR 0422). */
  setCarefulChecks(checks: { [K in CarefulCheck]?: boolean | undefined }): void {
    const given = Object.entries(checks).filter(([, on]) => on !== undefined);
    this.#careful = {
      ...this.#careful,
      checks: { ...this.#careful.checks, ...Object.fromEntries(given) },
    };
  }

  /**
   * Identification data the SFS issued to a register (new IČO / IČ DPH): receipts carrying them are
   * that merchant's (check −905). Forgotten on reset.
   */
  registerMerchantIdentity(identity: MerchantIdentity): void {
    this.#carefulMemory.rememberIdentity(identity);
  }

  /** Every careful check with whether it is on. */
  carefulChecks(): Record<CarefulCheck, boolean> {
    return Object.fromEntries(
      CAREFUL_CHECK_NAMES.map((name) => [name, this.#careful.checks?.[name] !== false]),
    ) as Record<CarefulCheck, boolean>;
  }

  injectFault(fault: SimFaultInput): SimFault {
    const queued = this.#faults.add(fault);
    // Make the throwaway key now: generating it while a request waits would eat the client's limit.
    if (queued.kind === 'untrusted-signature') this.#untrusted ??= untrustedSigner(this.#clock.now());
    return queued;
  }

  setLatency(ms: number, count?: number): void {
    this.#faults.setLatency(ms, count);
  }

  pendingFaults(): ReturnType<FaultQueue['pending']> {
    return this.#faults.pending();
  }

  /** Throws when injected faults were never consumed (a test expected requests that did not come). */
  assertNoPendingFaults(): void {
    const { faults } = this.#faults.pending();
    if (faults.length > 0)
      throw new Error(
        `SFS simulator: ${faults.length} injected fault(s) never used: ${JSON.stringify(faults)}`,
      );
  }

  /** Refuses connections (the listening socket is closed) until {@link goOnline} or for `ms`. */
  async goOffline(ms?: number): Promise<void> {
    clearTimeout(this.#offlineTimer);
    if (this.#listening) {
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#server.closeAllConnections();
      this.#listening = false;
      await closed;
    }
    if (ms !== undefined) {
      this.#offlineTimer = setTimeout(() => {
        this.goOnline().catch((e: unknown) => this.#log(`sfs-sim: cannot listen again: ${String(e)}`));
      }, ms);
      this.#offlineTimer.unref();
    }
  }

  /** Listens again on the same port. */
  async goOnline(): Promise<void> {
    clearTimeout(this.#offlineTimer);
    if (!this.#listening) await this.#listen(this.#port);
  }

  get offline(): boolean {
    return !this.#listening;
  }

  async close(): Promise<void> {
    clearTimeout(this.#offlineTimer);
    if (!this.#listening) {
      this.#memory.close();
      return;
    }
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    this.#listening = false;
    await closed;
    this.#memory.close();
  }

  async #listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, this.host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    this.#listening = true;
  }

  #log(line: string): void {
    this.#options.log?.(line);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // STYLE: simulators never answer synchronously.
    await new Promise((resolve) => setImmediate(resolve));
    const path = new URL(req.url ?? '/', 'http://sim').pathname;
    if (path.startsWith('/__sim/')) {
      const refused = pageRequestRefusal(req.headers);
      if (refused) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(`Forbidden: ${refused}`);
        return;
      }
      return handleControl(this, req, res, path);
    }
    if (path === SERVICE_PATH || path === V1_SERVICE_PATH || path === WSDL_PATH) {
      // Vendors probe reachability with a plain GET and count 405 as "up" (Datapac's public OEC.LAN
      // quickstart, GitHub datapacsro/oec: its eKasa ping response setting is 405).
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('Method Not Allowed');
        return;
      }
      if (path !== WSDL_PATH) return this.#soap(req, res, path);
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
  }

  async #soap(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const seq = ++this.#seq;
    const processTime = this.#clock.now();
    const entry: SimHistoryEntry = {
      seq,
      receivedAt: processTime.toISOString(),
      method: req.method ?? 'POST',
      path,
      latencyMs: 0,
      outcome: 'rejected',
    };
    this.#history.push(entry);
    // What arrived is kept for the newest requests only: a long-running demo register sends
    // documents for months (the registrations themselves are in the memory file).
    if (this.#history.length > this.historyLimit)
      this.#history.splice(0, this.#history.length - this.historyLimit);
    const raw = await readBody(req);
    if (raw === undefined) {
      entry.outcome = 'http-error';
      entry.httpStatus = 413;
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('Payload Too Large');
      return;
    }
    await this.#record(seq, 'request.xml', raw);
    if (!isSoap12ContentType(req.headers['content-type'])) {
      entry.outcome = 'unsupported-media-type';
      entry.httpStatus = 415;
      res
        .writeHead(415, { 'content-type': 'text/plain' })
        .end('Unsupported Media Type: application/soap+xml expected');
      return;
    }

    const { fault, latencyMs } = this.#faults.next();
    entry.latencyMs = latencyMs;
    if (fault) entry.fault = fault.kind;
    // A lost answer is only realistic if the SFS did register the document: `process` says so.
    const processes =
      fault === undefined ? true : 'process' in fault ? fault.process : fault.kind !== 'soap-fault';
    const processed = processes ? this.#process(raw, path, processTime) : undefined;
    if (processed) describeProcessed(entry, processed);
    else describeUnprocessed(entry, raw);

    if (latencyMs > 0) await sleep(latencyMs);
    if (res.destroyed || req.socket.destroyed) return;

    switch (fault?.kind) {
      case 'timeout':
        entry.outcome = 'no-answer';
        return; // never answered; the socket ends when the client gives up or the simulator closes
      case 'drop':
        entry.outcome = 'dropped';
        req.socket.destroy();
        return;
      case 'http-error':
        entry.outcome = 'http-error';
        entry.httpStatus = fault.status;
        res
          .writeHead(fault.status, { 'content-type': 'text/html' })
          .end(`<html><body>${fault.status} Error</body></html>`);
        return;
      case 'garbage': {
        entry.outcome = 'garbage';
        entry.httpStatus = 200;
        const junk = Buffer.concat([Buffer.from('\x00\xffnot xml '), randomBytes(64)]);
        res.writeHead(200, { 'content-type': 'application/soap+xml; charset=UTF-8' }).end(junk);
        await this.#record(seq, 'response.bin', junk);
        return;
      }
    }

    let content: string | FilledBody;
    let status = 200;
    if (fault?.kind === 'soap-fault') {
      entry.outcome = 'rejected';
      entry.code = fault.code;
      entry.detail = 'injected by the simulator';
      content = faultElement(fault.code, fault.text ?? reasonText(fault.code), entry.detail);
      status = 500;
    } else {
      const warning = fault?.kind === 'warning' ? { code: fault.code, text: fault.text } : undefined;
      content = this.#responseContent(processed!, processTime, warning);
      // SOAP 1.2 over HTTP: a Fault travels with a 4xx/5xx status; the simulator uses 500 (ADR 0304).
      if (processed!.kind === 'fault') status = 500;
    }
    const xml = this.#envelope(content, fault?.kind, processTime);
    entry.httpStatus = status;
    res.writeHead(status, { 'content-type': 'application/soap+xml; charset=UTF-8' }).end(xml);
    await this.#record(seq, 'response.xml', xml);
  }

  #responseContent(
    processed: Processed,
    processTime: Date,
    warning: { code: number; text: string } | undefined,
  ): string | FilledBody {
    if (processed.kind === 'fault') {
      const { code, detail } = processed.violation;
      return faultElement(code, reasonText(code), detail);
    }
    const header = {
      uuid: this.#ids.uuid(),
      requestUuid: processed.request.header.Uuid,
      processDate: formatSfsDateTime(processTime),
    };
    return processed.kind === 'receipt'
      ? receiptResponseBody(header, processed.id, warning)
      : locationResponseBody(header, warning);
  }

  /** Signs the response like a request, or spoils it as the injected fault says. */
  #envelope(content: string | FilledBody, fault: FaultKind | undefined, now: Date): string {
    switch (fault) {
      case 'unsigned': {
        const text = typeof content === 'string' ? content : content.template.fill(content.values);
        return `<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope xmlns:soapenv="${NS.soap}"><soapenv:Body>${text}</soapenv:Body></soapenv:Envelope>`;
      }
      case 'untrusted-signature':
        this.#untrusted ??= untrustedSigner(now);
        return signEnvelope(content, this.#untrusted);
      case 'bad-signature':
        return signEnvelope(content, this.#identity.signer).replace(
          /<ds:SignatureValue>(.)/,
          (_m, first: string) => `<ds:SignatureValue>${first === 'A' ? 'B' : 'A'}`,
        );
      default:
        return signEnvelope(content, this.#identity.signer);
    }
  }

  #process(raw: Buffer, path: string, processTime: Date): Processed {
    const xml = decodeUtf8(raw);
    if (xml === undefined) return { kind: 'fault', violation: violation(-2, 'the message is not UTF-8') };
    if (path === V1_SERVICE_PATH)
      return { kind: 'fault', violation: violation(-8, 'interface v1 is no longer supported') };
    const dates = { ...defaultDateRules(processTime), ...this.#options.dateRules, processTime };
    // One commit for what an accepted request records (receipt, number, Uuid): ADR 1106.
    return this.#memory.transaction(() => this.#processInMemory(xml, processTime, dates));
  }

  #processInMemory(xml: string, processTime: Date, dates: DateRuleContext): Processed {
    return processRequest(xml, {
      ca: this.#caCert,
      dates,
      registry: this.#registry,
      certificates: this.#certificates,
      careful: {
        options: this.#careful,
        memory: this.#carefulMemory,
        processTime,
        futureToleranceMs: dates.futureToleranceMs,
        ...(this.#options.issuedIdentities ? { issuedIdentities: this.#options.issuedIdentities } : {}),
        ...(this.#options.issuedCertificates ? { issuedCertificates: this.#options.issuedCertificates } : {}),
      },
      newReceiptId: () => `O-${this.#ids.uuid().replace(/-/g, '').toUpperCase()}`,
    });
  }

  async #record(seq: number, suffix: string, data: Buffer | string): Promise<void> {
    if (!this.#options.recordDir) return;
    try {
      await writeFile(join(this.#options.recordDir, `${String(seq).padStart(6, '0')}-${suffix}`), data);
    } catch (e) {
      this.#log(`sfs-sim: cannot record ${suffix}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
