import http from 'node:http';

export interface JsonAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read freely by the bench
  body: any;
  bytes: number;
}

/**
 * A POS-like HTTP client: one keep-alive connection, one request at a time, JSON in and out, as a
 * cash register talks to kasa. The time of a call is measured around `post` by the caller.
 */
export class JsonClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly baseUrl: string) {}

  post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
    return this.request('POST', path, Buffer.from(JSON.stringify(body)), headers);
  }

  get(path: string): Promise<JsonAnswer> {
    return this.request('GET', path, undefined, {});
  }

  close(): void {
    this.agent.destroy();
  }

  private request(
    method: string,
    path: string,
    data: Buffer | undefined,
    headers: Record<string, string>,
  ): Promise<JsonAnswer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          headers: data
            ? { 'content-type': 'application/json', 'content-length': data.length, ...headers }
            : headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), bytes: text.length });
            } catch {
              reject(new Error(`${method} ${path}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 200)}`));
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  }
}

/**
 * Posts until the server gives an answer `accept` takes (a refused connection while it starts, or
 * an answer not accepted, is tried again 5 ms later), within `timeoutMs`; throws after that.
 */
export async function firstAnswer(
  baseUrl: string,
  path: string,
  body: unknown,
  timeoutMs: number,
  accept: (answer: JsonAnswer) => boolean = () => true,
): Promise<JsonAnswer> {
  const until = Date.now() + timeoutMs;
  let last: JsonAnswer | undefined;
  for (;;) {
    const client = new JsonClient(baseUrl);
    try {
      last = await client.post(path, body);
      if (accept(last)) return last;
    } catch (e) {
      if (Date.now() > until) throw e;
    } finally {
      client.close();
    }
    if (Date.now() > until) {
      throw new Error(
        `no accepted answer to ${path} within ${timeoutMs} ms; the last was ${JSON.stringify(last?.body).slice(0, 300)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}
