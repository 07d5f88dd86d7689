import { spawn } from 'node:child_process';
import { cpuMsOf, freePort, kasaCommand, kasaRoot } from './serve-process.js';

/** `kasa sfs-sim` on `caDir` as its own process, on a free port. */
export async function startSfsSim(
  caDir: string,
): Promise<{ url: string; base: string; cpuMs(): number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...kasaCommand().argv, 'sfs-sim', '--port', String(port), '--ca-dir', caDir],
    {
      cwd: kasaRoot(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kasa sfs-sim did not start:\n${out}`)), 120_000);
    child.stdout!.on('data', () => {
      const m = /SFS simulator listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => reject(new Error(`kasa sfs-sim exited:\n${out}`)));
  });
  return {
    url,
    base: new URL(url).origin,
    cpuMs: () => cpuMsOf(child.pid!),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
