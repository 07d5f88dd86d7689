import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP hop in front of a printer that drops the host's line right after the first drawer kick
 * (`ESC p`) passed it, before the printer's answer to the status request after that unit can come
 * back. Towards the printer the hop closes its end in an orderly way — no power cut: what arrived
 * is carried out, the kick included. The host only sees its line drop. Later connections, and
 * everything once the cut happened, pass straight through.
 */
export class CutAfterKickProxy {
  /** Lines dropped after a kick (at most one). */
  cuts = 0;
  private armed = true;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly to: { host: string; port: number },
  ) {}

  static async start(to: { host: string; port: number }): Promise<CutAfterKickProxy> {
    const server = createServer();
    const proxy = new CutAfterKickProxy(server, to);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    return proxy;
  }

  get host(): string {
    return '127.0.0.1';
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  private accept(client: Socket): void {
    const printer = connect(this.to.port, this.to.host);
    for (const s of [client, printer]) {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.once('close', () => this.sockets.delete(s));
    }
    let last = -1;
    client.on('data', (chunk: Buffer) => {
      if (this.armed && holdsKick(last, chunk)) {
        this.armed = false;
        this.cuts++;
        printer.end(chunk); // the printer gets the unit with the kick, then an orderly close
        client.destroy(); // the host's line drops before any answer comes back
        return;
      }
      last = chunk.at(-1) ?? last;
      printer.write(chunk);
    });
    printer.on('data', (answer: Buffer) => {
      if (!client.destroyed) client.write(answer);
    });
    client.once('close', () => printer.end());
    printer.once('close', () => client.destroy());
  }
}

/** ESC p (1B 70) in the chunk, or split between the previous chunk's last byte and this one. */
function holdsKick(previousLast: number, chunk: Buffer): boolean {
  if (previousLast === 0x1b && chunk[0] === 0x70) return true;
  for (let i = 0; i + 1 < chunk.length; i++) if (chunk[i] === 0x1b && chunk[i + 1] === 0x70) return true;
  return false;
}
