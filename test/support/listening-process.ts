import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ListeningProcess {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM to the whole process group (npm start runs sh → node); resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts any command that runs `kasa serve` (the packed binary, `npm start`, …) in its own process
 * group and resolves with the URL once it prints `kasa listening on URL`. Always give `--port 0`
 * and a temporary `--data-dir`.
 */
export function startListening(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<ListeningProcess> {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup('SIGKILL');
      reject(new Error(`${command} did not listen in ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
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
          if (child.exitCode === null) signalGroup('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code} before listening\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Command lines of `pid` and all its descendants (Linux /proc), e.g. to see what npm start runs. */
export function processTree(pid: number): string[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 is the parent pid; the command name (field 2) may contain spaces, so cut after ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, pp] of parents) {
      if (!tree.has(p) && tree.has(pp)) {
        tree.add(p);
        grew = true;
      }
    }
  }
  const lines: string[] = [];
  for (const p of tree) {
    try {
      lines.push(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      // gone
    }
  }
  return lines;
}
