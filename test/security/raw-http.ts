import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** The status of the first response, undefined when none came. */
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** True when the server closed the connection before `waitMs` ran out. */
  closedByServer: boolean;
  /** Milliseconds from connecting until the server closed, or until the wait ended. */
  elapsedMs: number;
  /** Every byte the server sent. */
  raw: Buffer;
}

/**
 * Sends bytes on a fresh TCP connection exactly as given (no client library normalises the
 * request line, the target or the headers) and collects what comes back until the server closes
 * the connection or `waitMs` passes. `write` may keep writing (slow clients).
 */
export function rawExchange(
  port: number,
  write: (socket: Socket) => void,
  waitMs = 10_000,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => write(socket));
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      resolve({
        ...parseResponse(raw.toString('utf8')),
        closedByServer,
        elapsedMs: Date.now() - started,
        raw,
      });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined); // a reset shows as a close
  });
}

/** One request, `Connection: close`; the answer once the server closes. */
export function rawRequest(port: number, text: string, waitMs?: number): Promise<RawAnswer> {
  return rawExchange(port, (s) => s.write(text), waitMs);
}

/** The complete responses in what a server sent on one connection (each with a Content-Length body). */
export function splitResponses(raw: Buffer): Array<Pick<RawAnswer, 'status' | 'headers' | 'body'>> {
  const out: Array<Pick<RawAnswer, 'status' | 'headers' | 'body'>> = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = parseResponse(`${raw.subarray(at, end).toString('latin1')}\r\n\r\n`);
    const length = Number(head.headers['content-length'] ?? 0);
    if (raw.length < end + 4 + length) break;
    const body = raw.subarray(end + 4, end + 4 + length);
    out.push({ ...head, body: body.toString('utf8') });
    at = end + 4 + length;
  }
  return out;
}

function parseResponse(raw: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/1.1 ') || end < 0) return { status: undefined, headers: {}, body: raw };
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw.slice(end + 4) };
}
