import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { storeBody } from './lib/bodies.js';
import { ensureFreshBuild, startServe } from './lib/serve-process.js';

/**
 * ADR 0427: what pipelined requests whose answers are never read cost `kasa serve`. Starts it on a
 * fresh data dir (loopback), stores one document, then opens `--connections` sockets that each write
 * `--requests` pipelined `GET <path>` at once and never read; meanwhile asks `GET /api/status/get`
 * on its own connection every 100 ms. Prints the resident memory the flood added (peak − before),
 * the slowest status answer, and what the flooding connections then read in 2 s (the answers kasa
 * had queued for them, and whether it closes them). Bounded: the flood lasts `--seconds`
 * (default 6), the reading 2 s, then the sockets are dropped.
 *
 *   npx tsx bench/pipelining-flood.ts --connections 4 --requests 3000 --path /api/openapi.json
 *   npx tsx bench/pipelining-flood.ts --requests 3000 --batch 10 --gap-ms 20
 */
const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '1' },
    requests: { type: 'string', default: '1300' },
    path: { type: 'string', default: '/api/openapi.json' },
    seconds: { type: 'string', default: '6' },
    // Instead of all at once: `--batch` requests every `--gap-ms` until `--requests` are written
    // (a client that trickles its requests in, so that Node's own pause can act between them).
    batch: { type: 'string' },
    'gap-ms': { type: 'string', default: '20' },
    // First, a POS-like client: this many `GET /api/status/get` on one keep-alive connection, each
    // sent once the previous answer is read.
    keepalive: { type: 'string', default: '3000' },
  },
});
const connections = Number(values.connections);
const requests = Number(values.requests);
const seconds = Number(values.seconds);

ensureFreshBuild((line) => console.log(line));
const dataDir = mkdtempSync(join(tmpdir(), 'kasa-flood-'));
const serve = await startServe(dataDir);
try {
  const store = await fetch(`${serve.url}/api/document/store`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(storeBody()),
  });
  if (((await store.json()) as { resultCode: number }).resultCode !== 0)
    throw new Error('the document was not stored');
  // Warm both paths once, so the first answer's one-time work is not counted as the flood's.
  for (const path of [values.path, '/api/status/get'])
    await (await fetch(`${serve.url}${path}`)).arrayBuffer();
  const port = Number(new URL(serve.url).port);
  const pos = await oneAtATime(port, Number(values.keepalive));
  await new Promise((r) => setTimeout(r, 500));
  const before = serve.rss().rssMB;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, serve.rss().rssMB);
  }, 50);

  const one = `GET ${values.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  const batch = values.batch === undefined ? requests : Number(values.batch);
  const writeAll = (socket: Socket, left: number): void => {
    if (left <= 0 || socket.destroyed) return;
    socket.write(one.repeat(Math.min(batch, left)));
    if (left > batch) setTimeout(() => writeAll(socket, left - batch), Number(values['gap-ms']));
  };
  const started = Date.now();
  const sockets: Array<{ socket: Socket; seen: Map<number, number>; closed: boolean }> = [];
  for (let i = 0; i < connections; i++) {
    const socket = connect(port, '127.0.0.1', () => writeAll(socket, requests));
    socket.pause(); // never read an answer (until the end, below)
    const flood = { socket, seen: countStatuses(socket), closed: false };
    socket.on('error', () => undefined);
    socket.on('close', () => {
      flood.closed = true;
    });
    sockets.push(flood);
  }

  const statusMs: number[] = [];
  const deadline = started + seconds * 1000;
  while (Date.now() < deadline) {
    const t0 = performance.now();
    const res = await fetch(`${serve.url}/api/status/get`);
    await res.arrayBuffer();
    statusMs.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Then the flooding clients read for 2 s: what had kasa queued for them, and does it close them?
  for (const { socket } of sockets) socket.resume();
  await new Promise((r) => setTimeout(r, 2000));
  const read = sockets.map(
    ({ seen, closed }) =>
      `${[...seen].map(([status, n]) => `${n} × ${status}`).join(', ') || 'nothing'}${closed ? ', then closed by kasa' : ', still open'}`,
  );
  clearInterval(sampler);
  for (const { socket } of sockets) socket.destroy();
  await new Promise((r) => setTimeout(r, 1000));
  const after = serve.rss().rssMB;

  console.log(
    [
      `keep-alive client, one request at a time: ${pos.ok} of ${pos.sent} × GET /api/status/get answered 200 in ${pos.ms.toFixed(0)} ms (${((pos.ms * 1000) / pos.sent).toFixed(0)} µs each) on one connection${pos.closed ? ', which kasa CLOSED' : ', never closed'}`,
      `${connections} connection(s) × ${requests} × GET ${values.path}${values.batch ? ` (${batch} every ${values['gap-ms']} ms)` : ''}, never read for ${seconds} s, then read for 2 s`,
      `  memory: ${before.toFixed(0)} MB before, peak +${(peak - before).toFixed(0)} MB (flood and reading), +${(after - before).toFixed(0)} MB 1 s after the sockets were dropped`,
      `  GET /api/status/get meanwhile: ${statusMs.length} answers, slowest ${Math.max(...statusMs).toFixed(0)} ms, median ${median(statusMs).toFixed(0)} ms`,
      `  read by the flooding connections in the next 2 s: ${[...new Set(read)].join('; ')}`,
    ].join('\n'),
  );
} finally {
  await serve.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}-marks`, { recursive: true, force: true });
}

/** Counts the statuses of the answers arriving on `socket` (bodies skipped by Content-Length). */
function countStatuses(socket: Socket): Map<number, number> {
  const seen = new Map<number, number>();
  let head = Buffer.alloc(0);
  let skip = 0;
  socket.on('data', (d: Buffer) => {
    let chunk = d;
    while (chunk.length > 0) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length);
        skip -= n;
        chunk = chunk.subarray(n);
        continue;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const text = head.subarray(0, end).toString('latin1');
      const status = Number(text.split(' ')[1]);
      seen.set(status, (seen.get(status) ?? 0) + 1);
      skip = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
      chunk = head.subarray(end + 4);
      head = Buffer.alloc(0);
    }
  });
  return seen;
}

/** `n` requests on one connection, each written once the previous answer is complete. */
function oneAtATime(
  port: number,
  n: number,
): Promise<{ sent: number; ok: number; ms: number; closed: boolean }> {
  const request = 'GET /api/status/get HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  return new Promise((resolve) => {
    const t0 = performance.now();
    let sent = 0;
    let ok = 0;
    let closed = false;
    let buffered = Buffer.alloc(0);
    const socket = connect(port, '127.0.0.1', () => {
      sent += 1;
      socket.write(request);
    });
    const finish = () => resolve({ sent, ok, ms: performance.now() - t0, closed });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = sent < n || ok < n;
      finish();
    });
    socket.on('data', (d) => {
      buffered = Buffer.concat([buffered, d]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      if (head.startsWith('HTTP/1.1 200')) ok += 1;
      buffered = buffered.subarray(end + 4 + length);
      if (sent === n) {
        socket.removeAllListeners('close');
        socket.destroy();
        finish();
        return;
      }
      sent += 1;
      socket.write(request);
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}
