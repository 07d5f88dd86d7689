import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';

/** What came back over HTTP, unread. */
export interface SoapReply {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

/** The connection failed or ended without a complete answer (→ `unreachable`). */
export class TransportError extends Error {
  override readonly name = 'TransportError';
}

/** The answer was larger than kasa reads (→ `invalid-response`). */
export class ReplyTooLargeError extends Error {
  override readonly name = 'ReplyTooLargeError';
}

export interface SoapTransport {
  /** POSTs one SOAP 1.2 message; rejects with TransportError / ReplyTooLargeError or the signal's reason. */
  post(url: URL, body: string, signal: AbortSignal): Promise<SoapReply>;
}

export interface HttpSoapTransportOptions {
  /** Extra CA certificates (PEM) for HTTPS, e.g. a test server's; the system CAs otherwise. */
  ca?: string | string[];
  maxReplyBytes?: number;
}

/**
 * SOAP 1.2 over HTTP/1.1 or HTTPS with node:http (spec §1.5.1: TLS ≥ 1.1; Node allows ≥ 1.2).
 * One connection per attempt (ADR 0300): no idle socket can go stale between documents, and an
 * aborted attempt takes its socket with it.
 */
export class HttpSoapTransport implements SoapTransport {
  readonly #options: HttpSoapTransportOptions;

  constructor(options: HttpSoapTransportOptions = {}) {
    this.#options = options;
  }

  post(url: URL, body: string, signal: AbortSignal): Promise<SoapReply> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const max = this.#options.maxReplyBytes ?? 2 * 1024 * 1024;
    const payload = Buffer.from(body, 'utf8');
    const options: https.RequestOptions = {
      ...target(url),
      method: 'POST',
      agent: false,
      headers: {
        // SOAP 1.2 HTTP binding; no action parameter: none is published (ADR 0300).
        'content-type': 'application/soap+xml; charset=UTF-8',
        'content-length': payload.length,
        connection: 'close',
      },
      ...(url.protocol === 'https:'
        ? { minVersion: 'TLSv1.2' as const, ...(this.#options.ca ? { ca: this.#options.ca } : {}) }
        : {}),
    };
    const request =
      url.protocol === 'https:' ? https.request : url.protocol === 'http:' ? http.request : undefined;
    if (!request) return Promise.reject(new TransportError(`unsupported URL scheme ${url.protocol}`));
    return new Promise<SoapReply>((resolve, reject) => {
      // The signal ends the attempt wherever it stands (connecting, sending, reading): the request
      // and its socket are destroyed, and the promise rejects with the signal's reason. Watched
      // here rather than through the `signal` option, whose stream plumbing cost more per request
      // than the rest of the request's set-up (capability 13 profile).
      const onAbort = () => req.destroy();
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          signal.removeEventListener('abort', onAbort);
          done(value);
        };
      resolve = settle(resolve);
      reject = settle(reject);
      const req = request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) {
            reject(new ReplyTooLargeError(`the answer exceeds ${max} bytes`));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', (e) => reject(signal.aborted ? signal.reason : new TransportError(e.message)));
        res.on('close', () => {
          if (!res.complete)
            reject(signal.aborted ? signal.reason : new TransportError('the connection closed mid-answer'));
        });
      });
      req.on('error', (e) => reject(signal.aborted ? signal.reason : new TransportError(e.message)));
      signal.addEventListener('abort', onAbort, { once: true });
      req.end(payload);
    });
  }
}

/**
 * Where a URL points, as request options: worked out once per URL object (kasa posts to one), and
 * again if the object was changed in place since (the options are kept with the text they came from).
 */
const targets = new WeakMap<URL, { href: string; options: https.RequestOptions }>();
function target(url: URL): https.RequestOptions {
  let known = targets.get(url);
  if (known?.href !== url.href) {
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
    known = { href: url.href, options: { protocol, hostname, port, path, ...(auth ? { auth } : {}) } };
    targets.set(url, known);
  }
  return known.options;
}
