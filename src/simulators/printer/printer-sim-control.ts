import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EscPosPrinterSim, PrinterSimState } from './escpos-printer-sim.js';

/**
 * The printer simulator's control interface (loopback HTTP, JSON):
 * - `GET /state` — condition, connections, jobs printed, the open (uncut) job's text;
 * - `POST /state` — change the condition: `{"paper":"out"}`, `{"coverOpen":true}`,
 *   `{"online":false}`, `{"overheated":true}`, `{"reachable":false}`, `{"dropAfterBytes":500}`
 *   (a power cut after 500 more bytes), `{"rowsPerSecond":2000}` (print speed);
 * - `GET /jobs` — every finished job: text, QR codes read back, images, drawer kicks, files;
 * - `GET /drawer` — drawer kicks seen;
 * - `POST /reset` — healthy again, history cleared.
 */
export async function startPrinterControl(
  sim: EscPosPrinterSim,
  port: number,
  host = '127.0.0.1',
): Promise<Server> {
  const server = createServer((req, res) => {
    handle(sim, req, res).catch((e: unknown) => send(res, 400, { error: (e as Error).message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

async function handle(sim: EscPosPrinterSim, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0]!;
  if (req.method === 'GET' && path === '/state') return send(res, 200, state(sim));
  if (req.method === 'POST' && path === '/state') {
    sim.set(parseChange(JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>));
    return send(res, 200, state(sim));
  }
  if (req.method === 'GET' && path === '/jobs') {
    return send(res, 200, {
      jobs: sim.jobs.map(({ bytes, ...job }) => ({ ...job, byteCount: bytes.length })),
    });
  }
  if (req.method === 'GET' && path === '/drawer') return send(res, 200, { drawerKicks: sim.drawerKicks });
  if (req.method === 'POST' && path === '/reset') {
    sim.reset();
    return send(res, 200, state(sim));
  }
  send(res, 404, { error: `no such control path: ${req.method} ${path}` });
}

/** Checks a requested change member by member; anything else is refused (400). */
export function parseChange(body: Record<string, unknown>): Partial<PrinterSimState> {
  const change: Partial<PrinterSimState> = {};
  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'paper':
        if (value !== 'ok' && value !== 'near-end' && value !== 'out')
          throw new Error('paper: ok, near-end or out');
        change.paper = value;
        break;
      case 'coverOpen':
      case 'online':
      case 'overheated':
      case 'reachable':
        if (typeof value !== 'boolean') throw new Error(`${key}: true or false`);
        change[key] = value;
        break;
      case 'dropAfterBytes':
        if (!Number.isInteger(value) || (value as number) < 1)
          throw new Error('dropAfterBytes: a whole number ≥ 1');
        change.dropAfterBytes = value as number;
        break;
      case 'rowsPerSecond':
        if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 1_000_000)
          throw new Error('rowsPerSecond: a whole number from 1 to 1000000');
        change.rowsPerSecond = value as number;
        break;
      default:
        throw new Error(`unknown member "${key}"`);
    }
  }
  return change;
}

function state(sim: EscPosPrinterSim) {
  return {
    target: sim.target,
    charsPerLine: sim.charsPerLine,
    state: sim.state(),
    connections: sim.connections,
    bufferBytes: sim.bufferBytes,
    unprintedBytes: sim.unprinted,
    jobs: sim.jobs.length,
    openJob: sim.openJobText(),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      text += c;
      if (text.length > 65536) reject(new Error('body too large'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
