import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { FiscalError } from '../../core/fiscal-error.js';
import {
  REGISTER_EVENT_TYPES,
  type RegisterEvent,
  type RegisterEventFeed,
} from '../../core/ports/register-events.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';

export interface EventStreamOptions {
  feed: RegisterEventFeed;
  /** Most streams open at once; one more is refused with 300 (default 16). */
  maxClients?: number;
  /** A comment line this often keeps proxies and idle timeouts from closing a quiet stream (default 15 s). */
  heartbeatMs?: number;
  /** A client that lets this much pile up unread is dropped (default 1 MiB). */
  maxBufferedBytes?: number;
}

const EXAMPLE = [
  'retry: 2000',
  '',
  'id: 3f9a01c2-17',
  'event: document.registered',
  'data: {"id":"3f9a01c2-17","type":"document.registered","at":"2026-03-02T09:15:31.204Z","data":{"internalDocumentId":41,"documentNumber":"202603/41","type":"PD","uuid":"O-7DBC…","sendingCount":1,"recordNo":118}}',
  '',
  ': heartbeat',
  '',
].join('\n');

const Query = z.looseObject({
  lastEventId: z
    .string()
    .max(64)
    .optional()
    .describe('Same as the Last-Event-ID header, for clients that cannot set headers on the first connect.'),
});

const Headers = z.looseObject({
  'last-event-id': z
    .string()
    .max(64)
    .optional()
    .describe('The id of the last event received: the stream starts with the events after it.'),
});

/**
 * `GET /api/events`: Server-Sent Events for the POS (capability 14, ADR 0805). An extension to the API
 * text (ADR 0008 §18), under the same rules as every /api/ path (token, host, origin), answered
 * while the register cannot work too — that is when a POS needs to know.
 */
export function eventRoutes(options: EventStreamOptions): RoutePlugin {
  const maxClients = options.maxClients ?? 16;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
  const open = new Set<ServerResponse>();
  return (app) => {
    app.addHook('preClose', async () => {
      for (const res of open) res.end();
      open.clear();
    });
    app.get(
      '/api/events',
      {
        config: { availability: 'always' },
        schema: {
          tags: ['events'],
          // ADR 0008 §18: extensions to the API text are marked as such in the OpenAPI document.
          'x-kasa-extension': true,
          // The event names, for generated clients (clients/typescript, ADR 0806).
          'x-kasa-event-types': [...REGISTER_EVENT_TYPES, 'events.lost'],
          summary:
            'Server-Sent Events: documents stored, registered, offline, rejected; state changes (extension)',
          description: [
            'Extension to the API v1.7 text (kasa): a `text/event-stream` of register events, so a POS need not poll.',
            `Every event has an \`id\`; reconnect with \`Last-Event-ID\` to get the events missed, from the last ${options.feed.window} kept.`,
            'When some are no longer kept (or kasa restarted), the stream starts with an `events.lost` event: read the state from `GET /api/status/get`.',
            `Event types: ${REGISTER_EVENT_TYPES.join(', ')}. A \`: heartbeat\` comment every ${heartbeatMs / 1000} s.`,
            `At most ${maxClients} streams at once; one more is refused with resultCode 300.`,
          ].join(' '),
          headers: Headers,
          querystring: Query,
          response: {
            200: {
              description: 'The event stream.',
              content: {
                'text/event-stream': {
                  schema: z
                    .string()
                    .describe('Server-Sent Events')
                    .meta({ examples: [EXAMPLE] }),
                },
              },
            },
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        if (open.size >= maxClients) {
          throw new FiscalError(
            'BUSY',
            `Too many event streams are open (${maxClients}); close one, or poll GET /api/status/get.`,
          );
        }
        const lastId = request.headers['last-event-id'] ?? request.query.lastEventId;
        const { events, complete } = options.feed.since(typeof lastId === 'string' ? lastId : undefined);
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
          'x-request-id': request.id,
        });
        open.add(res);
        const send = (text: string): void => {
          if (res.destroyed || res.writableEnded) return;
          res.write(text);
          // A client that stopped reading costs at most maxBuffered bytes, then it is dropped.
          if (res.writableLength > maxBuffered) res.destroy();
        };
        // SSE (WHATWG HTML §9.2): the client waits `retry` ms before it reconnects.
        send('retry: 2000\n\n');
        if (!complete) {
          const data = { lastEventId: lastId ?? null, window: options.feed.window };
          send(frame('events.lost', undefined, { type: 'events.lost', at: new Date().toISOString(), data }));
        }
        for (const e of events) send(eventFrame(e));
        const unsubscribe = options.feed.subscribe((e) => send(eventFrame(e)));
        const heartbeat = setInterval(() => send(': heartbeat\n\n'), heartbeatMs);
        heartbeat.unref();
        res.once('close', () => {
          clearInterval(heartbeat);
          unsubscribe();
          open.delete(res);
        });
      },
    );
  };
}

function eventFrame(e: RegisterEvent): string {
  return frame(e.type, e.id, { id: e.id, type: e.type, at: e.at, data: e.data });
}

function frame(type: string, id: string | undefined, payload: unknown): string {
  // JSON never contains a raw newline, so the data fits one `data:` line.
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`;
}
