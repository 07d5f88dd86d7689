import { type IncomingMessage, request } from 'node:http';

/** One Server-Sent Events message as a test sees it. */
export interface SseMessage {
  id?: string;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  messages: SseMessage[];
  comments: string[];
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  /** Waits until a message matches (generous timeout: loaded CI machines). */
  waitFor(match: (m: SseMessage) => boolean, what: string, timeoutMs?: number): Promise<SseMessage>;
  close(): void;
}

/**
 * Opens `url` as an event stream and parses it as it arrives (WHATWG HTML §9.2). node:http with
 * its own connection, not fetch: fetch's pool opens a spare connection after an abort, which would
 * keep the test's server from closing quickly.
 */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const req = request(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const m: { id?: string; event: string; data: string[] } = { event: 'message', data: [] };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) m.id = line.slice(4);
            else if (line.startsWith('event: ')) m.event = line.slice(7);
            else if (line.startsWith('data: ')) m.data.push(line.slice(6));
          }
          if (m.data.length > 0) {
            messages.push({
              ...(m.id ? { id: m.id } : {}),
              event: m.event,
              data: JSON.parse(m.data.join('\n')),
            });
          }
          for (const w of waiters) w();
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.statusCode ?? 0,
    messages,
    comments,
    ended,
    async waitFor(match, what, timeoutMs = 30_000) {
      const found = () => messages.find(match);
      const deadline = Date.now() + timeoutMs;
      while (!found()) {
        if (Date.now() > deadline) {
          throw new Error(
            `no ${what} within ${timeoutMs} ms; got: ${messages.map((x) => x.event).join(', ')}`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.clear();
      }
      return found()!;
    },
    close: () => req.destroy(),
  };
}
