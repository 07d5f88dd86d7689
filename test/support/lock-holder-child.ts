import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './shared-fixtures.js';

export interface HolderChild {
  child: ChildProcess;
  /** SIGKILL: the process gets no chance to release anything. */
  kill(): Promise<void>;
}

/**
 * Starts a child process that takes a lock and holds it until killed: `file-lock PATH` (a
 * FileLock), `data-dir DIR` (the data dir's lock) or `image PATH` (an ImageFileChdu opened for
 * writing). Resolves once the child says it holds it.
 */
export function startHolderChild(
  kind: 'file-lock' | 'data-dir' | 'image',
  path: string,
): Promise<HolderChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test', 'support', 'lock-holder-main.ts'), kind, path],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the lock holder did not start: ${out} ${err}`));
    }, 20_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      if (!out.includes('held')) return;
      clearTimeout(timer);
      resolve({
        child,
        async kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the lock holder exited early: ${out} ${err}`));
    });
  });
}
