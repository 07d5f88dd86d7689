import { type KasaEvent, type KasaEventsOptions, readEvents } from './event-stream.js';
import { OPERATIONS, type Operations } from './generated/api.js';
import { KasaError } from './kasa-error.js';

/** Operations answered with JSON (all but the event stream). */
export type JsonOperation = {
  [K in keyof Operations]: (typeof OPERATIONS)[K]['stream'] extends true ? never : K;
}[keyof Operations];
export type RequestOf<K extends keyof Operations> = Operations[K]['request'];
export type ResponseOf<K extends keyof Operations> = Operations[K]['response'];
export type ParamsOf<K extends keyof Operations> = Operations[K]['params'];

export interface KasaClientOptions {
  /** Default `http://127.0.0.1:13083` (the API text's address). */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …` when kasa runs with `--token`. */
  token?: string;
  /** Per attempt (default 30 s: longer than kasa's SFS limit plus printing). */
  timeoutMs?: number;
  /** Extra attempts after no answer where repeating is safe (default 2). */
  retries?: number;
  /**
   * How long to keep repeating, where repeating is safe, a request kasa answers 300 BUSY (default
   * 30 s; 0: give up at the first 300). kasa refuses a second writer at once while one holds the
   * register, and a writer holds it through its SFS attempt (the online limit, `--sfs-timeout-ms`,
   * 5 s by default) and its printing (a printer that stops answering: up to 20 s). After a lost
   * answer that writer is often this very sale, and the repeat must outlast it to get its answer.
   * Raise it with kasa's `sfsTimeoutMs` or a paced print (`printDelay`).
   */
  busyWaitMs?: number;
  /** Pause before the first retry, doubled each time up to `maxRetryDelayMs` (default 250 ms). */
  retryDelayMs?: number;
  /** Longest pause between two attempts (default 2 s). */
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
}

export interface CallOptions<P = unknown> {
  /** Path (`{id}`) and query parameters of the operation, e.g. `{ id: 'qr-1', wait: '30' }`. */
  params?: P;
  /**
   * For operations that take an Idempotency-Key (document/store, cash): the key of this logical
   * request. Default: a new random key per call, kept for its retries. Keep your own (e.g. the
   * POS's receipt id) to retry safely across restarts of the POS.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * A typed client for kasa's HTTP API (ADR 0806), following the operations of kasa's OpenAPI
 * document (`src/generated/api.ts`). Every answer that is not `resultCode: 0` is thrown as a
 * {@link KasaError} naming its result code. Requests are repeated only when that cannot do
 * anything twice: operations with an Idempotency-Key (the same key is sent again, so kasa answers
 * the stored document instead of issuing another) and GETs — a few times after no answer, and
 * for up to `busyWaitMs` while kasa answers 300 BUSY.
 */
export class KasaClient {
  readonly baseUrl: string;
  private readonly options: KasaClientOptions;

  constructor(options: KasaClientOptions = {}) {
    this.options = options;
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:13083').replace(/\/+$/, '');
  }

  /** Calls one operation, e.g. `call('POST /api/document/store', {...})`; resolves with its success body. */
  async call<K extends JsonOperation>(
    operation: K,
    ...[body, options]: RequestOf<K> extends undefined
      ? [body?: undefined, options?: CallOptions<ParamsOf<K>>]
      : [body: RequestOf<K>, options?: CallOptions<ParamsOf<K>>]
  ): Promise<ResponseOf<K>> {
    const op = OPERATIONS[operation];
    const path = pathOf(op, options?.params as Record<string, string | undefined> | undefined);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (op.method !== 'GET') headers['content-type'] = 'application/json';
    if (op.idempotent) headers['idempotency-key'] = options?.idempotencyKey ?? crypto.randomUUID();
    const repeatable = op.idempotent || op.method === 'GET';
    const retries = repeatable ? (this.options.retries ?? 2) : 0;
    const busyWaitMs = repeatable ? (this.options.busyWaitMs ?? 30_000) : 0;
    const maxDelay = this.options.maxRetryDelayMs ?? 2_000;
    let delay = Math.min(this.options.retryDelayMs ?? 250, maxDelay);
    let noAnswers = 0;
    let busySince: number | undefined;
    for (;;) {
      try {
        return (await this.once(
          op.method,
          path,
          headers,
          body ?? (op.method === 'GET' ? undefined : {}),
          options?.signal,
        )) as ResponseOf<K>;
      } catch (e) {
        if (!(e instanceof KasaError) || options?.signal?.aborted) throw e;
        let wait: number;
        if (e.noAnswer) {
          noAnswers += 1;
          if (noAnswers > retries) throw e;
          wait = delay;
        } else if (e.is('BUSY')) {
          // A time budget, not a count: the writer ahead may hold the register for seconds.
          busySince ??= Date.now();
          const left = busySince + busyWaitMs - Date.now();
          if (left <= 0) throw e;
          wait = Math.min(delay, left);
        } else throw e;
        await pause(wait, options?.signal);
        if (options?.signal?.aborted) throw e;
        delay = Math.min(delay * 2, maxDelay);
      }
    }
  }

  /**
   * The register's events (`GET /api/events`, Server-Sent Events) as an async iterable. It
   * reconnects by itself with `Last-Event-ID`, so nothing in kasa's window is missed; an
   * `events.lost` event says some were, and the POS should read the state afresh. Stop with
   * `signal` or by breaking out of the loop.
   */
  events(options: KasaEventsOptions = {}): AsyncIterable<KasaEvent> {
    return readEvents(
      {
        url: `${this.baseUrl}${OPERATIONS['GET /api/events'].path}`,
        headers: this.options.token ? { authorization: `Bearer ${this.options.token}` } : {},
        fetch: this.options.fetch ?? fetch,
      },
      options,
    );
  }

  private async once(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (e) {
      throw new KasaError(
        `no answer from kasa at ${this.baseUrl}${path}: ${(e as Error).message}`,
        undefined,
        {
          cause: e,
        },
      );
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch (e) {
      throw new KasaError(`kasa answered HTTP ${res.status} without a JSON body`, undefined, { cause: e });
    }
    const answer = parsed as Record<string, unknown>;
    const resultCode = typeof answer?.resultCode === 'number' ? answer.resultCode : -1;
    if (resultCode === 0 && res.ok) return parsed;
    const text = typeof answer?.error === 'string' ? answer.error : `HTTP ${res.status}`;
    throw new KasaError(`${resultCode}: ${text}`, { resultCode, httpStatus: res.status, body: answer });
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The operation's path with its `{name}` parameters filled in and its query parameters appended. */
function pathOf(
  op: { path: string; pathParams: readonly string[]; queryParams: readonly string[] },
  params: Record<string, string | undefined> | undefined,
): string {
  let path = op.path;
  for (const name of op.pathParams) {
    const value = params?.[name];
    if (value === undefined) throw new KasaError(`${op.path} needs the parameter ${name}`);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const query = new URLSearchParams();
  for (const name of op.queryParams) {
    const value = params?.[name];
    if (value !== undefined) query.set(name, value);
  }
  const q = query.toString();
  return q === '' ? path : `${path}?${q}`;
}
