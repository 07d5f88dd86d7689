import type { IncomingHttpHeaders } from 'node:http';
import { HttpProtocolError } from './error-mapping.js';
import { tokenMatches } from './token.js';

/**
 * The rules every request meets before a route sees it (docs/security.md, ADR 0600, ADR 0601), in
 * this order: a canonical request target, an accepted Host, no other site's page behind it, the
 * token, and a JSON Content-Type on a body. Each broken rule is an {@link HttpProtocolError}; the
 * body has not been read when they run.
 */
export interface RequestRules {
  /** Lower-case names accepted in the Host header (loopback names plus those compose allows). */
  allowedHosts: ReadonlySet<string>;
  /** Bearer token required on /api/ and on the API docs (/docs*) when set. */
  token?: string | undefined;
}

export interface RequestFacts {
  method: string;
  /** `1.1`, `1.0`. */
  httpVersion: string;
  /** The request target exactly as it came on the request line. */
  rawUrl: string;
  /** The route the router matched (its declared path), undefined when none matched. */
  routedPath: string | undefined;
  headers: IncomingHttpHeaders;
  /** The header lines as sent, name and value alternating (Node's `rawHeaders`). */
  rawHeaders: readonly string[];
}

/**
 * RFC 3986 `pchar` without percent-encoding, plus `/`: every path kasa serves is spelled with
 * these alone. A target outside this set is refused rather than decoded, so the path the rules
 * read and the path the router matches are the same string (ADR 0600).
 */
const CANONICAL_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

/** The path part of a request target (before `?`). */
export const pathOf = (url: string): string => url.split('?', 1)[0]!;

export const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

/** The API docs (Swagger UI at /docs and the OpenAPI document it serves at /docs/json, /docs/yaml). */
export const isDocsPath = (path: string): boolean => /^\/docs(\/|$)/.test(path);

/** The first rule the request breaks, or undefined. */
export function requestRefusal(rules: RequestRules, request: RequestFacts): HttpProtocolError | undefined {
  const target = targetRefusal(request.rawUrl);
  if (target) return target;
  if (hostLines(request.rawHeaders) > 1) {
    // RFC 9112 §3.2: more than one Host line is a 400. Node keeps the first for `headers.host`, so
    // `Host: 127.0.0.1` then `Host: evil.com` passed the Host check below.
    return new HttpProtocolError(
      400,
      'UNKNOWN',
      'The Host header is sent more than once: a request names one host.',
      {},
      { field: 'Host' },
    );
  }
  // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400 (Node's own answer would not be JSON).
  // HTTP/1.0 has no Host requirement; such a request cannot come from a browser (every browser
  // sends Host), so it is no way around the DNS-rebinding check (ADR 0427).
  if (request.headers.host === undefined && request.httpVersion !== '1.0') {
    return new HttpProtocolError(400, 'UNKNOWN', 'The Host header is missing.', {}, { field: 'Host' });
  }
  const host = hostRefusal(request.headers.host, rules.allowedHosts);
  if (host) return host;
  // After the target check the raw path is the decoded one; the routed path is preferred anyway.
  const path = request.routedPath ?? pathOf(request.rawUrl);
  if (isApiPath(path)) {
    const site = crossSiteRefusal(request.headers);
    if (site) return site;
  }
  // The API docs serve the same OpenAPI document as /api/openapi.json, so they need the token too
  // (docs/security.md); the admin page is only a login form until the token is typed in.
  if ((isApiPath(path) || isDocsPath(path)) && rules.token !== undefined) {
    if (!tokenMatches(request.headers.authorization, rules.token)) {
      return new HttpProtocolError(
        401,
        'UNKNOWN',
        'Missing or wrong token: send Authorization: Bearer <token>.',
        { 'www-authenticate': 'Bearer realm="kasa"' },
      );
    }
  }
  return contentTypeRefusal(request.headers);
}

function hostLines(rawHeaders: readonly string[]): number {
  let lines = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') lines += 1;
  return lines;
}

/** ADR 0600: origin-form targets spelled without percent-encoding only. */
export function targetRefusal(rawUrl: string): HttpProtocolError | undefined {
  if (CANONICAL_PATH.test(pathOf(rawUrl))) return undefined;
  return new HttpProtocolError(
    400,
    'INVALID_INPUT',
    'The request path must be spelled plainly, e.g. /api/document/store: no percent-encoding (%), no fragment (#), no absolute URL.',
    {},
    { field: 'path' },
  );
}

/**
 * RFC 9110 §7.2 / RFC 3986 §3.2.2: `Host` is one host — a bracketed IPv6 address, or a name or
 * IPv4 address — and an optional numeric port. Anything else (a list, a user part, spaces) is
 * malformed: reading a name out of it leniently let `127.0.0.1:1, evil.com` pass.
 */
const HOST_HEADER = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._~-]+))(?::(\d{1,5}))?$/;

/** The lower-case host name of a well-formed Host header, else undefined. */
function hostName(hostHeader: string): string | undefined {
  const m = HOST_HEADER.exec(hostHeader);
  if (!m || (m[3] !== undefined && Number(m[3]) > 65_535)) return undefined;
  return (m[1] ?? m[2])!.toLowerCase();
}

/**
 * DNS rebinding: a page on a foreign name must not drive the register through a browser (421). A
 * Host that is not one host and an optional port is a 400 (RFC 9112 §3.2), naming the header.
 */
export function hostRefusal(
  hostHeader: string | undefined,
  allowed: ReadonlySet<string>,
): HttpProtocolError | undefined {
  if (hostHeader === undefined) return undefined;
  const name = hostName(hostHeader);
  const shown = JSON.stringify(hostHeader.slice(0, 100));
  if (name === undefined) {
    return new HttpProtocolError(
      400,
      'UNKNOWN',
      `The Host header ${shown} is malformed: it must be one host and an optional port, e.g. 127.0.0.1:13083.`,
      {},
      { field: 'Host' },
    );
  }
  if (allowed.has(name)) return undefined;
  return new HttpProtocolError(421, 'UNKNOWN', `Host ${shown} is not accepted; use 127.0.0.1 or localhost.`);
}

/**
 * ADR 0601: a browser names the page a request comes from. Only the register's own pages (the
 * admin page, same origin) may use the API from a browser; a client that is not a browser sends
 * neither header and is not affected.
 */
export function crossSiteRefusal(headers: IncomingHttpHeaders): HttpProtocolError | undefined {
  const fetchSite = single(headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    return crossSite(`Sec-Fetch-Site: ${fetchSite}`);
  }
  const origin = single(headers.origin);
  if (origin !== undefined && !sameOrigin(origin, single(headers.host))) {
    return crossSite(`Origin: ${origin}`);
  }
  return undefined;
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const from = new URL(origin);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return false;
    if (from.origin !== origin.toLowerCase().replace(/\/$/, '')) return false; // no path, user…
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false; // `null` (sandboxed page, file://) and anything unparsable
  }
}

function crossSite(shown: string): HttpProtocolError {
  return new HttpProtocolError(
    403,
    'UNKNOWN',
    `A request from another site's page is refused (${shown}): in a browser, only the register's own admin page may use the API.`,
    {},
    { field: 'Origin' },
  );
}

/**
 * API text: a request with a body says `Content-Type: application/json`; anything else is refused
 * before the body is read (a cross-site form or `no-cors` fetch can only send text/plain, form or
 * multipart bodies, so this also keeps other sites' pages out).
 */
export function contentTypeRefusal(headers: IncomingHttpHeaders): HttpProtocolError | undefined {
  if (!hasBody(headers)) return undefined;
  const type = headers['content-type'];
  if (type !== undefined && isJsonUtf8(type)) return undefined;
  const got = type === undefined ? 'none' : `"${type.slice(0, 100)}"`;
  return new HttpProtocolError(
    415,
    'INVALID_INPUT',
    `Content-Type: a request with a body must say Content-Type: application/json (UTF-8); got ${got}. The body was not read.`,
    {},
    { field: 'Content-Type' },
  );
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

function isJsonUtf8(contentType: string): boolean {
  const [mediaType, ...parameters] = contentType.split(';');
  if (mediaType!.trim().toLowerCase() !== 'application/json') return false;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=', 2).map((s) => s.trim().toLowerCase());
    if (name === 'charset' && !['utf-8', 'utf8', '"utf-8"', '"utf8"'].includes(value ?? '')) return false;
  }
  return true;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
