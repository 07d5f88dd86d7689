import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body the simulator reads (NOP bodies are a few hundred bytes). */
const MAX_BODY = 16 * 1024;

/** The body, or undefined when it is larger than the simulator accepts. */
export async function readSmallBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** JSON answer; errors in NOP's v0.3 form `{code, title, detail}` (research §2.3). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const TITLES: Record<number, [string, string]> = {
  400: ['INVALID_PAYLOAD', 'Bad Request'],
  401: ['MTLS_REQUIRED', 'Unauthorized'],
  403: ['FORBIDDEN', 'Forbidden'],
  404: ['NOT_FOUND', 'Not Found'],
  405: ['METHOD_NOT_ALLOWED', 'Method Not Allowed'],
  409: ['CONFLICT', 'Duplicate'],
  413: ['INVALID_PAYLOAD', 'Payload Too Large'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type'],
  422: ['VALIDATION_ERROR', 'Unprocessable Entity'],
  429: ['RATE_LIMITED', 'Too Many Requests'],
  503: ['INTERNAL_ERROR', 'Service Unavailable'],
};

export function sendError(
  res: ServerResponse,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): void {
  const [code, title] = TITLES[status] ?? ['INTERNAL_ERROR', 'Error'];
  sendJson(res, status, { code, title, detail }, headers);
}

/** ISO-8601 UTC with `Z` (seconds, optional fraction). */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
