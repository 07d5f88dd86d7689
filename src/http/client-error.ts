import type { Socket } from 'node:net';
import { errorReply, HttpProtocolError } from './error-mapping.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits, MAX_HEADER_BYTES } from './server-limits.js';

interface NodeHttpError extends Error {
  code?: string;
}

/**
 * What Node answers itself, before any route runs (a request line it cannot parse, headers over
 * the size limit, a request that does not arrive in time), as an ErrorResponse like every other
 * answer of kasa (docs/http-api.md). The connection is closed afterwards: after a framing error
 * nothing more on it can be trusted.
 */
export function clientErrorFor(
  error: NodeHttpError,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): HttpProtocolError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpProtocolError(
        408,
        'UNKNOWN',
        `The request did not arrive in time: headers are expected within ${limits.headersTimeoutMs / 1000} s and the whole request within ${limits.requestTimeoutMs / 1000} s.`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return new HttpProtocolError(
        431,
        'INVALID_INPUT',
        `The request headers are larger than ${MAX_HEADER_BYTES / 1024} KiB.`,
        {},
        { field: 'headers' },
      );
    default:
      return new HttpProtocolError(
        400,
        'UNKNOWN',
        `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`,
      );
  }
}

/** The raw HTTP/1.1 response for {@link clientErrorFor}; the socket is closed after it. */
export function clientErrorResponse(error: NodeHttpError, limits?: HttpLimits): string {
  const { status, body } = errorReply(clientErrorFor(error, limits), undefined);
  const json = JSON.stringify(body);
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
    status as 400 | 408 | 431
  ];
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    'Accept-Charset: utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

/**
 * Server `clientError` listener (fastify's `clientErrorHandler`): answers with an ErrorResponse
 * when the socket can still carry one and no answer has started on it, else just closes it.
 */
export function handleClientError(limits: HttpLimits) {
  return (error: NodeHttpError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const responding = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || responding?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error, limits));
  };
}
