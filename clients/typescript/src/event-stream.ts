import type { KasaEventType } from './generated/api.js';
import { KasaError } from './kasa-error.js';

/** One event of `GET /api/events`. */
export interface KasaEvent {
  /** Opaque; what `Last-Event-ID` resumes after. `events.lost` has none. */
  id?: string;
  type: KasaEventType;
  /** When kasa published it (ISO 8601 UTC). */
  at: string;
  data: Record<string, unknown>;
}

export interface KasaEventsOptions {
  /** Resume after this event (e.g. the last one the POS handled before it restarted). */
  lastEventId?: string;
  /** Reconnect after the stream drops (default true). */
  reconnect?: boolean;
  /** Wait before reconnecting when kasa has not said (`retry:`), default 2 s. */
  retryMs?: number;
  signal?: AbortSignal;
  /** Called each time the stream is (re)connected: events published from then on will arrive. */
  onOpen?: () => void;
}

interface Target {
  url: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

/**
 * Reads a Server-Sent Events stream (WHATWG HTML §9.2: `id`, `event`, `data`, `retry`, comment
 * lines) and reconnects with `Last-Event-ID` after a drop. An answer that is not a stream (401,
 * 300 …) ends the iteration with a {@link KasaError}; a refused connection is retried.
 */
export async function* readEvents(target: Target, options: KasaEventsOptions): AsyncGenerator<KasaEvent> {
  let lastId = options.lastEventId;
  let retryMs = options.retryMs ?? 2000;
  for (;;) {
    if (options.signal?.aborted) return;
    let res: Response | undefined;
    try {
      res = await target.fetch(target.url, {
        headers: {
          accept: 'text/event-stream',
          ...target.headers,
          ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
        },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (e) {
      if (options.signal?.aborted) return;
      if (options.reconnect === false)
        throw new KasaError(`no event stream: ${(e as Error).message}`, undefined, { cause: e });
    }
    if (res && !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      const resultCode = typeof body.resultCode === 'number' ? body.resultCode : -1;
      throw new KasaError(`${resultCode}: ${String(body.error ?? `HTTP ${res.status}`)}`, {
        resultCode,
        httpStatus: res.status,
        body,
      });
    }
    if (res?.body) {
      options.onOpen?.();
      try {
        for await (const frame of frames(res.body)) {
          if (frame.retry !== undefined) retryMs = frame.retry;
          if (frame.data === undefined) continue;
          const payload = JSON.parse(frame.data) as Omit<KasaEvent, 'id'> & { id?: string };
          if (frame.id !== undefined) lastId = frame.id;
          yield { ...payload, ...(frame.id === undefined ? {} : { id: frame.id }) };
        }
      } catch (e) {
        if (options.signal?.aborted) return;
        if (options.reconnect === false)
          throw new KasaError(`event stream broke: ${(e as Error).message}`, undefined, { cause: e });
      }
    }
    if (options.reconnect === false || options.signal?.aborted) return;
    await new Promise((r) => setTimeout(r, retryMs));
  }
}

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const decoder = new TextDecoder();
  let buffer = '';
  let frame: Frame = {};
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let nl = buffer.search(/\r\n|\r|\n/);
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(buffer[nl] === '\r' && buffer[nl + 1] === '\n' ? nl + 2 : nl + 1);
        if (line === '') {
          if (frame.data !== undefined || frame.retry !== undefined) yield frame;
          frame = {};
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
          else if (field === 'id') frame.id = value;
          else if (field === 'event') frame.event = value;
          else if (field === 'retry' && /^\d+$/.test(value)) frame.retry = Number(value);
        }
        nl = buffer.search(/\r\n|\r|\n/);
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}
