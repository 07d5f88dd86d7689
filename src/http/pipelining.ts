import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { HttpProtocolError } from './error-mapping.js';

/**
 * How many requests of one connection may wait for their answers at once (ADR 0427). A POS that
 * sends a request and reads its answer before the next one never has more than one; a client that
 * pipelines may have this many.
 */
export const MAX_UNANSWERED_PER_CONNECTION = 16;

/** What becomes of a request: run it, refuse it (the connection then closes), or drop it unread. */
export type Admission = 'run' | 'drop' | HttpProtocolError;

interface Connection {
  /** Requests read whose answers are not yet handed to the socket (`close` of the response). */
  unanswered: number;
  refused: boolean;
}

/**
 * ADR 0427: bounds what one connection can make kasa hold. Node parses every request of a TCP read
 * at once and dispatches each before any answer is written, so one write of 1,300 pipelined
 * requests ran 1,300 routes and queued 1,300 answers behind a client that reads none. Here the
 * request that finds {@link MAX_UNANSWERED_PER_CONNECTION} others of its connection still
 * unanswered is refused (HTTP 429, `Connection: close`, after the answers before it); kasa stops
 * reading the connection, runs none of the requests already read behind it, and closes it once the
 * refusal is sent — or after `closeAfterMs` when the client does not read.
 */
export class PipeliningBound {
  readonly #connections = new WeakMap<Socket, Connection>();

  constructor(
    private readonly closeAfterMs: number,
    private readonly limit: number = MAX_UNANSWERED_PER_CONNECTION,
  ) {}

  /** Called once per request, synchronously as it arrives (first thing in `onRequest`). */
  admit(request: IncomingMessage, response: ServerResponse): Admission {
    const socket = request.socket;
    let connection = this.#connections.get(socket);
    if (connection === undefined) {
      connection = { unanswered: 0, refused: false };
      this.#connections.set(socket, connection);
    }
    if (connection.refused) return 'drop';
    if (connection.unanswered >= this.limit) {
      connection.refused = true;
      stopReading(socket, this.closeAfterMs);
      return new HttpProtocolError(
        429,
        'UNKNOWN',
        `More than ${this.limit} requests on this connection are waiting for their answers: read the answers before sending more. This request and those sent after it on this connection were not executed; the connection is closed.`,
        { connection: 'close' },
      );
    }
    connection.unanswered += 1;
    const counted = connection;
    response.once('close', () => {
      counted.unanswered -= 1;
    });
    return 'run';
  }
}

/**
 * Nothing more is read from the socket: Node resumes a socket it paused itself when its queued
 * answers shrink, so every resume is undone. Node closes the socket once the `Connection: close`
 * answer is sent; whatever happens, it is destroyed `ms` after the refusal — also when an earlier
 * request of the connection (a long wait) still holds the answers, which are then lost with it.
 */
function stopReading(socket: Socket, ms: number): void {
  socket.pause();
  socket.on('resume', () => socket.pause());
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
