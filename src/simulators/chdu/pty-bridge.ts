import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Serves the emulator on a pseudo-terminal for serial tests: `socat` creates a pty (symlinked at
 * `path`) and, once a program opens it, links it to the emulator's TCP port. socat ends when the
 * program closes the pty, so it is started again, and the path comes back for the next open.
 */
export class PtyBridge {
  private child: ChildProcess | undefined;
  private stopped = false;

  private constructor(
    readonly path: string,
    private readonly host: string,
    private readonly port: number,
  ) {}

  static async start(path: string, port: number, host = '127.0.0.1'): Promise<PtyBridge> {
    const bridge = new PtyBridge(path, host, port);
    bridge.spawn();
    await bridge.ready();
    return bridge;
  }

  /** Resolves once the pty path exists (socat is waiting for the program to open it). */
  async ready(timeoutMs = 5000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!existsSync(this.path)) {
      if (this.stopped) throw new Error('pty bridge stopped');
      if (Date.now() > until) throw new Error(`socat did not create ${this.path}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
  }

  private spawn(): void {
    const child = spawn(
      'socat',
      [`pty,raw,echo=0,link=${this.path},wait-slave,pty-interval=0.02`, `tcp:${this.host}:${this.port}`],
      { stdio: 'ignore' },
    );
    this.child = child;
    child.once('error', () => {
      this.stopped = true;
    });
    child.once('exit', () => {
      if (!this.stopped) setTimeout(() => this.stopped || this.spawn(), 10);
    });
  }
}
