import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './shared-fixtures.js';

export interface ServeChild {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<number | null>;
}

/**
 * Starts `kasa serve` as a child process (the real entry point, through tsx) and resolves with
 * the URL it prints once it listens. Always pass `--port 0` and a temporary `--data-dir`.
 */
export function startServeChild(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'src', 'main.ts'), 'serve', ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kasa serve did not start in ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    const onData = (): void => {
      const m = /kasa listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: m[1]!,
        child,
        stdout: () => out,
        stderr: () => err,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`kasa serve exited with ${code} before listening\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}
