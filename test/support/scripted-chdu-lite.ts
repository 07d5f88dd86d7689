import { createServer, type Server, type Socket } from 'node:net';
import { FrameParser } from '../../src/adapters/chdu/chdu-lite-codec.js';

/** One step of the device's answer: bytes to send (after `delayMs`), or a byte the host must send. */
export type Step = { send: Uint8Array; delayMs?: number } | { expect: number };

/**
 * A CHDU Lite peer on TCP whose answers a test writes byte by byte, for wire cases the emulator
 * does not produce: late bytes, damaged frames, wrong addresses. Like a USB CDC device it keeps its
 * state when the host closes the port: what it sends meanwhile is delivered on the next connection
 * as soon as it opens. While idle it takes only frames (bytes before STX are ignored); while a
 * step `expect`s a host byte, the next byte is that answer (at most 1 s, else the script stops).
 */
export class ScriptedChduLite {
  /** Every byte the host sent, in order, across connections. */
  readonly fromHost: number[] = [];
  /** Commands received: the command byte and its arguments. */
  readonly commands: Array<{ cmd: number; args: Uint8Array }> = [];
  /** Host answers that did not come (`timeout`) or were not the expected byte. */
  readonly mismatches: string[] = [];
  private socket: Socket | undefined;
  private outbox: Uint8Array[] = [];
  private waiting: ((b: number | undefined) => void) | undefined;
  private busy: Promise<void> = Promise.resolve();
  private readonly parser = new FrameParser();

  private constructor(
    private readonly server: Server,
    private readonly script: (cmd: number, args: Uint8Array, n: number) => Step[],
  ) {}

  static async start(
    script: (cmd: number, args: Uint8Array, n: number) => Step[],
  ): Promise<ScriptedChduLite> {
    let device!: ScriptedChduLite;
    const server = createServer((s) => device.accept(s));
    device = new ScriptedChduLite(server, script);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return device;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** Resolves when every script started so far has run to its end. */
  settled(): Promise<void> {
    return this.busy;
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private accept(socket: Socket): void {
    this.socket?.destroy();
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    for (const b of this.outbox.splice(0)) socket.write(b);
    socket.on('data', (chunk: Buffer) => {
      for (const b of chunk) this.receive(b);
    });
  }

  private receive(b: number): void {
    this.fromHost.push(b);
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(b);
      return;
    }
    for (const r of this.parser.push(Uint8Array.of(b))) {
      if (r.kind !== 'frame') continue;
      const cmd = r.payload[0]!;
      const args = r.payload.slice(1);
      const steps = this.script(cmd, args, this.commands.length);
      this.commands.push({ cmd, args });
      this.busy = this.busy.then(() => this.run(steps));
    }
  }

  private async run(steps: Step[]): Promise<void> {
    for (const step of steps) {
      if ('send' in step) {
        await new Promise((r) => setTimeout(r, step.delayMs ?? 0));
        this.emit(step.send);
        continue;
      }
      const got = await new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => {
          this.waiting = undefined;
          resolve(undefined);
        }, 1000);
        this.waiting = (b) => {
          clearTimeout(timer);
          resolve(b);
        };
      });
      if (got !== step.expect) {
        this.mismatches.push(
          got === undefined ? `timeout waiting for 0x${step.expect.toString(16)}` : `0x${got.toString(16)}`,
        );
        return;
      }
    }
  }

  private emit(bytes: Uint8Array): void {
    if (this.socket && !this.socket.destroyed) this.socket.write(bytes);
    else this.outbox.push(bytes);
  }
}
