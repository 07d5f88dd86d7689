import type { IncomingMessage } from 'node:http';

/**
 * The largest request the simulator reads. The largest valid receipt kasa sends (500 items of 255
 * characters that XML escapes six times over, ADR 0121) is about 0.9 MB; the SFS publishes no limit.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The request body, or undefined past {@link MAX_BODY_BYTES} (nothing more is kept then). Read with
 * stream events rather than an async iterator, which costs a promise and its bookkeeping per chunk
 * on every SOAP request (capability 13 profile); a request that fails or is cut off rejects.
 */
export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Nothing more is kept (the rest flows past unread) and the caller answers 413, which
        // closes the connection.
        req.off('data', onData);
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks, size)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the request ended before its body was complete'));
    });
  });
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  if (body === undefined) throw new SyntaxError('body too large');
  return JSON.parse(body.toString('utf8') || '{}');
}

// One decoder for every request: a decode without `stream` starts from a clean state each time.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function decodeUtf8(raw: Buffer): string | undefined {
  try {
    return UTF8.decode(raw);
  } catch {
    return undefined;
  }
}

/** SOAP 1.2 HTTP binding: `application/soap+xml`, charset (when given) UTF-8 (spec §3.1). */
export function isSoap12ContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((part) => part.trim());
  if (type?.toLowerCase() !== 'application/soap+xml') return false;
  const charset = params.find((p) => p.toLowerCase().startsWith('charset='));
  return (
    charset === undefined || charset.slice('charset='.length).replace(/"/g, '').toLowerCase() === 'utf-8'
  );
}
