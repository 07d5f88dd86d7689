import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ChduLiteEmulator } from './chdu-lite-emulator.js';
import { FAULT_KINDS, type FaultKind, type FaultSpec, parseFaultSpec } from './chdu-lite-faults.js';

/**
 * The emulator's small control interface (loopback HTTP, JSON):
 * - `GET /state` — target, blocks used, wire options, connections, armed faults, the last 100
 *   commands;
 * - `GET /history` — every command received (last 1000) and the answer given;
 * - `POST /faults` — `{"kind":"hw","afterWrites":2,"count":1}` or `{"spec":"hw:after=2,count=1"}`;
 * - `DELETE /faults` (all) or `DELETE /faults/<kind>`;
 * - `POST /reset` — clears faults and history.
 */
export async function startControlServer(
  emulator: ChduLiteEmulator,
  port: number,
  host = '127.0.0.1',
): Promise<Server> {
  const server = createServer((req, res) => {
    handle(emulator, req, res).catch((e: unknown) => send(res, 400, { error: (e as Error).message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

async function handle(emulator: ChduLiteEmulator, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0]!;
  if (req.method === 'GET' && path === '/state') return send(res, 200, state(emulator));
  if (req.method === 'GET' && path === '/history') return send(res, 200, { history: emulator.history() });
  if (req.method === 'POST' && path === '/faults') {
    const body = JSON.parse((await readBody(req)) || '{}') as Partial<FaultSpec> & { spec?: string };
    const spec = body.spec !== undefined ? parseFaultSpec(body.spec) : toSpec(body);
    emulator.inject(spec);
    return send(res, 200, { faults: emulator.faults.list() });
  }
  if (req.method === 'DELETE' && path === '/faults') {
    emulator.clear();
    return send(res, 200, { faults: [] });
  }
  const one = /^\/faults\/([a-z-]+)$/.exec(path);
  if (req.method === 'DELETE' && one && FAULT_KINDS.includes(one[1] as FaultKind)) {
    emulator.clear(one[1] as FaultKind);
    return send(res, 200, { faults: emulator.faults.list() });
  }
  if (req.method === 'POST' && path === '/reset') {
    emulator.reset();
    return send(res, 200, state(emulator));
  }
  send(res, 404, { error: `no such control path: ${req.method} ${path}` });
}

function toSpec(body: Partial<FaultSpec>): FaultSpec {
  if (!FAULT_KINDS.includes(body.kind as FaultKind))
    throw new Error(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  const spec: FaultSpec = { kind: body.kind as FaultKind };
  for (const key of ['afterWrites', 'afterPrints', 'count'] as const) {
    const v = body[key];
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 0) throw new Error(`${key} must be a whole number`);
    spec[key] = v;
  }
  return spec;
}

function state(emulator: ChduLiteEmulator) {
  return {
    target: emulator.url,
    image: emulator.image.path,
    usedBlocks: emulator.image.usedBlocks,
    wire: emulator.wire,
    connections: emulator.connections,
    faults: emulator.faults.list(),
    history: emulator.history().slice(-100),
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
