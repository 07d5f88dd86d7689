import { FiscalError } from '../core/fiscal-error.js';
import { RESULT_CODES } from '../core/result-codes.js';

/**
 * THE place where result codes become HTTP statuses (capability 2: "HTTP status mapping lives in
 * exactly one place"). 200 for success; 404 for 505, 506 and 803; 500 for every other failure; and the
 * two exceptions the API text names for single routes.
 */
const BY_CODE: Readonly<Record<number, number>> = {
  [RESULT_CODES.OK.code]: 200,
  [RESULT_CODES.NOTHING_TO_PRINT.code]: 404,
  [RESULT_CODES.NOT_FOUND.code]: 404,
  // Extension (ADR 0900): an unknown QR payment id is a missing resource like an unknown document.
  [RESULT_CODES.QR_PAYMENT_NOT_FOUND.code]: 404,
};

const ROUTE_EXCEPTIONS: Readonly<Record<string, Readonly<Record<number, number>>>> = {
  // API text: a lookup that finds nothing answers 506 with HTTP 200.
  'POST /api/document/get': { [RESULT_CODES.NOT_FOUND.code]: 200 },
  // API text: stored and registered but not printed is a 200 carrying the document.
  'POST /api/document/store': { [RESULT_CODES.DOCUMENT_NOT_PRINTED.code]: 200 },
  // ADR 0119: a cash retry answers as a store retry does (507 carrying `cash`, HTTP 200).
  'POST /api/cash': { [RESULT_CODES.DOCUMENT_NOT_PRINTED.code]: 200 },
};

/** Every route exception as `{route, resultCode, status}`, for the documents that state the rule. */
export function routeExceptions(): ReadonlyArray<{ route: string; resultCode: number; status: number }> {
  return Object.entries(ROUTE_EXCEPTIONS).flatMap(([route, byCode]) =>
    Object.entries(byCode).map(([code, status]) => ({ route, resultCode: Number(code), status })),
  );
}

export function httpStatusFor(resultCode: number, route?: string): number {
  const exception = route === undefined ? undefined : ROUTE_EXCEPTIONS[route]?.[resultCode];
  return exception ?? BY_CODE[resultCode] ?? 500;
}

/**
 * The statuses of failures of the HTTP protocol itself, whose status is not derived from a result
 * code (docs/http-api.md, docs/security.md): 400 request target not spelled plainly, 401
 * missing/wrong token, 403 another site's page, 404 unknown path, 405 wrong method, 408 request not
 * received in time, 413 body too large, 415 body without a JSON Content-Type, 421 foreign Host
 * header, 429 too many requests of one connection waiting for their answers, 431 headers too
 * large. Any /api/ route may answer them: the OpenAPI document lists them on every route (ADR 0010).
 */
export const PROTOCOL_STATUSES = [400, 401, 403, 404, 405, 408, 413, 415, 421, 429, 431] as const;

/** A failure of the HTTP protocol itself (see {@link PROTOCOL_STATUSES}). */
export class HttpProtocolError extends FiscalError {
  readonly httpStatus: (typeof PROTOCOL_STATUSES)[number];
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    httpStatus: HttpProtocolError['httpStatus'],
    name: 'UNKNOWN' | 'INVALID_INPUT',
    message: string,
    headers: Record<string, string> = {},
    details?: Record<string, unknown>,
  ) {
    super(name, message, details);
    this.httpStatus = httpStatus;
    this.headers = headers;
  }
}

export interface ErrorReply {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: Record<string, unknown>;
}

/** What the app knows of the route that failed, for the sentences that name its limits. */
export interface RouteFacts {
  /** The route's own body limit in bytes (fastify's `routeOptions.bodyLimit`). */
  bodyLimit?: number | undefined;
}

/** ErrorResponse `{resultCode, error, errorMessage, ...details}` for any thrown value. */
export function errorReply(error: unknown, route: string | undefined, facts: RouteFacts = {}): ErrorReply {
  const fiscal = toFiscalError(error, facts);
  const body: Record<string, unknown> = {
    ...(fiscal.details ?? {}),
    resultCode: fiscal.resultCode,
    error: fiscal.message,
    errorMessage: fiscal.message,
  };
  if (fiscal instanceof HttpProtocolError) {
    return { status: fiscal.httpStatus, headers: fiscal.headers, body };
  }
  return { status: httpStatusFor(fiscal.resultCode, route), headers: {}, body };
}

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

/** Turns framework and unexpected errors into FiscalErrors; FiscalErrors pass unchanged. */
export function toFiscalError(error: unknown, facts: RouteFacts = {}): FiscalError {
  if (error instanceof FiscalError) return error;
  const e = (error ?? {}) as FastifyLikeError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // The limit is the route's own (1 MiB, 10 MiB on image routes): a POS that shrinks a logo
      // needs the number, not only the refusal.
      return new HttpProtocolError(
        413,
        'INVALID_INPUT',
        facts.bodyLimit === undefined
          ? 'body: is larger than this endpoint accepts'
          : `body: must be at most ${facts.bodyLimit} bytes on this endpoint`,
        {},
        { field: 'body' },
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // The Content-Type rule (request-rules.ts) refuses these first; kept as a second net.
      return new HttpProtocolError(
        415,
        'INVALID_INPUT',
        'Content-Type: a request with a body must say Content-Type: application/json.',
        {},
        { field: 'Content-Type' },
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new FiscalError('MALFORMED_INPUT', 'The request body is not valid JSON.');
    default:
      break;
  }
  // A plugin refusing a path (the API docs' static files refuse `//` with 403) is the client's
  // error, not an internal one.
  if (e.statusCode === 404 || e.statusCode === 403)
    return new HttpProtocolError(404, 'UNKNOWN', 'Not found.');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return new HttpProtocolError(400, 'UNKNOWN', 'The request cannot be served.');
  }
  return new FiscalError(
    'UNKNOWN',
    'An unexpected internal error occurred; see the service log.',
    undefined,
    {
      cause: error,
    },
  );
}
