import type { IncomingMessage } from 'node:http';

/** The largest request the simulator reads (a 500-item receipt is far below it). */
export const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  if (body === undefined) throw new SyntaxError('body too large');
  return JSON.parse(body.toString('utf8') || '{}');
}

export function decodeUtf8(raw: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
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
